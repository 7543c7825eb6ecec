package bench

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"golang.org/x/crypto/ssh"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
)

// Probe connections: what a provider process holds to each device during a plan, one
// connection per device with one request on it, made with our own clients (as SetOutOfBand).

// OpenDevice connects to a lab device as a client would and makes one request: gNMI
// Capabilities on a sonic switch, `true` over SSH on an mlx5 host. The connection stays open
// until the returned closer is called.
func OpenDevice(ctx context.Context, d InventoryDevice) (io.Closer, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	switch d.Platform {
	case SwitchPlatform:
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM([]byte(d.CACertificate)) {
			return nil, fmt.Errorf("%s: no PEM CA certificate in the inventory", d.Address)
		}
		conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(
			credentials.NewTLS(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12})))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Address, err)
		}
		ctx = metadata.AppendToOutgoingContext(ctx, "username", d.Username, "password", d.Password)
		if _, err := gpb.NewGNMIClient(conn).Capabilities(ctx, &gpb.CapabilityRequest{}); err != nil {
			_ = conn.Close()
			return nil, fmt.Errorf("%s: capabilities: %w", d.Address, err)
		}
		return conn, nil
	case HostPlatform:
		key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(d.HostKey))
		if err != nil {
			return nil, fmt.Errorf("%s: host_key: %w", d.Address, err)
		}
		c, err := ssh.Dial("tcp", d.Address, &ssh.ClientConfig{User: d.Username, Auth: []ssh.AuthMethod{ssh.Password(d.Password)},
			HostKeyCallback: ssh.FixedHostKey(key), Timeout: 60 * time.Second})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Address, err)
		}
		s, err := c.NewSession()
		if err == nil {
			err = s.Run("true")
			_ = s.Close()
		}
		if err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("%s: exec: %w", d.Address, err)
		}
		return c, nil
	}
	return nil, fmt.Errorf("%s: platform %q is not benchmarked", d.Address, d.Platform)
}
