package provider

import (
	"bytes"
	"os"
	"testing"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// hostShell is an operator's own SSH session to a lab host (plain x/crypto/ssh, not the
// provider's transport), used to look at the host and change it by hand.
type hostShell struct {
	t      *testing.T
	client *xssh.Client
}

func (l *accLab) shell(t *testing.T, device string) *hostShell {
	t.Helper()
	return &hostShell{t: t, client: l.dialSSH(t, device)}
}

// dialSSH logs in to a lab device as its inventory says (user, password, pinned host key),
// with plain x/crypto/ssh; the connection closes when the test ends.
func (l *accLab) dialSSH(t *testing.T, device string) *xssh.Client {
	t.Helper()
	d := l.Inventory().Devices[device]
	key, _, _, _, err := xssh.ParseAuthorizedKey([]byte(d.HostKey))
	if err != nil {
		t.Fatalf("inventory host_key of %s: %v", device, err)
	}
	c, err := xssh.Dial("tcp", d.Address, &xssh.ClientConfig{
		User: d.Username, Auth: []xssh.AuthMethod{xssh.Password(d.Password)},
		HostKeyCallback: xssh.FixedHostKey(key), Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatalf("ssh %s: %v", device, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// run runs cmd and returns its combined output; a non-zero exit fails the test.
func (h *hostShell) run(cmd string) string {
	h.t.Helper()
	s, err := h.client.NewSession()
	if err != nil {
		h.t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	// Separate buffers: two copiers writing one bytes.Buffer race and lose output.
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr = &out, &errOut
	if err := s.Run(cmd); err != nil {
		h.t.Fatalf("%s: %v\n%s%s", cmd, err, out.String(), errOut.String())
	}
	return out.String() + errOut.String()
}

// openSSHClient runs commands on a lab host with the real OpenSSH client (lab.OpenSSH).
type openSSHClient struct{ o *lab.OpenSSH }

// openSSH is device's OpenSSH client. Without an ssh binary the test is skipped, or fails
// under ROCE_REQUIRE_SSHD=1 (CI installs OpenSSH).
func (l *accLab) openSSH(t *testing.T, device string) openSSHClient {
	t.Helper()
	o, err := lab.NewOpenSSH(l.Inventory().Devices[device], t.TempDir())
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_SSHD") == "1" {
			t.Fatalf("OpenSSH client: %v (ROCE_REQUIRE_SSHD=1; .ci/run installs openssh-server, which brings it)", err)
		}
		t.Skipf("no OpenSSH client: %v (.ci/run installs it)", err)
	}
	return openSSHClient{o}
}

// run runs cmd over OpenSSH and returns its standard output; a failure fails the test.
func (c openSSHClient) run(t *testing.T, cmd string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	x := c.o.Command(cmd)
	x.Stdout, x.Stderr = &out, &errOut
	if err := x.Run(); err != nil {
		t.Fatalf("ssh %s: %v\n%s%s", cmd, err, out.String(), errOut.String())
	}
	return out.String()
}
