package gnmi

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/tlsconf"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// fakeTarget is a scripted gNMI server: each Set/Get pops the next error from its script.
type fakeTarget struct {
	gpb.UnimplementedGNMIServer
	script     []error
	calls      atomic.Int32
	delay      time.Duration
	lastUser   atomic.Value
	lastTarget atomic.Value // the prefix target of the last Set
}

func (f *fakeTarget) next(ctx context.Context) error {
	n := int(f.calls.Add(1)) - 1
	if md, ok := metadata.FromIncomingContext(ctx); ok && len(md.Get("username")) == 1 {
		f.lastUser.Store(md.Get("username")[0] + ":" + strings.Join(md.Get("password"), ""))
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if n < len(f.script) {
		return f.script[n]
	}
	return nil
}

func (f *fakeTarget) Set(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	f.lastTarget.Store(req.GetPrefix().GetTarget())
	return &gpb.SetResponse{}, f.next(ctx)
}

func (f *fakeTarget) Get(ctx context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	if err := f.next(ctx); err != nil {
		return nil, err
	}
	if req.GetEncoding() != gpb.Encoding_JSON_IETF {
		return nil, status.Error(codes.InvalidArgument, "want JSON_IETF")
	}
	return &gpb.GetResponse{Notification: []*gpb.Notification{{
		Prefix: &gpb.Path{Origin: "openconfig"},
		Update: []*gpb.Update{
			{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "qos"}}}, Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(`{"classifiers":{}}`)}}},
			{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "x"}}}, Val: &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: 7}}},
		},
	}}}, nil
}

// pki makes a CA and a server certificate for 127.0.0.1.
func pki(t *testing.T) (caPEM []byte, serverCert tls.Certificate) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "dut"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func serve(t *testing.T, f gpb.GNMIServer) (addr string, caPEM []byte) {
	t.Helper()
	caPEM, cert := pki(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})))
	gpb.RegisterGNMIServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String(), caPEM
}

func fastClient(addr string, ca []byte, retries int) *Client {
	return New(Config{Endpoint: tlsconf.Endpoint{Device: "leaf-1", Address: addr, Username: "admin", Password: "pw", CACertificate: ca},
		Attempts: retry.Attempts{Retries: retries, Backoff: time.Millisecond, Timeout: 2 * time.Second}})
}

func TestRetriesTransientCodesThenSucceeds(t *testing.T) {
	for _, code := range []codes.Code{codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted} {
		f := &fakeTarget{script: []error{status.Error(code, "busy"), status.Error(code, "busy")}}
		addr, ca := serve(t, f)
		if err := fastClient(addr, ca, 2).Set(context.Background(), &gpb.SetRequest{}); err != nil {
			t.Fatalf("%s: want success on the third attempt, got %v", code, err)
		}
		if got := f.calls.Load(); got != 3 {
			t.Errorf("%s: %d attempts, want 3", code, got)
		}
	}
}

func TestRetriesAreBounded(t *testing.T) {
	f := &fakeTarget{script: []error{status.Error(codes.Unavailable, "down"), status.Error(codes.Unavailable, "down"), status.Error(codes.Unavailable, "down")}}
	addr, ca := serve(t, f)
	err := fastClient(addr, ca, 1).Set(context.Background(), &gpb.SetRequest{})
	var ge *Error
	if !errors.As(err, &ge) || ge.Attempts != 2 || ge.Code() != codes.Unavailable {
		t.Fatalf("want Unavailable after 2 attempts, got %v", err)
	}
	if !strings.Contains(err.Error(), `device "leaf-1"`) || !strings.Contains(err.Error(), "set") {
		t.Errorf("error must name the device and the operation: %v", err)
	}
}

func TestRejectedChangeIsNotRetried(t *testing.T) {
	f := &fakeTarget{script: []error{status.Error(codes.InvalidArgument, "schema says no")}}
	addr, ca := serve(t, f)
	err := fastClient(addr, ca, 3).Set(context.Background(), &gpb.SetRequest{})
	if !Rejected(err) || f.calls.Load() != 1 {
		t.Fatalf("want one attempt and a rejected error, got %d attempts, %v", f.calls.Load(), err)
	}
	if !strings.Contains(err.Error(), "schema says no") {
		t.Errorf("device message lost: %v", err)
	}
}

func TestTimeoutPerAttempt(t *testing.T) {
	f := &fakeTarget{delay: 300 * time.Millisecond}
	addr, ca := serve(t, f)
	c := New(Config{Endpoint: tlsconf.Endpoint{Device: "leaf-1", Address: addr, CACertificate: ca}, Attempts: retry.Attempts{Timeout: 50 * time.Millisecond}})
	err := c.Set(context.Background(), &gpb.SetRequest{})
	var ge *Error
	if !errors.As(err, &ge) || ge.Code() != codes.DeadlineExceeded {
		t.Fatalf("want DeadlineExceeded, got %v", err)
	}
}

func TestCredentialsSentAsMetadataAndGetDecodes(t *testing.T) {
	f := &fakeTarget{}
	addr, ca := serve(t, f)
	ups, err := fastClient(addr, ca, 0).Get(context.Background(), &gpb.Path{Origin: "openconfig", Elem: []*gpb.PathElem{{Name: "qos"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.lastUser.Load().(string); got != "admin:pw" {
		t.Errorf("metadata credentials = %q", got)
	}
	if len(ups) != 2 || string(ups[0].JSON) != `{"classifiers":{}}` || string(ups[1].JSON) != "7" {
		t.Fatalf("updates = %+v", ups)
	}
	if ups[0].Path.GetOrigin() != "openconfig" || ups[0].Path.GetElem()[0].GetName() != "qos" {
		t.Errorf("prefix not joined into the update path: %v", ups[0].Path)
	}
}

func TestUntrustedCAIsRefused(t *testing.T) {
	f := &fakeTarget{}
	addr, _ := serve(t, f)
	otherCA, _ := pki(t)
	err := fastClient(addr, otherCA, 3).Set(context.Background(), &gpb.SetRequest{})
	if err == nil || f.calls.Load() != 0 {
		t.Fatalf("a server signed by another CA must be refused before any RPC, got %v", err)
	}
	if !strings.Contains(err.Error(), "TLS verification failed") || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("error should say it is a certificate problem: %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Attempts != 1 {
		t.Errorf("an untrusted certificate is final, not retried: %+v", e)
	}
	// insecure = true skips verification, by explicit choice only.
	c := New(Config{Endpoint: tlsconf.Endpoint{Device: "leaf-1", Address: addr, Insecure: true}, Attempts: retry.Attempts{Timeout: 2 * time.Second}})
	if err := c.Set(context.Background(), &gpb.SetRequest{}); err != nil {
		t.Fatalf("insecure client: %v", err)
	}
}

func TestNewDoesNotDial(t *testing.T) {
	c := New(Config{Endpoint: tlsconf.Endpoint{Device: "leaf-1", Address: "127.0.0.1:1"}})
	if c.conn != nil {
		t.Fatal("New must not open a connection")
	}
	err := c.Set(context.Background(), &gpb.SetRequest{})
	if err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("want an unreachable error naming the cause, got %v", err)
	}
}

// The configured target goes on the wire, and the caller's request is left as it was (a
// builder's request may be logged or retried by the caller).
func TestSetSendsTheTargetWithoutChangingTheRequest(t *testing.T) {
	f := &fakeTarget{}
	addr, ca := serve(t, f)
	c := New(Config{Endpoint: tlsconf.Endpoint{Device: "leaf-1", Address: addr, Username: "admin", Password: "pw", CACertificate: ca},
		Target: "leaf-1-target", Attempts: retry.Attempts{Timeout: 2 * time.Second}})
	req := &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "qos"}}}}}}
	if err := c.Set(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := f.lastTarget.Load(); got != "leaf-1-target" {
		t.Errorf("target on the wire %v, want leaf-1-target", got)
	}
	if req.Prefix != nil {
		t.Errorf("Set changed the caller's request: prefix %v", req.Prefix)
	}
}
