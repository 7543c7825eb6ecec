package lab

import (
	"context"
	"crypto/x509"
	"errors"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
)

func TestWrongCredentialsAreRejected(t *testing.T) {
	d := entry(t, sharedLab(t), "openconfig-1")
	bad := labtest.Dial(t, d, grpc.WithPerRPCCredentials(labtest.LoginCreds{Username: d.Username, Password: d.Password + "x"}))
	ctx := labtest.Ctx(t)

	_, err := bad.Capabilities(ctx, &gpb.CapabilityRequest{})
	labtest.WantCode(t, err, codes.Unauthenticated)
	_, err = bad.Set(ctx, labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name=q-intruder]", `{"name":"q-intruder","config":{"name":"q-intruder"}}`)))
	labtest.WantCode(t, err, codes.Unauthenticated)
	_, err = labtest.Get(ctx, bad, labtest.Path(t, "/interfaces"))
	labtest.WantCode(t, err, codes.Unauthenticated)
	stream, err := bad.Subscribe(ctx)
	if err == nil {
		_, err = stream.Recv()
	}
	labtest.WantCode(t, err, codes.Unauthenticated)

	wrongUser := labtest.Dial(t, d, grpc.WithPerRPCCredentials(labtest.LoginCreds{Username: "root", Password: d.Password}))
	_, err = wrongUser.Capabilities(ctx, &gpb.CapabilityRequest{})
	labtest.WantCode(t, err, codes.Unauthenticated)

	// The rejected Set wrote nothing.
	_, err = labtest.Get(ctx, labtest.Dial(t, d), labtest.Path(t, "/qos/queues/queue[name=q-intruder]"))
	labtest.WantCode(t, err, codes.NotFound)
}

func TestMissingCredentialsAreRejected(t *testing.T) {
	d := entry(t, sharedLab(t), "openconfig-1")
	cfg, ok := pki.ClientTLS(d.CACertificate)
	if !ok {
		t.Fatal("inventory CA certificate is not PEM")
	}
	conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_, err = gpb.NewGNMIClient(conn).Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{})
	labtest.WantCode(t, err, codes.Unauthenticated)
}

func TestTLS(t *testing.T) {
	d := entry(t, sharedLab(t), "openconfig-1")

	t.Run("localhost is in the certificate", func(t *testing.T) {
		byName := d
		byName.Address = strings.Replace(d.Address, "127.0.0.1", "localhost", 1)
		if _, err := labtest.Dial(t, byName).Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("another CA is not trusted", func(t *testing.T) {
		other, err := pki.NewAuthority()
		if err != nil {
			t.Fatal(err)
		}
		stranger := d
		stranger.CACertificate = string(other.PEM)
		_, err = labtest.Dial(t, stranger).Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{})
		labtest.WantCode(t, err, codes.Unavailable)
		var uae x509.UnknownAuthorityError
		if !strings.Contains(err.Error(), "certificate signed by unknown authority") && !errors.As(err, &uae) {
			t.Fatalf("want an unknown-authority handshake failure, got %v", err)
		}
	})
	t.Run("plaintext is refused", func(t *testing.T) {
		conn, err := grpc.NewClient(d.Address,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithPerRPCCredentials(plaintextLogin{labtest.LoginCreds{Username: d.Username, Password: d.Password}}))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = conn.Close() }()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = gpb.NewGNMIClient(conn).Capabilities(ctx, &gpb.CapabilityRequest{})
		labtest.WantCode(t, err, codes.Unavailable)
	})
}

// plaintextLogin sends the credentials even without TLS, so the failure seen
// is the server refusing plaintext, not the client refusing to send secrets.
type plaintextLogin struct{ labtest.LoginCreds }

func (plaintextLogin) RequireTransportSecurity() bool { return false }
