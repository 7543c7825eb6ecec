package lab

import (
	"strings"
	"testing"
)

// TestCLIWithOpenSSH types into each CLI switch's CLI through the real OpenSSH client with a
// pty (ssh -tt): host key pinned from the inventory, password through SSH_ASKPASS, the echo,
// the prompts (NX-OS's with their trailing space), the errors (NX-OS's with a caret) and the
// output as an engineer's terminal gets them. Then an exec request runs one command, as `ssh
// switch show ...` does (in privileged mode on EOS).
func TestCLIWithOpenSSH(t *testing.T) {
	requireOpenSSH(t, "the scrapligo and golang.org/x/crypto/ssh tests")
	for _, tc := range []struct {
		name string
		// start starts the switch and says what its running-config is.
		start         func(*testing.T) (l *Lab, running func() string)
		typed, want   string // want with "\n" line ends, as a terminal shows it with "\r\n"
		exec          string
		withoutTimes  func(string) string // the exec output without the lines that change with the clock
		afterTerminal func(*testing.T, *Lab)
	}{{
		name: "eos-1",
		start: func(t *testing.T) (*Lab, func() string) {
			l, sw := startEOS(t)
			return l, sw.RunningConfig
		},
		typed: "show hostname\nenable\nconf t\nint Et1\nservice-profile ROCE\nmtu 99999\nend\nsh run int Et1\nexit\n",
		want: `eos-1>show hostname
Hostname: eos-1
FQDN:     eos-1
eos-1>enable
eos-1#conf t
eos-1(config)#int Et1
eos-1(config-if-Et1)#service-profile ROCE
eos-1(config-if-Et1)#mtu 99999
% Invalid input
eos-1(config-if-Et1)#end
eos-1#sh run int Et1
interface Ethernet1
   service-profile ROCE
eos-1#exit
`,
		exec:         "show running-config",
		withoutTimes: func(s string) string { return s },
	}, {
		name: "nxos-1",
		start: func(t *testing.T) (*Lab, func() string) {
			l, sw := startNXOS(t)
			return l, sw.RunningConfig
		},
		typed: "show hostname\nconf t\npolicy-map type qos ROCE\nclass class-default\nset qos-group 9\nset qos-group 0\n" +
			"int e1/1\nservice-policy type qos input ROCE\nend\nsh run intrface e1/1\ncheckpoint cp\nexit\n",
		want: `nxos-1# show hostname
nxos-1
nxos-1# conf t
Enter configuration commands, one per line. End with CNTL/Z.
nxos-1(config)# policy-map type qos ROCE
nxos-1(config-pmap-qos)# class class-default
nxos-1(config-pmap-c-qos)# set qos-group 9
                                         ^
% Invalid number, range is (0:7) at '^' marker.
nxos-1(config-pmap-c-qos)# set qos-group 0
nxos-1(config-pmap-c-qos)# int e1/1
nxos-1(config-if)# service-policy type qos input ROCE
nxos-1(config-if)# end
nxos-1# sh run intrface e1/1
               ^
% Invalid command at '^' marker.
nxos-1# checkpoint cp
.Done
nxos-1# exit
`,
		exec:         "show running-config ipqos",
		withoutTimes: withoutTimes,
		afterTerminal: func(t *testing.T, l *Lab) {
			if got := l.NXOS("nxos-1").Checkpoints(); len(got) != 1 || got[0] != "cp" {
				t.Errorf("checkpoints %v", got)
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			l, running := tc.start(t)
			_, ssh := openSSH(t, l.Inventory().Devices[tc.name])
			want := strings.ReplaceAll(tc.want, "\n", "\r\n")
			out, errOut, status := ssh(tc.typed, "-tt")
			if out != want || status != 0 {
				t.Errorf("OpenSSH terminal: exit %d, stderr %q, got:\n%q\nwant:\n%q", status, errOut, out, want)
			}
			if tc.afterTerminal != nil {
				tc.afterTerminal(t, l)
			}
			out, errOut, status = ssh("", tc.exec)
			if tc.withoutTimes(out) != running() || status != 0 {
				t.Errorf("ssh %s %s: exit %d, stderr %q:\n%s", tc.name, tc.exec, status, errOut, out)
			}
		})
	}
}
