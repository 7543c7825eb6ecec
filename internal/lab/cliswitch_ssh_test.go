package lab

// What the CLI switches share whatever their dialect: login, inventory entry, latency and
// counters (room cliswitch).

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"golang.org/x/crypto/ssh"
)

// cliAccess checks a CLI switch's inventory entry and ports (want) and its password checks,
// and returns a client logged in with keyboard-interactive, closed at the end of the test.
func cliAccess(t *testing.T, l *Lab, sw *cliswitch.Switch, want []string) *ssh.Client {
	t.Helper()
	name := sw.Name()
	d := l.Inventory().Devices[name]
	if d.Platform != sw.Entry().Platform || d.Username != "admin" || d.Password == "" || d.Address != sw.Address() ||
		!strings.HasPrefix(d.HostKey, "ssh-ed25519 ") || d.HostKey != sw.HostKey() || d.CACertificate != "" {
		t.Errorf("inventory entry %+v", d)
	}
	if !slices.Equal(sw.Interfaces(), want) || !slices.Equal(l.Inventory().Interfaces[name], want) {
		t.Errorf("interfaces %v, inventory %v, name %s", sw.Interfaces(), l.Inventory().Interfaces[name], name)
	}
	if _, err := sshDial(t, d, ssh.Password("wrong")); err == nil {
		t.Error("a wrong password logged in")
	}
	c, err := sshDial(t, d, ssh.KeyboardInteractive(func(_, _ string, q []string, _ []bool) ([]string, error) {
		return []string{d.Password}, nil
	}))
	if err != nil {
		t.Fatalf("keyboard-interactive login: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// finders are the lab's typed device lookups, by the platform each finds.
var finders = map[string]func(*Lab, string) bool{
	"openconfig": func(l *Lab, name string) bool { return l.Switch(name) != nil },
	"sonic":      func(l *Lab, name string) bool { return l.SONiC(name) != nil },
	"eos":        func(l *Lab, name string) bool { return l.EOS(name) != nil },
	"nxos":       func(l *Lab, name string) bool { return l.NXOS(name) != nil },
	"mlx5":       func(l *Lab, name string) bool { return l.Host(name) != nil },
}

// A CLI switch is found by its own platform's lookup alone, takes the logins cliAccess checks,
// and answers exec requests: the running-config, and many quick requests in a row (a reply
// sent after the command finished made the client's Run fail with EOF under load).
func TestCLIAccess(t *testing.T) {
	for _, tc := range []struct {
		platform string
		start    func(*testing.T) (*Lab, *cliswitch.Switch, func() string) // the switch and its RunningConfig
		ports    []string
		// show prints the running-config as an exec request does (EOS: in privileged mode, as
		// `ssh nxos-1 show running-config ipqos` on NX-OS); shown is RunningConfig's text in
		// its output.
		show  string
		shown func(string) string
		// again is sent 40 times, each answered with againOut.
		again, againOut string
	}{
		{"eos", func(t *testing.T) (*Lab, *cliswitch.Switch, func() string) {
			l, sw := startEOS(t)
			return l, sw.Switch, sw.RunningConfig
		}, []string{"Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4"},
			"show running-config", func(s string) string { return s },
			"show conf sess", "Maximum number of completed sessions: 1\nMaximum number of pending sessions: 5\n\n" +
				"  Name                State         User       Terminal\n  ------------------- ------------- ---------- --------\n"},
		{"nxos", func(t *testing.T) (*Lab, *cliswitch.Switch, func() string) {
			l, sw := startNXOS(t)
			return l, sw.Switch, sw.RunningConfig
		}, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"},
			"show running-config ipqos", withoutTimes,
			"sh hostname", "nxos-1\n"},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			l, sw, running := tc.start(t)
			name := tc.platform + "-1"
			if sw.Name() != name || sw.Entry().Platform != tc.platform {
				t.Errorf("%s is a %s switch", sw.Name(), sw.Entry().Platform)
			}
			for platform, found := range finders {
				if got := found(l, name); got != (platform == tc.platform) {
					t.Errorf("the %s lookup of %s found it: %v", platform, name, got)
				}
			}
			if finders[tc.platform](l, tc.platform+"-2") {
				t.Errorf("the %s lookup found the absent %s-2", tc.platform, tc.platform)
			}
			c := cliAccess(t, l, sw, tc.ports)
			if out, _, status := runOn(t, c, tc.show, ""); tc.shown(out) != running() || status != 0 {
				t.Errorf("exec %s: exit %d\n%s", tc.show, status, out)
			}
			for range 40 {
				if out, _, _ := runOn(t, c, tc.again, ""); out != tc.againOut {
					t.Fatalf("exec %s: %q, want %q", tc.again, out, tc.againOut)
				}
			}
		})
	}
}

func TestCLILatencyAndCounters(t *testing.T) {
	const latency = 80 * time.Millisecond
	slow := func(o *Options) { o.Latency = latency }
	for _, tc := range []struct {
		platform, login string
		start           func(*testing.T) *cliswitch.Switch
		// three command lines and the prompt after each: the first is timed, the second is
		// empty (not counted).
		lines [3][2]string
	}{
		{"eos", "eos-1>", func(t *testing.T) *cliswitch.Switch { _, sw := startEOS(t, slow); return sw.Switch },
			[3][2]string{{"enable", "eos-1#"}, {"", "eos-1#"}, {"terminal length 0", "eos-1#"}}},
		{"nxos", "nxos-1# ", func(t *testing.T) *cliswitch.Switch { _, sw := startNXOS(t, slow); return sw.Switch },
			[3][2]string{{"terminal length 0", "nxos-1# "}, {"", "nxos-1# "}, {"terminal width 511", "nxos-1# "}}},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			sw := tc.start(t)
			start := time.Now()
			s := openCLIShell(t, sw.Entry(), tc.login)
			if took := time.Since(start); took < latency {
				t.Errorf("login took %s with latency %s", took, latency)
			}
			start = time.Now()
			s.line(tc.lines[0][0], tc.lines[0][1])
			if took := time.Since(start); took < latency {
				t.Errorf("a command took %s with latency %s", took, latency)
			}
			s.line(tc.lines[1][0], tc.lines[1][1])
			s.line(tc.lines[2][0], tc.lines[2][1])
			if c := sw.Counters(); c.Connections != 1 || c.Commands != 2 {
				t.Errorf("counters %+v, want 1 connection and 2 commands (an empty line is none)", c)
			}
			sw.ResetCounters()
			if c := sw.Counters(); c != (cliswitch.Counters{}) {
				t.Errorf("after ResetCounters: %+v", c)
			}
		})
	}
}
