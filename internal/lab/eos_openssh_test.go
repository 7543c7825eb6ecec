package lab

import (
	"strings"
	"testing"
)

// TestEOSWithOpenSSH types into the switch's CLI through the real OpenSSH client with a pty
// (ssh -tt): host key pinned from the inventory, password through SSH_ASKPASS, the echo, the
// prompts and the output as an engineer's terminal gets them.
func TestEOSWithOpenSSH(t *testing.T) {
	requireOpenSSH(t, "the scrapligo and golang.org/x/crypto/ssh tests")
	l, sw := startEOS(t)
	_, ssh := openSSH(t, l.Inventory().Devices["eos-1"])

	typed := "show hostname\nenable\nconf t\nint Et1\nservice-profile ROCE\nmtu 99999\nend\nsh run int Et1\nexit\n"
	want := strings.ReplaceAll(`eos-1>show hostname
Hostname: eos-1
FQDN:     eos-1
eos-1>enable
eos-1#conf t
eos-1(config)#int Et1
eos-1(config-if-Et1)#service-profile ROCE
eos-1(config-if-Et1)#mtu 99999
% Invalid input (at token 1: '99999')
eos-1(config-if-Et1)#end
eos-1#sh run int Et1
interface Ethernet1
   service-profile ROCE
eos-1#exit
`, "\n", "\r\n")
	out, errOut, status := ssh(typed, "-tt")
	if out != want || status != 0 {
		t.Errorf("OpenSSH terminal: exit %d, stderr %q, got:\n%q\nwant:\n%q", status, errOut, out, want)
	}

	// An exec request runs one command in privileged mode, as `ssh switch show ...` does.
	out, errOut, status = ssh("", "show running-config")
	if out != sw.RunningConfig() || status != 0 {
		t.Errorf("ssh eos-1 show running-config: exit %d, stderr %q:\n%s", status, errOut, out)
	}
}
