package lab

import (
	"strings"
	"testing"
)

// TestNXOSWithOpenSSH types into the switch's CLI through the real OpenSSH client with a pty
// (ssh -tt): host key pinned from the inventory, password through SSH_ASKPASS, the echo, the
// prompts with their trailing space, a caret error and the output as an engineer's terminal
// gets them.
func TestNXOSWithOpenSSH(t *testing.T) {
	requireOpenSSH(t, "the scrapligo and golang.org/x/crypto/ssh tests")
	l, sw := startNXOS(t)
	_, ssh := openSSH(t, l.Inventory().Devices["nxos-1"])

	typed := "show hostname\nconf t\npolicy-map type qos ROCE\nclass class-default\nset qos-group 9\nset qos-group 0\n" +
		"int e1/1\nservice-policy type qos input ROCE\nend\nsh run intrface e1/1\ncheckpoint cp\nexit\n"
	want := strings.ReplaceAll(`nxos-1# show hostname
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
Done
nxos-1# exit
`, "\n", "\r\n")
	out, errOut, status := ssh(typed, "-tt")
	if out != want || status != 0 {
		t.Errorf("OpenSSH terminal: exit %d, stderr %q, got:\n%q\nwant:\n%q", status, errOut, out, want)
	}
	if got := sw.Checkpoints(); len(got) != 1 || got[0] != "cp" {
		t.Errorf("checkpoints %v", got)
	}

	// An exec request runs one command, as `ssh switch show ...` does.
	out, errOut, status = ssh("", "show running-config ipqos")
	if withoutTimes(out) != sw.RunningConfig() || status != 0 {
		t.Errorf("ssh nxos-1 show running-config ipqos: exit %d, stderr %q:\n%s", status, errOut, out)
	}
}
