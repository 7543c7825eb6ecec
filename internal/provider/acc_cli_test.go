package provider

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	xssh "golang.org/x/crypto/ssh"
)

// Helpers of the acceptance tests of the CLI switches (EOS, NX-OS): an operator's terminal on
// the switch, checks of its running-config, and the steps the platforms' tests share.

// cliLeaf is a lab EOS or NX-OS switch as its acceptance tests drive it.
type cliLeaf struct {
	device      string
	running     func() string
	blockOf     func(text, header string) string // cuts a block out of the running-config
	leftover    string                           // what a transaction may leave behind: EOS sessions, NX-OS checkpoints
	leftovers   func() []string
	connections func() int64 // SSH connections the switch accepted
	policy      func(ecnMin int, ports string) string
	port        string // a port of the switch
	platform    string
}

// restored is the CheckDestroy of a test that began with the running-config before.
func (s cliLeaf) restored(before string) func(*terraform.State) error {
	return cliRestored(before, s.running, s.leftover, s.leftovers)
}

// policyAndPFC applies v1 and checks the created lines, runs the import steps, then moves the
// policy and repairs an operator's change (moveAndRepairSteps with v2); destroy restores the
// switch.
func (l *accLab) policyAndPFC(t *testing.T, s cliLeaf, v1, v2 string, created [][3]string, imports []resource.TestStep, m policyMove) {
	before := s.running()
	m.device, m.running, m.blockOf = s.device, s.running, s.blockOf
	steps := append([]resource.TestStep{{Config: v1, Check: cliLines(cliLine(s.running, s.blockOf), created)}}, imports...)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             s.restored(before),
		Steps:                    append(steps, l.moveAndRepairSteps(t, v2, m)...),
	})
}

// planErrors checks the plan-time errors of cases and those every CLI switch gives (a CLI
// injection in a port name, ECN thresholds that are not whole kbytes, trust dscp_pcp), none of
// which may open a connection to the switch.
func (l *accLab) planErrors(t *testing.T, s cliLeaf, injection string, cases ...planError) {
	common := []planError{
		{"injection in an interface name", fmt.Sprintf(`
resource "roce_pfc_interface" "x" {
  device    = %q
  interface = %q
}`, s.device, injection), `(?s)interface`, nil},
		{"threshold not whole kbytes", s.policy(150000, fmt.Sprintf("%q", s.port)),
			`(?s)150000 bytes is not a whole number of kbytes.*149504 \(146 kbytes\)\s+or\s+150528 \(147 kbytes\)`, nil},
		{"trust dscp_pcp", fmt.Sprintf(`
resource "roce_qos_policy" "x" {
  device = %q
  trust  = "dscp_pcp"
  classes = { roce = { traffic_class = 3, dscp = [26], pcp = [3], bandwidth_percent = 100 } }
}`, s.device), `(?s)Not supported on platform ` + s.platform + `.*trust`, nil},
	}
	l.expectPlanErrors(t, append(common, cases...), nil)
	if n := s.connections(); n != 0 {
		t.Errorf("plan-time errors opened %d SSH connections to the switch; they need none", n)
	}
}

// unordered is a resource's HCL without its depends_on on the policy.
func unordered(hcl string) string {
	return strings.Replace(hcl, "depends_on = [roce_qos_policy.leaf]", "", 1)
}

// cliLine returns a check that the switch's running-config holds line, within the block that
// starts with header (blockOf cuts it out; header "" is the whole configuration).
func cliLine(running func() string, blockOf func(text, header string) string) func(what, header, line string) error {
	return func(what, header, line string) error {
		text := running()
		if header != "" {
			text = blockOf(text, header)
		}
		if !strings.Contains(text, line) {
			return fmt.Errorf("%s: %q not in %s:\n%s", what, line, header, text)
		}
		return nil
	}
}

// cliRestored is a CheckDestroy: the running-config is byte for byte what it was before, and
// the switch keeps no transaction of ours (leftovers: EOS sessions, NX-OS checkpoints).
func cliRestored(before string, running func() string, what string, leftovers func() []string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if after := running(); after != before {
			return fmt.Errorf("destroy did not restore the running-config.\nbefore:\n%s\nafter:\n%s", before, after)
		}
		if l := leftovers(); len(l) != 0 {
			return fmt.Errorf("%s left behind: %v", what, l)
		}
		return nil
	}
}

// cliLines returns a check that every {what, header, line} is in the running-config (want is
// cliLine's check).
func cliLines(want func(what, header, line string) error, lines [][3]string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, c := range lines {
			if err := want(c[0], c[1], c[2]); err != nil {
				return err
			}
		}
		return nil
	}
}

// updatesPolicyAndPFC expects the plan to update the policy and the port's PFC in place.
var updatesPolicyAndPFC = expectUpdates("roce_qos_policy.leaf", "roce_pfc_interface.e1")

// rejectingSwitch is what the refusal tests use of a lab CLI switch (EOS or NX-OS).
type rejectingSwitch interface {
	RunningConfig() string
	RejectLines(substr, msg string)
}

// refusal is a line the switch refuses with msg, and the error the apply must then show.
type refusal struct {
	line, msg string
	err       *regexp.Regexp
}

// rejectedChangeSteps: the switch refuses a line of the create (v1), which commits and records
// nothing (the running-config as before, no transaction of ours left: leftovers, named what);
// v1 is then still to be created and applies; a refused update (to v2) leaves the
// running-config and the state as they were.
func rejectedChangeSteps(t *testing.T, sw rejectingSwitch, v1, v2 string, create, update refusal, what string, leftovers func() []string) []resource.TestStep {
	before := sw.RunningConfig()
	var applied string
	return []resource.TestStep{
		{
			PreConfig:   func() { sw.RejectLines(create.line, create.msg) },
			Config:      v1,
			ExpectError: create.err,
		},
		{
			PreConfig: func() {
				if got := sw.RunningConfig(); got != before {
					t.Fatalf("a refused create changed the running-config:\n%s", got)
				}
				if l := leftovers(); len(l) != 0 {
					t.Fatalf("%s left behind by the refused create: %v", what, l)
				}
				sw.RejectLines("", "")
			},
			Config:             v1,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true, // nothing was recorded: the policy is still to be created
		},
		{Config: v1, Check: func(*terraform.State) error { applied = sw.RunningConfig(); return nil }},
		{
			PreConfig:   func() { sw.RejectLines(update.line, update.msg) },
			Config:      v2,
			ExpectError: update.err,
		},
		{
			PreConfig: func() {
				if got := sw.RunningConfig(); got != applied {
					t.Fatalf("a refused update changed the running-config:\n%s", got)
				}
				sw.RejectLines("", "")
			},
			Config: v1, PlanOnly: true, // state still holds v1, which the device has: nothing to do
		},
	}
}

// policyMove is, for one CLI switch, the update of the policy-and-PFC tests (the policy moves
// off port unbound onto another, its ECN threshold changes) and an operator's out-of-band
// change that the next apply repairs.
type policyMove struct {
	device         string
	running        func() string
	blockOf        func(text, header string) string
	unbound, bound string      // the header of the port the policy left, and its binding line
	updated        [][3]string // cliLines after the update
	operator       []string    // what the operator types in configure mode
	repaired       [][3]string // cliLines after the repair
}

// moveAndRepairSteps applies v2 (the policy and the PFC interface updated in place) and
// checks m.updated and that m.unbound lost its binding; then the operator's change, which the
// plan shows as updates of both and the apply repairs (m.repaired).
func (l *accLab) moveAndRepairSteps(t *testing.T, v2 string, m policyMove) []resource.TestStep {
	want := cliLine(m.running, m.blockOf)
	return []resource.TestStep{
		{
			Config:           v2,
			ConfigPlanChecks: updatesPolicyAndPFC,
			Check: func(s *terraform.State) error {
				if strings.Contains(m.blockOf(m.running(), m.unbound), m.bound) {
					return fmt.Errorf("%s is still bound after the policy moved off it:\n%s", strings.TrimPrefix(m.unbound, "interface "), m.running())
				}
				return cliLines(want, m.updated)(s)
			},
		},
		{ // an operator types changes in their own SSH session: the plan shows both, apply repairs
			PreConfig:        func() { l.terminal(t, m.device).configure(m.operator...) },
			Config:           v2,
			ConfigPlanChecks: updatesPolicyAndPFC,
			Check:            cliLines(want, m.repaired),
		},
	}
}

// cliTerminal is an operator typing at a switch's CLI over their own SSH session (plain
// x/crypto/ssh with a pty, not the provider's scrapligo transport): how out-of-band changes
// reach a CLI switch in the tests.
type cliTerminal struct {
	t      *testing.T
	prompt *regexp.Regexp
	stdin  io.WriteCloser

	mu  sync.Mutex
	buf bytes.Buffer
}

type lockedWriter struct{ c *cliTerminal }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	return w.c.buf.Write(p)
}

// terminal logs in to a CLI switch of the lab and waits for its first prompt.
func (l *accLab) terminal(t *testing.T, device string) *cliTerminal {
	t.Helper()
	c := l.dialSSH(t, device)
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	term := &cliTerminal{t: t, prompt: regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(device) + `(\([^)]*\))?[>#]\s?$`)}
	s.Stdout, s.Stderr = lockedWriter{term}, lockedWriter{term}
	if term.stdin, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("vt100", 24, 200, xssh.TerminalModes{xssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	term.wait()
	return term
}

// wait returns what the switch printed up to its next prompt.
func (c *cliTerminal) wait() string {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		text := c.buf.String()
		if loc := c.prompt.FindStringIndex(strings.ReplaceAll(text, "\r", "")); loc != nil {
			clean := strings.ReplaceAll(text, "\r", "")
			c.buf.Reset()
			c.buf.WriteString(clean[loc[1]:])
			c.mu.Unlock()
			return clean[:loc[1]]
		}
		c.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t.Fatalf("no prompt within 10s; the switch printed:\n%s", c.buf.String())
	return ""
}

// typeLine types one line and returns the switch's answer (echo, output and prompt).
func (c *cliTerminal) typeLine(line string) string {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.stdin, "%s\n", line); err != nil {
		c.t.Fatal(err)
	}
	return c.wait()
}

// configure types lines in `configure terminal` as an operator would, failing the test on
// any `%` error the switch prints.
func (c *cliTerminal) configure(lines ...string) {
	c.t.Helper()
	for _, line := range append(append([]string{"enable", "configure terminal"}, lines...), "end") {
		if out := c.typeLine(line); strings.Contains(out, "\n% ") {
			c.t.Fatalf("the switch refused %q:\n%s", line, out)
		}
	}
}
