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
