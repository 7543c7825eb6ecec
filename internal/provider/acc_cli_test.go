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

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// The acceptance tests of the CLI switches (EOS, NX-OS) that show the same behaviour on both,
// and their helpers: an operator's terminal on the switch, checks of its running-config, and
// the steps the platforms' own tests share.

// cliSwitch is what the tests use of a lab CLI switch (EOS or NX-OS) itself.
type cliSwitch interface {
	cliConfigs
	Interfaces() []string
	RejectLines(substr, msg string)
	WarnLines(substr, msg string)
	Counters() lab.CLICounters
}

// cliLeaf is a lab EOS or NX-OS switch as its acceptance tests drive it.
type cliLeaf struct {
	sw        cliSwitch
	device    string
	running   func() string
	blockOf   func(text, header string) string // cuts a block out of the running-config
	leftover  string                           // what a transaction may leave behind: EOS sessions, NX-OS checkpoints
	leftovers func() []string
	policy    func(ecnMin int, ports string) string
	pfc       func(port string, setting int) string // roce_pfc_interface.e1 on port, depending on the policy
	port      string                                // a port of the switch
	platform  string
}

// cliSwitchLab starts a lab with one CLI switch of platform (eos or nxos) and returns its leaf.
func cliSwitchLab(t *testing.T, platform string) (*accLab, cliLeaf) {
	l := switchLab(t, platform)
	if platform == "eos" {
		return l, eosLeaf(l.EOS("eos-1"))
	}
	return l, nxosLeaf(l.NXOS("nxos-1"))
}

// The behaviour every CLI switch (EOS, NX-OS) shows alike, one subtest a platform
// (`-run 'TestAccCLIPolicyAndPFC/eos'`): the steps are the same, each platform giving its ports,
// settings and the running-config lines they become.

// TestAccCLIPolicyAndPFC applies the policy on two ports and a PFC interface (v1) and checks the
// created lines, imports both, then moves the policy and repairs an operator's change
// (moveAndRepairSteps); destroy restores the switch.
func TestAccCLIPolicyAndPFC(t *testing.T) {
	for _, c := range []struct {
		platform string
		ports    [3]string
		pfc      [2]int      // the PFC interface's setting (pfc of cliLeaf) in v1 and v2
		created  [][3]string // cliLines after v1
		imported map[string]string
		move     policyMove
	}{
		{
			platform: "eos",
			ports:    [3]string{"Ethernet1", "Ethernet2", "Ethernet3"},
			pfc:      [2]int{200, 300}, // watchdog detection ms
			created: [][3]string{
				// EOS already sends 24-31 to TC 3 and 0-7 to TC 1: the whole map moves every DSCP no
				// class lists to the default class, and only what differs is shown.
				{"unlisted DSCPs -> default TC 0", "", "\nqos map dscp 0 1 2 3 4 5 6 7 16 "},
				{"DSCP 26 stays in TC 3, its neighbours leave it", "", " 24 25 27 28 "},
				{"ECN in kbytes on the instantaneous queue", "qos profile ROCE", "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100 weight 0"},
				{"ECN counter", "qos profile ROCE", "random-detect ecn count"},
				{"roce lossless", "qos profile ROCE", "priority-flow-control priority 3 no-drop"},
				{"cnp strict", "qos profile ROCE", "tx-queue 6\n      priority strict\n"},
				{"Ethernet1 bound", "interface Ethernet1", "service-profile ROCE"},
				{"Ethernet2 bound", "interface Ethernet2", "service-profile ROCE"},
				{"PFC on", "interface Ethernet1", "priority-flow-control on"},
				{"watchdog", "interface Ethernet1", "priority-flow-control pause watchdog port timer timeout 0.20 polling-interval auto recovery-time 0.40"},
			},
			// EOS keeps no class names (a tx-queue has none, `qos map` is global): an import
			// names each class tc<N>, and lists every DSCP the whole map sends to it.
			imported: map[string]string{
				"name": "ROCE", "trust": "dscp", "default_traffic_class": "0",
				"interfaces.#": "2", "interfaces.0": "Ethernet1", "interfaces.1": "Ethernet2",
				"classes.%":                 "3",
				"classes.tc3.traffic_class": "3", "classes.tc3.dscp.#": "1", "classes.tc3.dscp.0": "26",
				"classes.tc3.bandwidth_percent": "50", "classes.tc3.lossless": "true",
				"classes.tc3.ecn.min_threshold_bytes": "153600", "classes.tc3.ecn.max_threshold_bytes": "1536000",
				"classes.tc3.ecn.mark_probability_percent": "100",
				"classes.tc6.strict_priority":              "true", "classes.tc6.dscp.#": "1", "classes.tc6.dscp.0": "48",
				"classes.tc0.bandwidth_percent": "50", "classes.tc0.dscp.#": "62", "classes.tc0.lossless": "false",
			},
			move: policyMove{
				unbound: "interface Ethernet1", bound: "service-profile",
				updated: [][3]string{
					{"Ethernet3 bound", "interface Ethernet3", "service-profile ROCE"},
					{"ECN updated", "qos profile ROCE", "minimum-threshold 200 kbytes"},
				},
				operator: []string{"qos profile ROCE", "tx-queue 3",
					"random-detect ecn minimum-threshold 100 kbytes maximum-threshold 1500 kbytes",
					"interface Ethernet1", "no priority-flow-control on"},
				repaired: [][3]string{
					{"ECN repaired", "qos profile ROCE", "minimum-threshold 200 kbytes"},
					{"PFC repaired", "interface Ethernet1", "priority-flow-control on"},
				},
			},
		},
		{
			platform: "nxos",
			ports:    [3]string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"},
			pfc:      [2]int{122880, 143360}, // headroom xoff bytes
			created: [][3]string{
				{"roce class-map", "class-map type qos match-any ROCE-roce", "match dscp 26"},
				{"qos-group", "policy-map type qos ROCE", "class ROCE-roce\n    set qos-group 3"},
				{"unlisted DSCPs to the default TC", "policy-map type qos ROCE", "class class-default\n    set qos-group 0"},
				{"ECN in kbytes", "policy-map type queuing ROCE-out", "random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn"},
				{"cnp strict", "policy-map type queuing ROCE-out", "class type queuing c-out-8q-q6\n    priority level 2"},
				{"control queue kept", "policy-map type queuing ROCE-out", "class type queuing c-out-8q-q7\n    priority level 1"},
				{"unused queue owned whole", "policy-map type queuing ROCE-out", "class type queuing c-out-8q-q5\n    bandwidth remaining percent 0"},
				{"no-drop", "policy-map type network-qos ROCE-nq", "pause pfc-cos 3"},
				{"jumbo", "policy-map type network-qos ROCE-nq", "mtu 9216"},
				{"jumbo default class", "policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq-default\n    mtu 9216"},
				{"system qos", "system qos", "service-policy type network-qos ROCE-nq"},
				{"Ethernet1/2 bound", "interface Ethernet1/2", "service-policy type qos input ROCE"},
				{"PFC on", "interface Ethernet1/1", "priority-flow-control mode on"},
				{"watchdog", "interface Ethernet1/1", "priority-flow-control watch-dog-interval on"},
				{"headroom", "policy-map type queuing roce-in-Ethernet1_1", "pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440"},
			},
			// NX-OS keeps the class names in its class-maps: the import is the state as applied.
			imported: nil,
			move: policyMove{
				unbound: "interface Ethernet1/1", bound: "service-policy type qos input",
				updated: [][3]string{
					{"Ethernet1/3 bound", "interface Ethernet1/3", "service-policy type qos input ROCE"},
					{"queuing system-wide", "system qos", "service-policy type queuing output ROCE-out"},
					{"ECN updated", "policy-map type queuing ROCE-out", "minimum-threshold 200 kbytes"},
				},
				operator: []string{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q3",
					"random-detect minimum-threshold 100 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn",
					"interface Ethernet1/1", "priority-flow-control mode off"},
				repaired: [][3]string{
					{"ECN repaired", "policy-map type queuing ROCE-out", "minimum-threshold 200 kbytes"},
					{"PFC repaired", "interface Ethernet1/1", "priority-flow-control mode on"},
				},
			},
		},
	} {
		t.Run(c.platform, func(t *testing.T) {
			l, s := cliSwitchLab(t, c.platform)
			p := c.ports
			v1 := l.providerHCL() + s.policy(153600, fmt.Sprintf("%q, %q", p[0], p[1])) + s.pfc(p[0], c.pfc[0])
			v2 := l.providerHCL() + s.policy(204800, fmt.Sprintf("%q, %q", p[1], p[2])) + s.pfc(p[0], c.pfc[1])
			before := s.running()
			policyImport := resource.TestStep{ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: s.device + "/ROCE",
				ImportStateVerify: c.imported == nil}
			if c.imported != nil {
				policyImport.ImportStateCheck = importedAttrs(c.imported)
			}
			m := c.move
			m.device, m.running, m.blockOf = s.device, s.running, s.blockOf
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6Factories,
				CheckDestroy:             s.restored(before),
				Steps: append([]resource.TestStep{
					{Config: v1, Check: cliLines(cliLine(s.running, s.blockOf), c.created)},
					policyImport,
					{ResourceName: "roce_pfc_interface.e1", ImportState: true, ImportStateId: s.device + "/" + p[0], ImportStateVerify: true},
				}, l.moveAndRepairSteps(t, v2, m)...),
			})
		})
	}
}

// refusal is a line the switch refuses with msg, and the error the apply must then show.
type refusal struct {
	line, msg string
	err       *regexp.Regexp
}

// TestAccCLIRejectedChange: the switch refuses a line of the create (v1), which commits and
// records nothing (the running-config as before, no transaction of ours left); v1 is then still
// to be created and applies; a refused update (to v2) leaves the running-config, and the state,
// as they were.
func TestAccCLIRejectedChange(t *testing.T) {
	for _, c := range []struct {
		platform       string
		create, update refusal
		then           func(s cliLeaf, v2 string) []resource.TestStep // steps of this platform alone
	}{
		{
			platform: "eos",
			create: refusal{"random-detect ecn", "Unavailable command (not supported on this hardware platform)",
				regexp.MustCompile(`(?s)Cannot create QoS policy "ROCE" on device "eos-1".*random-detect ecn.*%\s+Unavailable\s+command\s+\(not\s+supported\s+on\s+this\s+hardware\s+platform\)`)},
			update: refusal{"minimum-threshold 200 kbytes", "Invalid input",
				regexp.MustCompile(`(?s)Cannot update QoS policy "ROCE".*minimum-threshold\s+200\s+kbytes.*%\s+Invalid\s+input`)},
		},
		{
			platform: "nxos",
			// the switch refuses a line in the middle of the create with a module status (no `%`,
			// no `ERROR:`; a capture in nxos-switch.md, "Refusals"): rolled back to the checkpoint
			create: refusal{"random-detect", `Unable to perform the action due to incompatibility:  Module 1 returned status "ACLQOS_ERROR: Invalid Class id : Max class reached"`,
				regexp.MustCompile(`(?s)Cannot create QoS policy "ROCE" on device "nxos-1".*random-detect.*Module\s+1\s+returned\s+status.*Max\s+class\s+reached.*rolled\s+back`)},
			// the TCAM refusal of a switch whose qos region is not carved
			update: refusal{"minimum-threshold 200 kbytes", `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"`,
				regexp.MustCompile(`(?s)Cannot update QoS policy "ROCE".*TCAM\s+region\s+is\s+not\s+configured`)},
			then: func(s cliLeaf, v2 string) []resource.TestStep {
				return []resource.TestStep{
					{ // a line taken with a warning: applied, recorded, and the warning shown
						PreConfig: func() {
							s.sw.WarnLines("minimum-threshold 200 kbytes", "Warning: privilege escalation support is deprecated and will be removed in future release.")
						},
						Config: v2,
						Check: func(*terraform.State) error {
							s.sw.WarnLines("", "")
							if !strings.Contains(s.running(), "minimum-threshold 200 kbytes") {
								return fmt.Errorf("the change answered with a warning was not applied")
							}
							return nil
						},
					},
					{Config: v2, PlanOnly: true},
				}
			},
		},
	} {
		t.Run(c.platform, func(t *testing.T) {
			l, s := cliSwitchLab(t, c.platform)
			v1 := l.providerHCL() + s.policy(153600, fmt.Sprintf("%q", s.port))
			v2 := l.providerHCL() + s.policy(204800, fmt.Sprintf("%q", s.port))
			created, applied := s.running(), ""
			// refused is the apply of cfg while the switch refuses r's line; the step after it
			// starts with unchanged.
			refused := func(r refusal, cfg string) resource.TestStep {
				return resource.TestStep{PreConfig: func() { s.sw.RejectLines(r.line, r.msg) }, Config: cfg, ExpectError: r.err}
			}
			// unchanged checks that the refused change (what) left the running-config as want
			// and no transaction of ours behind, then lifts the refusal.
			unchanged := func(what string, want *string) func() {
				return func() {
					if got := s.running(); got != *want {
						t.Fatalf("a refused %s changed the running-config:\n%s", what, got)
					}
					if left := s.leftovers(); len(left) != 0 {
						t.Fatalf("%s left behind by the refused %s: %v", s.leftover, what, left)
					}
					s.sw.RejectLines("", "")
				}
			}
			steps := []resource.TestStep{
				refused(c.create, v1),
				// nothing was recorded: the policy is still to be created
				{PreConfig: unchanged("create", &created), Config: v1, PlanOnly: true, ExpectNonEmptyPlan: true},
				{Config: v1, Check: func(*terraform.State) error { applied = s.running(); return nil }},
				refused(c.update, v2),
				// the state still holds v1, which the switch has: nothing to do
				{PreConfig: unchanged("update", &applied), Config: v1, PlanOnly: true},
			}
			if c.then != nil {
				steps = append(steps, c.then(s, v2)...)
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: steps})
		})
	}
}

// TestAccCLIPlanTimeErrors: errors found at plan time, none of which may open a connection to
// the switch; the first three every CLI switch gives (a CLI injection in a port name, ECN
// thresholds that are not whole kbytes, trust dscp_pcp), the others are the platform's.
func TestAccCLIPlanTimeErrors(t *testing.T) {
	for _, c := range []struct {
		platform  string
		injection string // a port name with a second CLI command in it
		cases     []planError
	}{
		{
			platform: "eos", injection: "Ethernet1\nreload now",
			cases: []planError{
				{"injection in a bound port", eosPolicyHCL(153600, `"Ethernet1 | json"`), `(?s)interfaces`, nil},
				{"injection in a policy name", `
resource "roce_qos_policy" "x" {
  device = "eos-1"
  name   = "ROCE!x"
  classes = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 } }
  interfaces = ["Ethernet1"]
}`, `(?s)name`, nil},
				{"strict class below a round-robin class", replaced(t, eosPolicyHCL(153600, `"Ethernet1"`), "traffic_class = 6", "traffic_class = 2"),
					`(?s)Not supported on platform eos.*EOS makes every queue below a round-robin\s+queue\s+round-robin\s+too`, nil},
				{"per-class mtu", `
resource "roce_qos_policy" "x" {
  device = "eos-1"
  classes = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, mtu = 9216 } }
}`, `(?s)Not supported on platform eos.*nxos`, nil},
				{"pfc mode auto", `
resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
  mode      = "auto"
}`, `(?s)Not supported on platform eos.*DCBX`, nil},
				{"pfc headroom", `
resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
  buffer    = { xoff_bytes = 122880, xon_bytes = 61440 }
}`, `(?s)Not supported on platform eos`, nil},
				{"watchdog not in 10 ms steps", `
resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
  watchdog  = { detection_time_ms = 205, restoration_time_ms = 400 }
}`, `(?s)Not supported on platform eos.*10 ms`, nil},
			},
		},
		{
			platform: "nxos", injection: "Ethernet1/1 ; reload",
			cases: []planError{
				{"mtu out of range", `
resource "roce_qos_policy" "x" {
  device = "nxos-1"
  classes = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, mtu = 9300 } }
}`, `(?s)mtu 9300 out of range 1500-9216`, nil},
				{"watchdog times", `
resource "roce_pfc_interface" "x" {
  device    = "nxos-1"
  interface = "Ethernet1/1"
  watchdog  = { detection_time_ms = 200, restoration_time_ms = 400 }
}`, `(?s)Not supported on platform nxos.*system-wide`, nil},
				{"cable length", `
resource "roce_pfc_interface" "x" {
  device    = "nxos-1"
  interface = "Ethernet1/1"
  buffer    = { cable_length_m = 5 }
}`, `(?s)Not supported on platform nxos`, nil},
			},
		},
	} {
		t.Run(c.platform, func(t *testing.T) {
			l, s := cliSwitchLab(t, c.platform)
			common := []planError{
				{"injection in an interface name", fmt.Sprintf(`
resource "roce_pfc_interface" "x" {
  device    = %q
  interface = %q
}`, s.device, c.injection), `(?s)interface`, nil},
				{"threshold not whole kbytes", s.policy(150000, fmt.Sprintf("%q", s.port)),
					`(?s)150000 bytes is not a whole number of kbytes.*149504 \(146 kbytes\)\s+or\s+150528 \(147 kbytes\)`, nil},
				{"trust dscp_pcp", fmt.Sprintf(`
resource "roce_qos_policy" "x" {
  device = %q
  trust  = "dscp_pcp"
  classes = { roce = { traffic_class = 3, dscp = [26], pcp = [3], bandwidth_percent = 100 } }
}`, s.device), `(?s)Not supported on platform ` + s.platform + `.*trust`, nil},
			}
			l.expectPlanErrors(t, append(common, c.cases...), nil)
			if n := s.sw.Counters().Connections; n != 0 {
				t.Errorf("plan-time errors opened %d SSH connections to the switch; they need none", n)
			}
		})
	}
}

// restored is the CheckDestroy of a test that began with the running-config before.
func (s cliLeaf) restored(before string) func(*terraform.State) error {
	return cliRestored(before, s.running, s.leftover, s.leftovers)
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
