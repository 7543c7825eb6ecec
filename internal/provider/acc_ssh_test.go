package provider

import (
	"bytes"
	"testing"
	"time"

	xssh "golang.org/x/crypto/ssh"
)

// hostShell is an operator's own SSH session to a lab host (plain x/crypto/ssh, not the
// provider's transport), used to look at the host and change it by hand.
type hostShell struct {
	t      *testing.T
	client *xssh.Client
}

func (l *accLab) shell(t *testing.T, device string) *hostShell {
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
	return &hostShell{t: t, client: c}
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
