package lab

import (
	"context"
	"crypto/tls"
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

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
)

func TestWrongCredentialsAreRejected(t *testing.T) {
	d := entry(t, sharedLab(t), "openconfig-1")
	bad := dial(t, d, grpc.WithPerRPCCredentials(loginCreds{d.Username, d.Password + "x"}))
	ctx := ctxT(t)

	_, err := bad.Capabilities(ctx, &gpb.CapabilityRequest{})
	wantCode(t, err, codes.Unauthenticated)
	_, err = bad.Set(ctx, setReq(update(t, "/qos/queues/queue[name=q-intruder]", `{"name":"q-intruder","config":{"name":"q-intruder"}}`)))
	wantCode(t, err, codes.Unauthenticated)
	_, err = get(ctx, bad, gpath(t, "/interfaces"))
	wantCode(t, err, codes.Unauthenticated)
	stream, err := bad.Subscribe(ctx)
	if err == nil {
		_, err = stream.Recv()
	}
	wantCode(t, err, codes.Unauthenticated)

	wrongUser := dial(t, d, grpc.WithPerRPCCredentials(loginCreds{"root", d.Password}))
	_, err = wrongUser.Capabilities(ctx, &gpb.CapabilityRequest{})
	wantCode(t, err, codes.Unauthenticated)

	// The rejected Set wrote nothing.
	_, err = get(ctx, dial(t, d), gpath(t, "/qos/queues/queue[name=q-intruder]"))
	wantCode(t, err, codes.NotFound)
}

func TestMissingCredentialsAreRejected(t *testing.T) {
	d := entry(t, sharedLab(t), "openconfig-1")
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM([]byte(d.CACertificate))
	conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots})))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_, err = gpb.NewGNMIClient(conn).Capabilities(ctxT(t), &gpb.CapabilityRequest{})
	wantCode(t, err, codes.Unauthenticated)
}

func TestTLS(t *testing.T) {
	d := entry(t, sharedLab(t), "openconfig-1")

	t.Run("localhost is in the certificate", func(t *testing.T) {
		byName := d
		byName.Address = strings.Replace(d.Address, "127.0.0.1", "localhost", 1)
		if _, err := dial(t, byName).Capabilities(ctxT(t), &gpb.CapabilityRequest{}); err != nil {
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
		_, err = dial(t, stranger).Capabilities(ctxT(t), &gpb.CapabilityRequest{})
		wantCode(t, err, codes.Unavailable)
		var uae x509.UnknownAuthorityError
		if !strings.Contains(err.Error(), "certificate signed by unknown authority") && !errors.As(err, &uae) {
			t.Fatalf("want an unknown-authority handshake failure, got %v", err)
		}
	})
	t.Run("plaintext is refused", func(t *testing.T) {
		conn, err := grpc.NewClient(d.Address,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithPerRPCCredentials(plaintextLogin{loginCreds{d.Username, d.Password}}))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = conn.Close() }()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = gpb.NewGNMIClient(conn).Capabilities(ctx, &gpb.CapabilityRequest{})
		wantCode(t, err, codes.Unavailable)
	})
}

// plaintextLogin sends the credentials even without TLS, so the failure seen
// is the server refusing plaintext, not the client refusing to send secrets.
type plaintextLogin struct{ loginCreds }

func (plaintextLogin) RequireTransportSecurity() bool { return false }
