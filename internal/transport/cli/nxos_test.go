package cli

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scrapli/scrapligo/platform"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event/eventtest"
)

func newNXClient(t *testing.T, s *fakeEOS, edit func(*Config)) *Client {
	t.Helper()
	return newClient(t, s, func(c *Config) {
		c.Platform = "cisco_nxos"
		if edit != nil {
			edit(c)
		}
	})
}

// nxSinceLogin is the transcript after the connection's own commands (through the checkpoint
// listing) and the first transaction's look for another one in progress (a second listing).
func nxSinceLogin(t *testing.T, s *fakeEOS) []string {
	t.Helper()
	tr := afterLoginListing(t, s, "show checkpoint summary user", "checkpoint")
	if len(tr) == 0 || tr[0] != "show checkpoint summary user" {
		t.Fatalf("the transaction did not look for another one in progress first: %q", tr)
	}
	return tr[1:]
}

var checkpointName = regexp.MustCompile(`^checkpoint (roce-[0-9a-f]{8})$`)

// nxCheckpoint is the checkpoint name the transaction in tr took first.
func nxCheckpoint(t *testing.T, tr []string) string {
	t.Helper()
	if len(tr) == 0 || !checkpointName.MatchString(tr[0]) {
		t.Fatalf("transcript = %q, want checkpoint roce-XXXXXXXX first", tr)
	}
	return checkpointName.FindStringSubmatch(tr[0])[1]
}

func TestNXOSConfigureCheckpointTransaction(t *testing.T) {
	s := newFakeNXOS(t)
	c := newNXClient(t, s, nil)
	lines := []string{"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "pause pfc-cos 3",
		"mtu 9216", "exit", "exit", "system qos", "service-policy type network-qos ROCE-nq",
		"interface Ethernet1/1", "priority-flow-control mode on"}
	if err := c.Configure(context.Background(), lines); err != nil {
		t.Fatal(err)
	}
	tr, _, _ := s.state()
	if diff := cmp.Diff([]string{"terminal width 511", "terminal length 0", "show checkpoint summary user"}, tr[:3]); diff != "" {
		t.Errorf("login commands, no `enable` at `#` (-want +got):\n%s", diff)
	}
	tr = nxSinceLogin(t, s)
	name := nxCheckpoint(t, tr)
	want := append(append([]string{"checkpoint " + name, "configure terminal"}, lines...), "end", "no checkpoint "+name)
	if diff := cmp.Diff(want, tr); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	running, startup, checkpoints := s.nxSnapshot()
	if !slices.Contains(running, "mtu 9216") || len(running) != len(lines)-2 || len(checkpoints) != 0 || startup != nil {
		t.Errorf("running %q, startup %q, checkpoints %q", running, startup, checkpoints)
	}
	if c.cn.d.CurrentPriv != privExec {
		t.Errorf("after the transaction: priv %q", c.cn.d.CurrentPriv)
	}
	if err := c.Configure(context.Background(), []string{"hostname leaf-1"}); err != nil {
		t.Fatal(err)
	}
	if out := mustShow(t, c, "show running-config ipqos"); !strings.Contains(out[0], "hostname leaf-1") {
		t.Errorf("running-config = %q", out[0])
	}
	_, err := c.Show(context.Background(), "show bogus")
	if e := asError(t, err, "show"); !e.Rejected || e.Output != "% Invalid command at '^' marker." {
		t.Errorf("refused show: %+v", e)
	}
	if n := s.Accepts.Load(); n != 1 {
		t.Errorf("%d connections for four operations, want 1", n)
	}
}

func TestNXOSRefusedLineRollsBack(t *testing.T) {
	for _, tc := range []struct {
		name, bad, output string
	}{
		{"range", "mtu 99999", "% Invalid number, range is (576:9216) at '^' marker."},
		{"unknown", "pause-pfc 3", "% Invalid command at '^' marker."},
		{"ERROR line in system qos", "service-policy type network-qos MISSING", "ERROR: policy-map MISSING does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeNXOS(t)
			s.running = []string{"hostname nxos-1"}
			s.reject = "MISSING"
			c := newNXClient(t, s, nil)
			lines := []string{"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "pause pfc-cos 3",
				"exit", "exit", "system qos", tc.bad, "interface Ethernet1/1"}
			err := c.Configure(context.Background(), lines)
			e := asError(t, err, "configure")
			if !e.Rejected || !e.RolledBack || e.Line != tc.bad || e.Output != tc.output {
				t.Errorf("error = %+v", e)
			}
			tr := nxSinceLogin(t, s)
			name := nxCheckpoint(t, tr)
			want := append(append([]string{"checkpoint " + name, "configure terminal"}, lines[:7]...),
				"end", "rollback running-config checkpoint "+name+" atomic", "no checkpoint "+name)
			if diff := cmp.Diff(want, tr); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(e.Error(), `device "leaf-1" refused the configuration line "`+tc.bad+`": `) ||
				!strings.HasSuffix(e.Error(), `": `+tc.output+"; the configuration was rolled back to checkpoint "+name+", nothing was changed") {
				t.Errorf("message = %q", e.Error())
			}
			if running, _, checkpoints := s.nxSnapshot(); !slices.Equal(running, []string{"hostname nxos-1"}) || len(checkpoints) != 0 {
				t.Errorf("running %q, checkpoints %q after the rollback", running, checkpoints)
			}
			mustShow(t, c, "show version") // the channel is still good
			if s.Accepts.Load() != 1 {
				t.Errorf("reconnected after a refusal")
			}
		})
	}
}

func TestNXOSRollbackFailureReported(t *testing.T) {
	s := newFakeNXOS(t)
	s.failRollback = true
	c := newNXClient(t, s, nil)
	err := c.Configure(context.Background(), []string{"system qos", "mtu 1"})
	e := asError(t, err, "configure")
	if !e.Rejected || e.RolledBack || e.Line != "mtu 1" {
		t.Errorf("error = %+v", e)
	}
	tr := nxSinceLogin(t, s)
	name := nxCheckpoint(t, tr)
	for _, want := range []string{"rolling back to checkpoint " + name + " failed", "Rollback failed.",
		"the switch may hold part of the change"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("message lacks %q: %s", want, e.Error())
		}
	}
	// The checkpoint is the operator's way back after a failed rollback: it is kept.
	if tr[len(tr)-1] != "rollback running-config checkpoint "+name+" atomic" || !strings.Contains(e.Error(), "checkpoint is kept") {
		t.Errorf("after a failed rollback the checkpoint must be kept and the error say so: %q\n%s", tr, e.Error())
	}
}

func TestNXOSCheckpointRefused(t *testing.T) {
	s := newFakeNXOS(t)
	s.failCheckpoint = true
	c := newNXClient(t, s, nil)
	e := asError(t, c.Configure(context.Background(), []string{"system qos"}), "configure")
	if !e.Rejected || !e.RolledBack || !strings.HasPrefix(e.Line, "checkpoint roce-") ||
		e.Output != "ERROR: Maximum number of checkpoints reached" || !strings.Contains(e.Error(), "nothing was changed") {
		t.Errorf("error = %+v", e)
	}
	if tr := nxSinceLogin(t, s); len(tr) != 1 {
		t.Errorf("sent after the refused checkpoint: %q", tr)
	}
}

func TestNXOSCheckpointDeleteFailure(t *testing.T) {
	s := newFakeNXOS(t)
	s.failDelete = true
	log := &eventtest.Recorder{}
	c := newNXClient(t, s, func(c *Config) { c.Logger = log })
	// After a success the failure is the error, saying the change is applied.
	e := asError(t, c.Configure(context.Background(), []string{"hostname a"}), "configure")
	if e.Rejected || !strings.Contains(e.Error(), "the change is applied, but deleting checkpoint roce-") ||
		!strings.Contains(e.Error(), "ERROR: checkpoint service is busy") {
		t.Errorf("error = %v", e)
	}
	// After a refusal it is only logged.
	e = asError(t, c.Configure(context.Background(), []string{"mtu 1"}), "configure")
	if !e.Rejected || !e.RolledBack || strings.Contains(e.Error(), "deleting") {
		t.Errorf("error = %v", e)
	}
	if n := strings.Count(log.String(), "CLI could not delete checkpoint"); n != 2 {
		t.Errorf("%d delete failures logged, want 2:\n%s", n, log.String())
	}
}

func TestNXOSSaveConfig(t *testing.T) {
	s := newFakeNXOS(t)
	c := newNXClient(t, s, func(c *Config) { c.SaveConfig = true })
	if err := c.Configure(context.Background(), []string{"system qos", "service-policy type network-qos ROCE-nq"}); err != nil {
		t.Fatal(err)
	}
	tr := nxSinceLogin(t, s)
	name := nxCheckpoint(t, tr)
	if diff := cmp.Diff([]string{"end", "no checkpoint " + name, "copy running-config startup-config"}, tr[len(tr)-3:]); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	if running, startup, _ := s.nxSnapshot(); !slices.Equal(running, startup) || len(startup) != 2 {
		t.Errorf("running %q, startup %q", running, startup)
	}
}

func TestNXOSStaleCheckpointsDeletedAtConnect(t *testing.T) {
	s := newFakeNXOS(t)
	add := func(name string, age time.Duration) {
		s.checkpoints = append(s.checkpoints, &fakeCheckpoint{name: name, created: s.clock.Add(-age)})
	}
	add("roce-0b1d77aa", 2*time.Hour)     // ours, left behind: deleted
	add("roce-4f1c2a9e", 5*time.Minute)   // ours, a live transaction's: kept
	add("before-upgrade", 3*time.Hour)    // not ours: kept
	add("roce-manual-save", 48*time.Hour) // not a name we give: kept
	add("roce-c0ffee00", 61*time.Minute)  // ours, left behind: deleted
	add("roce-deadbeef", -30*time.Second) // the device clock went back: kept
	log := &eventtest.Recorder{}
	c := newNXClient(t, s, func(c *Config) { c.Logger = log })
	mustShow(t, c, "show version")
	_, _, checkpoints := s.nxSnapshot()
	if diff := cmp.Diff([]string{"roce-4f1c2a9e", "before-upgrade", "roce-manual-save", "roce-deadbeef"}, checkpoints); diff != "" {
		t.Errorf("checkpoints (-want +got):\n%s", diff)
	}
	tr, _, _ := s.state()
	want := []string{"show checkpoint summary user", "show running-config ipqos", "no checkpoint roce-0b1d77aa",
		"no checkpoint roce-c0ffee00", "show version"}
	if diff := cmp.Diff(want, tr[2:]); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	for _, want := range []string{"CLI deleted stale checkpoint", "checkpoint:roce-0b1d77aa", "age:2h0m0s", "checkpoint:roce-c0ffee00"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

func TestNXOSStalledLineIsRolledBack(t *testing.T) {
	s := newFakeNXOS(t)
	s.stall = "pause pfc-cos 3"
	c := newNXClient(t, s, func(c *Config) { c.Timeout = 500 * time.Millisecond })
	configureStalled(t, c, []string{"system qos", "pause pfc-cos 3", "mtu 9216"}, "was rolled back")
	tr := nxSinceLogin(t, s)
	name := nxCheckpoint(t, tr)
	want := []string{"checkpoint " + name, "configure terminal", "system qos", "pause pfc-cos 3", "end",
		"rollback running-config checkpoint " + name + " atomic", "no checkpoint " + name}
	if diff := cmp.Diff(want, tr); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
}

func TestParseCheckpoints(t *testing.T) {
	out := "System Checkpoints:\n" + strings.Repeat("-", 80) + "\n1) system-fm-vrrp:\nCreated by admin\n" +
		"Created at Wed, 15:19:35 09 Aug 2017\n\nUser Checkpoints:\n" + strings.Repeat("-", 80) + "\n" +
		"1) roce-4f1c2a9e:\nCreated by admin\nCreated at Mon, 10:05:01 30 Nov 2026\nSize is 15,451 bytes\nDescription: None\n" +
		"2) cp2:\nCreated by admin\nCreated at Wed, 15:19:35 09 Aug 2017\nSize is 1 bytes\nDescription: None\n" +
		"3) odd:\nCreated at sometime\n"
	want := []userCheckpoint{{"roce-4f1c2a9e", time.Date(2026, 11, 30, 10, 5, 1, 0, time.UTC)},
		{"cp2", time.Date(2017, 8, 9, 15, 19, 35, 0, time.UTC)}, {"odd", time.Time{}}}
	if diff := cmp.Diff(want, parseCheckpoints(out)); diff != "" {
		t.Errorf("parse (-want +got):\n%s", diff)
	}
	for in, want := range map[string]time.Time{
		"\n!Command: show running-config ipqos\n!Time: Wed Aug  9 15:19:35 2017\n": time.Date(2017, 8, 9, 15, 19, 35, 0, time.UTC),
		"!Time: Mon Nov 30 10:05:00 2026":                                          time.Date(2026, 11, 30, 10, 5, 0, 0, time.UTC),
	} {
		if got, ok := parseConfigTime(in); !ok || !got.Equal(want) {
			t.Errorf("parseConfigTime(%q) = %v, %v", in, got, ok)
		}
	}
	if _, ok := parseConfigTime("version 10.3(4a)\n"); ok {
		t.Error("a time without !Time:")
	}
}

// TestNXOSPrompts: every prompt of NX-OS's QoS modes (with its trailing space) is exactly one
// privilege level after fixPrompts; scrapligo's own "config-s" exclusion took `system qos`'s.
func TestNXOSPrompts(t *testing.T) {
	p, err := platform.NewPlatform("cisco_nxos", "nxos-1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.GetNetworkDriver()
	if err != nil {
		t.Fatal(err)
	}
	fixPrompts(platformNXOS, d)
	levels := func(prompt string) (got []string) {
		for name, l := range d.PrivilegeLevels {
			excluded := slices.ContainsFunc(l.NotContains, func(s string) bool { return strings.Contains(prompt, s) })
			if !excluded && regexp.MustCompile(l.Pattern).MatchString(prompt) {
				got = append(got, name)
			}
		}
		return got
	}
	want := map[string]string{"nxos-1# ": privExec, "nxos-1(config)# ": "configuration", "nxos-1(config-if)# ": "configuration",
		"nxos-1(config-cmap-qos)# ": "configuration", "nxos-1(config-pmap-qos)# ": "configuration",
		"nxos-1(config-pmap-c-qos)# ": "configuration", "nxos-1(config-pmap-nqos)# ": "configuration",
		"nxos-1(config-pmap-nqos-c)# ": "configuration", "nxos-1(config-pmap-que)# ": "configuration",
		"nxos-1(config-pmap-c-que)# ": "configuration", "nxos-1(config-sys-qos)# ": "configuration",
		"nxos-1(config-subif)# ": "configuration", "nxos-1(config-s)# ": "", "nxos-1(config-s-if)# ": ""}
	for prompt, level := range want {
		got := levels(prompt)
		if level == "" && len(got) != 0 || level != "" && !slices.Equal(got, []string{level}) {
			t.Errorf("%q is %q, want %q", prompt, got, level)
		}
	}
}
