package cli

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/event/eventtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	rssh "github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// newClient makes an arista_eos client of s as admin/secret with the pinned host key.
func newClient(t *testing.T, s *fakeEOS, edit func(*Config)) *Client {
	t.Helper()
	cfg := Config{Config: rssh.Config{Device: "leaf-1", Address: s.Addr, Username: "admin", Password: "secret", HostKey: s.Pinned(),
		Attempts: retry.Attempts{Timeout: 5 * time.Second, Backoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond}}, Platform: "arista_eos"}
	if edit != nil {
		edit(&cfg)
	}
	c := New(cfg)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func mustShow(t *testing.T, c *Client, cmds ...string) []string {
	t.Helper()
	out, err := c.Show(context.Background(), cmds...)
	if err != nil {
		t.Fatalf("Show(%q): %v", cmds, err)
	}
	return out
}

// asError checks err is a *Error for op naming the device.
func asError(t *testing.T, err error, op string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Op != op || e.Device != "leaf-1" {
		t.Fatalf("error = %#v (%v), want *Error for op %s on leaf-1", err, err, op)
	}
	return e
}

// sinceLogin is the transcript after the connection's own commands (through the session listing).
func sinceLogin(t *testing.T, s *fakeEOS) []string {
	t.Helper()
	return afterLoginListing(t, s, "show configuration sessions", "session")
}

// afterLoginListing is the transcript after the first listing, the one of leftovers (what)
// the connection looks for at login (EOS's sessions, NX-OS's checkpoints).
func afterLoginListing(t *testing.T, s *fakeEOS, listing, what string) []string {
	t.Helper()
	tr, _, _ := s.state()
	i := slices.Index(tr, listing)
	if i < 0 {
		t.Fatalf("no %s listing at login: %q", what, tr)
	}
	return tr[i+1:]
}

func TestLazyConnectEnableAndOneConnection(t *testing.T) {
	s := newFakeEOS(t, "")
	log := &eventtest.Recorder{}
	c := newClient(t, s, func(c *Config) { c.Logger = log })
	if n := s.Accepts.Load(); n != 0 {
		t.Fatalf("New connected: %d accepts", n)
	}
	out := mustShow(t, c, "show version", "show running-config")
	if diff := cmp.Diff([]string{"Arista vEOS-lab\nSoftware image version: 4.31.2F", ""}, out); diff != "" {
		t.Errorf("Show outputs (-want +got):\n%s", diff)
	}
	if err := c.Configure(context.Background(), []string{"qos map dscp 26 to traffic-class 3"}); err != nil {
		t.Fatal(err)
	}
	if out := mustShow(t, c, "show running-config"); out[0] != "qos map dscp 26 to traffic-class 3" {
		t.Errorf("running-config = %q", out[0])
	}
	if n := s.Accepts.Load(); n != 1 {
		t.Errorf("%d connections for three operations, want 1", n)
	}
	tr, _, _ := s.state()
	if diff := cmp.Diff([]string{"enable", "terminal width 32767", "terminal length 0", "show configuration sessions"}, tr[:4]); diff != "" {
		t.Errorf("login commands (-want +got):\n%s", diff)
	}
	if s.ptyTerms[0] != "xterm" {
		t.Errorf("pty term = %q", s.ptyTerms[0])
	}
	events := log.String()
	for _, want := range []string{"CLI connect", "op:show", "command:show running-config", "device:leaf-1"} {
		if !strings.Contains(events, want) {
			t.Errorf("log lacks %q:\n%s", want, events)
		}
	}
	if strings.Contains(events, "secret") {
		t.Errorf("log holds the password:\n%s", events)
	}
}

func TestShowRefused(t *testing.T) {
	s := newFakeEOS(t, "")
	c := newClient(t, s, nil)
	_, err := c.Show(context.Background(), "show bogus", "show version")
	e := asError(t, err, "show")
	if !e.Rejected || e.Line != "show bogus" || e.Output != "% Invalid input" {
		t.Errorf("error = %+v", e)
	}
	if want := `device "leaf-1" refused the command "show bogus": % Invalid input`; e.Error() != want {
		t.Errorf("message = %q, want %q", e.Error(), want)
	}
	if tr := sinceLogin(t, s); !slices.Equal(tr, []string{"show bogus"}) {
		t.Errorf("sent after the refusal: %q", tr)
	}
	mustShow(t, c, "show version") // the channel is still good
}

var sessionName = regexp.MustCompile(`^configure session (roce-[0-9a-f]{8})$`)

func TestConfigureCommits(t *testing.T) {
	s := newFakeEOS(t, "")
	c := newClient(t, s, func(c *Config) { c.SaveConfig = true })
	lines := []string{"qos profile ROCE", "interface Ethernet1", "service-profile ROCE", "exit", "qos map dscp 26 to traffic-class 3"}
	if err := c.Configure(context.Background(), lines); err != nil {
		t.Fatal(err)
	}
	tr := sinceLogin(t, s)
	if len(tr) == 0 || !sessionName.MatchString(tr[0]) {
		t.Fatalf("transcript = %q, want configure session roce-XXXXXXXX first", tr)
	}
	want := append(append([]string{tr[0]}, lines...), "commit", "write memory")
	if diff := cmp.Diff(want, tr); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	_, running, sessions := s.state()
	if diff := cmp.Diff([]string{"qos profile ROCE", "interface Ethernet1", "service-profile ROCE", "qos map dscp 26 to traffic-class 3"}, running); diff != "" {
		t.Errorf("running-config (-want +got):\n%s", diff)
	}
	if len(sessions) != 0 {
		t.Errorf("sessions left: %q", sessions)
	}
	if c.cn.d.CurrentPriv != privExec || len(c.cn.d.PrivilegeLevels) != 3 {
		t.Errorf("after commit: priv %q, levels %d", c.cn.d.CurrentPriv, len(c.cn.d.PrivilegeLevels))
	}
}

func TestConfigureRefusedLineAborts(t *testing.T) {
	s := newFakeEOS(t, "")
	c := newClient(t, s, nil)
	err := c.Configure(context.Background(), []string{"qos profile ROCE", "bogus line", "qos map dscp 26 to traffic-class 3"})
	e := asError(t, err, "configure")
	if !e.Rejected || !e.RolledBack || e.Line != "bogus line" || e.Output != "% Invalid input" {
		t.Errorf("error = %+v", e)
	}
	tr := sinceLogin(t, s)
	m := sessionName.FindStringSubmatch(tr[0])
	if m == nil {
		t.Fatalf("transcript = %q", tr)
	}
	if diff := cmp.Diff([]string{tr[0], "qos profile ROCE", "bogus line", "abort"}, tr); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	want := `device "leaf-1" refused the configuration line "bogus line": % Invalid input; ` +
		"configuration session " + m[1] + " was aborted, nothing was changed"
	if e.Error() != want {
		t.Errorf("message = %q\nwant %q", e.Error(), want)
	}
	if _, running, sessions := s.state(); len(running) != 0 || len(sessions) != 0 {
		t.Errorf("running %q, sessions %q after the abort", running, sessions)
	}
	// Refused by a text outside the platform's list, in a submode: aborted too.
	s.mu.Lock()
	s.reject = "mtu"
	s.mu.Unlock()
	err = c.Configure(context.Background(), []string{"interface Ethernet1", "description mtu"})
	if e := asError(t, err, "configure"); !e.Rejected || !e.RolledBack || e.Output != "% Error: rejected" {
		t.Errorf("error = %+v", e)
	}
	if tr := sinceLogin(t, s); tr[len(tr)-1] != "abort" {
		t.Errorf("transcript = %q", tr)
	}
	if s.Accepts.Load() != 1 {
		t.Errorf("reconnected after refusals")
	}
}

func TestConfigureRefusesLinesLeavingTheSession(t *testing.T) {
	s := newFakeEOS(t, "")
	c := newClient(t, s, nil)
	for _, l := range []string{"end", "commit", "qos a\nqos b", "qos ?", "qos map\tdscp", "show run ?"} {
		if e := asError(t, c.Configure(context.Background(), []string{l}), "configure"); e.Rejected {
			t.Errorf("%q: %+v", l, e)
		}
	}
	if s.Accepts.Load() != 0 {
		t.Error("connected for refused input")
	}
}

func TestAbandonedSessionsRemovedAtConnect(t *testing.T) {
	s := newFakeEOS(t, "")
	s.sessions["roce-0b1d77aa"] = &fakeSession{state: "pending"}                                  // abandoned: removed
	s.sessions["roce-4f1c2a9e"] = &fakeSession{state: "pending", user: "admin", terminal: "vty9"} // live: kept
	s.sessions["manual"] = &fakeSession{state: "pending"}                                         // not ours: kept
	s.sessions["roce-c0ffee00"] = &fakeSession{state: "completed"}                                // not pending: kept
	log := &eventtest.Recorder{}
	c := newClient(t, s, func(c *Config) { c.Logger = log })
	mustShow(t, c, "show version")
	tr, _, sessions := s.state()
	if diff := cmp.Diff([]string{"manual", "roce-4f1c2a9e", "roce-c0ffee00"}, sessions); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
	if !slices.Contains(tr, "no configure session roce-0b1d77aa") {
		t.Errorf("transcript = %q", tr)
	}
	if !strings.Contains(log.String(), "session:roce-0b1d77aa") {
		t.Errorf("removal not logged:\n%s", log.String())
	}
}

func TestParseSessions(t *testing.T) {
	out := "Maximum number of completed sessions: 1\nMaximum number of pending sessions: 5\n\n" +
		"  Name                State         User       Terminal\n" +
		"  ------------------- ------------- ---------- --------\n" +
		"* roce-4f1c2a9e       pending       admin      vty3\n" +
		"  roce-0b1d77aa       pending\n" +
		"  roce-much-too-long-name pending\n"
	want := []cfgSession{{Name: "roce-4f1c2a9e", State: "pending", User: "admin", Terminal: "vty3", Current: true},
		{Name: "roce-0b1d77aa", State: "pending"}}
	if diff := cmp.Diff(want, parseSessions(out)); diff != "" {
		t.Errorf("parse (-want +got):\n%s", diff)
	}
	if got := parseSessions("  Name    State\n  ------- -----\n  roce-1  pending\n"); got != nil {
		t.Errorf("without a Terminal column: %v", got)
	}
}

// configureStalled configures lines, of which the device never answers one, and checks that
// the transaction ran out of time and was undone (its error says how: undone).
func configureStalled(t *testing.T, c *Client, lines []string, undone string) {
	t.Helper()
	err := c.Configure(context.Background(), lines)
	e := asError(t, err, "configure")
	if e.Rejected || !e.RolledBack || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(e.Error(), undone) {
		t.Errorf("error = %+v: %v", e, e)
	}
}

func TestStalledLineIsAborted(t *testing.T) {
	s := newFakeEOS(t, "")
	s.stall = "qos stall"
	c := newClient(t, s, func(c *Config) { c.Timeout = 500 * time.Millisecond })
	configureStalled(t, c, []string{"qos profile ROCE", "qos stall", "qos trust dscp"}, "was aborted")
	tr := sinceLogin(t, s)
	if diff := cmp.Diff([]string{tr[0], "qos profile ROCE", "qos stall", "abort"}, tr); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	if _, running, sessions := s.state(); len(running) != 0 || len(sessions) != 0 {
		t.Errorf("running %q, sessions %q", running, sessions)
	}
}
