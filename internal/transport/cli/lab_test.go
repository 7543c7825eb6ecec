package cli_test

// The transport against the lab's CLI switches (internal/lab): simulated devices that speak
// the platforms' dialects over real SSH, written from the vendors' documentation rather than
// from this transport, so they check it as a switch would.

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/internal/sshtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	rssh "github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// startLab starts a lab of one switch of platform; it fails the test if the lab cannot start.
func startLab(t *testing.T, platform string, edit func(*lab.Options)) (*lab.Lab, lab.DeviceEntry) {
	t.Helper()
	l, d, err := tryStartLab(t, platform, edit)
	if err != nil {
		t.Fatal(err)
	}
	return l, d
}

func tryStartLab(t *testing.T, platform string, edit func(*lab.Options)) (*lab.Lab, lab.DeviceEntry, error) {
	t.Helper()
	opts := lab.Options{Dir: t.TempDir(), Switches: map[string]int{platform: 1}, Ports: 4}
	if edit != nil {
		edit(&opts)
	}
	l, err := lab.Start(context.Background(), opts)
	if err != nil {
		return nil, lab.DeviceEntry{}, err
	}
	t.Cleanup(l.Stop)
	return l, l.Inventory().Devices[platform+"-1"], nil
}

// labClient is a client of the lab device d with its pinned host key.
func labClient(t *testing.T, d lab.DeviceEntry, edit func(*cli.Config)) *cli.Client {
	t.Helper()
	platform := map[string]string{"eos": "arista_eos", "nxos": "cisco_nxos"}[d.Platform]
	cfg := cli.Config{Config: rssh.Config{Device: "sw-1", Address: d.Address, Username: d.Username, Password: d.Password,
		HostKey: d.HostKey, Attempts: retry.Attempts{Timeout: 10 * time.Second}}, Platform: platform}
	if edit != nil {
		edit(&cfg)
	}
	c := cli.New(cfg)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func mustConfigure(t *testing.T, c *cli.Client, lines ...string) {
	t.Helper()
	if err := c.Configure(context.Background(), lines); err != nil {
		t.Fatalf("Configure(%q): %v", lines, err)
	}
}

func mustShowLab(t *testing.T, c *cli.Client, cmds ...string) []string {
	t.Helper()
	out, err := c.Show(context.Background(), cmds...)
	if err != nil {
		t.Fatalf("Show(%q): %v", cmds, err)
	}
	return out
}

func cliError(t *testing.T, err error, op string) *cli.Error {
	t.Helper()
	var e *cli.Error
	if !errors.As(err, &e) || e.Op != op || e.Device != "sw-1" {
		t.Fatalf("error = %#v (%v), want *cli.Error for op %s on sw-1", err, err, op)
	}
	return e
}

// rocev2 is a qos profile with a no-drop queue, bound to Ethernet1.
var rocev2 = []string{"qos profile ROCE", "qos trust dscp", "tx-queue 3", "bandwidth percent 50", "exit",
	"priority-flow-control priority 3 no-drop", "exit", "interface Ethernet1", "service-profile ROCE", "exit"}

func TestLabEOSManyOperationsOneConnection(t *testing.T) {
	l, d := startLab(t, "eos", nil)
	sw := l.EOS("eos-1")
	c := labClient(t, d, nil)
	for i := range 10 {
		out := mustShowLab(t, c, "show version", "show running-config")
		if want := strings.TrimSuffix(sw.RunningConfig(), "\n"); out[1] != want {
			t.Fatalf("show running-config #%d:\n%s\nwant:\n%s", i, out[1], want)
		}
		if i%3 == 0 {
			mustConfigure(t, c, "qos map dscp 10 to traffic-class "+string(rune('1'+i/3)))
		}
	}
	mustConfigure(t, c, rocev2...)
	running := sw.RunningConfig()
	for _, want := range []string{"qos profile ROCE\n   qos trust dscp\n   !\n   tx-queue 3\n      bandwidth percent 50\n",
		"   priority-flow-control priority 3 no-drop\n", "interface Ethernet1\n   service-profile ROCE\n",
		"qos map dscp 10 to traffic-class 4\n"} {
		if !strings.Contains(running, want) {
			t.Errorf("running-config lacks %q:\n%s", want, running)
		}
	}
	if n := sw.Counters().Connections; n != 1 {
		t.Errorf("%d SSH connections for 15 operations, want 1", n)
	}
	if s := sw.Sessions(); len(s) != 0 {
		t.Errorf("sessions left: %+v", s)
	}
}

func TestLabEOSRejectedLineRollsBack(t *testing.T) {
	l, d := startLab(t, "eos", nil)
	sw := l.EOS("eos-1")
	c := labClient(t, d, nil)
	mustConfigure(t, c, "qos map dscp 26 to traffic-class 4")
	before := sw.RunningConfig()
	sw.RejectLines("bandwidth percent 50", "Unavailable command (not supported on this hardware platform)")
	err := c.Configure(context.Background(), rocev2)
	e := cliError(t, err, "configure")
	if !e.Rejected || !e.RolledBack || e.Line != "bandwidth percent 50" || e.Output != "% Unavailable command (not supported on this hardware platform)" {
		t.Errorf("error = %+v", e)
	}
	if after := sw.RunningConfig(); after != before {
		t.Errorf("running-config changed by a refused transaction:\n%s\nwas:\n%s", after, before)
	}
	if s := sw.Sessions(); len(s) != 0 {
		t.Errorf("sessions left: %+v", s)
	}
	sw.RejectLines("", "")
	mustConfigure(t, c, rocev2...)
	if n := sw.Counters().Connections; n != 1 {
		t.Errorf("%d SSH connections, want 1", n)
	}
}

// shell is a raw interactive pty session on a lab switch, as an engineer would type.
type shell struct {
	t      *testing.T
	client *gossh.Client
	stdin  io.Writer
	mu     sync.Mutex
	out    strings.Builder
	seen   int
}

func (s *shell) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

func openShell(t *testing.T, d lab.DeviceEntry, prompt string) *shell {
	t.Helper()
	key, _, _, _, err := gossh.ParseAuthorizedKey([]byte(d.HostKey))
	if err != nil {
		t.Fatal(err)
	}
	client, err := gossh.Dial("tcp", d.Address, &gossh.ClientConfig{User: d.Username,
		Auth: []gossh.AuthMethod{gossh.Password(d.Password)}, HostKeyCallback: gossh.FixedHostKey(key), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := &shell{t: t, client: client}
	t.Cleanup(s.close)
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm", 40, 200, gossh.TerminalModes{gossh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	if s.stdin, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	sess.Stdout = s
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	s.expect(prompt)
	return s
}

// line types text and waits for the output to end with prompt; it returns what was printed.
func (s *shell) line(text, prompt string) string {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, text+"\r"); err != nil {
		s.t.Fatal(err)
	}
	return s.expect(prompt)
}

func (s *shell) expect(suffix string) string {
	s.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		s.mu.Lock()
		all := s.out.String()
		s.mu.Unlock()
		if got := all[s.seen:]; strings.HasSuffix(got, suffix) {
			s.seen = len(all)
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %q, got %q", suffix, all[s.seen:])
		}
	}
}

func (s *shell) close() { _ = s.client.Close() }

// waitFor polls cond for up to 5s: a dropped connection is noticed by the switch a little later.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestLabEOSAbandonedSessionsRemoved(t *testing.T) {
	l, d := startLab(t, "eos", nil)
	sw := l.EOS("eos-1")
	for n := 1; n <= 5; n++ { // a provider killed mid-transaction, five times
		sh := openShell(t, d, "eos-1>")
		sh.line("enable", "eos-1#")
		sh.line("configure session roce-0000000"+string(rune('0'+n)), "eos-1(config-s-roce-0)#")
		sh.line("end", "eos-1#")
		sh.close()
	}
	waitFor(t, "5 abandoned sessions", func() bool {
		s := sw.Sessions()
		return len(s) == 5 && s[4].Terminal == ""
	})
	sh := openShell(t, d, "eos-1>") // the premise: a 6th pending session is refused
	sh.line("enable", "eos-1#")
	if out := sh.line("configure session roce-00000006", "eos-1#"); !strings.Contains(out, "% Maximum number of pending sessions has been reached") {
		t.Fatalf("6th session: %q", out)
	}
	sh.close()
	c := labClient(t, d, nil)
	mustConfigure(t, c, rocev2...)
	if s := sw.Sessions(); len(s) != 0 {
		t.Errorf("sessions left: %+v", s)
	}
	if !strings.Contains(sw.RunningConfig(), "service-profile ROCE") {
		t.Errorf("not applied:\n%s", sw.RunningConfig())
	}
}

func TestLabEOSLiveSessionKept(t *testing.T) {
	l, d := startLab(t, "eos", nil)
	sw := l.EOS("eos-1")
	live := openShell(t, d, "eos-1>")
	live.line("enable", "eos-1#")
	live.line("configure session roce-0000000a", "eos-1(config-s-roce-0)#")
	for n := 1; n <= 4; n++ {
		sh := openShell(t, d, "eos-1>")
		sh.line("enable", "eos-1#")
		sh.line("configure session roce-0000000"+string(rune('0'+n)), "eos-1(config-s-roce-0)#")
		sh.close()
	}
	waitFor(t, "4 abandoned sessions", func() bool {
		n := 0
		for _, s := range sw.Sessions() {
			if s.Terminal == "" {
				n++
			}
		}
		return n == 4
	})
	c := labClient(t, d, nil)
	mustConfigure(t, c, rocev2...)
	s := sw.Sessions()
	if len(s) != 1 || s[0].Name != "roce-0000000a" || s[0].Terminal == "" {
		t.Errorf("sessions = %+v, want only the live terminal's", s)
	}
	live.line("qos map dscp 10 to traffic-class 4", "eos-1(config-s-roce-0)#") // still usable
	live.line("commit", "eos-1#")
	if !strings.Contains(sw.RunningConfig(), "qos map dscp 10 to traffic-class 4") {
		t.Errorf("the live session's commit was lost:\n%s", sw.RunningConfig())
	}
}

func TestLabEOSSaveConfig(t *testing.T) {
	l, d := startLab(t, "eos", nil)
	sw := l.EOS("eos-1")
	c := labClient(t, d, func(c *cli.Config) { c.SaveConfig = true })
	mustConfigure(t, c, rocev2...)
	if sw.StartupConfig() != sw.RunningConfig() || !strings.Contains(sw.StartupConfig(), "service-profile ROCE") {
		t.Errorf("startup-config:\n%s\nrunning-config:\n%s", sw.StartupConfig(), sw.RunningConfig())
	}
}

func TestLabEOSWrongHostKeyFailsClosed(t *testing.T) {
	l, d := startLab(t, "eos", nil)
	sw := l.EOS("eos-1")
	before := sw.RunningConfig()
	_, _, other := sshtest.NewKey(t)
	served, _, _, _, err := gossh.ParseAuthorizedKey([]byte(d.HostKey))
	if err != nil {
		t.Fatal(err)
	}
	c := labClient(t, d, func(c *cli.Config) {
		c.HostKey, c.Retries = strings.TrimSpace(string(gossh.MarshalAuthorizedKey(other))), 3
	})
	err = c.Configure(context.Background(), rocev2)
	e := cliError(t, err, "connect")
	if fp := gossh.FingerprintSHA256(served); !strings.Contains(e.Error(), fp) {
		t.Errorf("error does not name the switch's key %s: %v", fp, e)
	}
	if n := sw.Counters(); n.Connections != 1 || n.Commands != 0 {
		t.Errorf("counters %+v: want 1 connection (not retried) and no command", n)
	}
	if sw.RunningConfig() != before {
		t.Errorf("configuration applied through a wrong host key:\n%s", sw.RunningConfig())
	}
}

func TestLabEOSTimeout(t *testing.T) {
	t.Run("handshake slower than the timeout", func(t *testing.T) {
		l, d := startLab(t, "eos", func(o *lab.Options) { o.Latency = 2 * time.Second })
		c := labClient(t, d, func(c *cli.Config) { c.Timeout = 300 * time.Millisecond })
		start := time.Now()
		_, err := c.Show(context.Background(), "show version")
		cli.TimedOut(t, cliError(t, err, "connect"), 300*time.Millisecond, start, 1500*time.Millisecond)
		if n := l.EOS("eos-1").Counters().Commands; n != 0 {
			t.Errorf("%d commands ran", n)
		}
	})
	t.Run("a batch slower than the timeout", func(t *testing.T) {
		l, d := startLab(t, "eos", func(o *lab.Options) { o.Latency = 200 * time.Millisecond })
		c := labClient(t, d, func(c *cli.Config) { c.Timeout = time.Second })
		mustShowLab(t, c, "show version") // connects: each answer within the timeout
		cmds := make([]string, 10)
		for i := range cmds {
			cmds[i] = "show version"
		}
		start := time.Now()
		_, err := c.Show(context.Background(), cmds...)
		cli.TimedOut(t, cliError(t, err, "show"), time.Second, start, 1800*time.Millisecond)
		mustShowLab(t, c, "show version") // on a new connection
		if n := l.EOS("eos-1").Counters().Connections; n != 2 {
			t.Errorf("%d connections, want 2", n)
		}
	})
}
