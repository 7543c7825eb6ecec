package lab

import (
	"strings"
	"testing"
)

// TestHostWithOpenSSH logs in with the real OpenSSH client: host key
// checked against a known_hosts line made from the inventory's host_key,
// the password supplied through SSH_ASKPASS (no sshpass needed), commands
// and exit statuses carried over.
func TestHostWithOpenSSH(t *testing.T) {
	requireOpenSSH(t, "the golang.org/x/crypto/ssh tests")
	e := newHostEnv(t)
	o, run := openSSH(t, e.d)
	ssh := func(command string) (string, string, int) { return run("", command) }

	out, errOut, status := ssh("mlnx_qos -i eth0 && sudo -n cat /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/np_cnp_dscp")
	if want := e.Must("mlnx_qos -i eth0") + "48\n"; out != want || status != 0 {
		t.Errorf("OpenSSH run: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", status, errOut, out, want)
	}
	if _, errOut, status := ssh("echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3"); status != 2 ||
		errOut != "sh: 1: cannot create /sys/class/net/eth0/ecn/roce_np/enable/3: Permission denied\n" {
		t.Errorf("exit status and stderr over OpenSSH: %d %q", status, errOut)
	}

	other := strings.Fields(e.l.Inventory().Devices["mlx5-1"].HostKey)
	other[1] = "AAAAC3NzaC1lZDI1NTE5AAAAIFFvq0oH8mRZyyCkyXbqR3gqo5+7NVhTVjnJ4KjtYk6c" // some other ed25519 key
	if err := o.Pin(strings.Join(other, " ")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, status := ssh("true"); status != 255 || !strings.Contains(errOut, "Host key verification failed") {
		t.Errorf("a wrong pinned key: exit %d, %q", status, errOut)
	}
}
