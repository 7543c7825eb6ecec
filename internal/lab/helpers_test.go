package lab

// The tests talk to the lab with a plain gNMI client written here, not with
// the provider's transport, so the lab is checked against the protocol and
// not against our own understanding of it.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/value"
	"github.com/openconfig/ygot/ygot"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
)

func TestMain(m *testing.M) {
	// Keep the datastore's glog files out of /tmp.
	logs, err := os.MkdirTemp("", "lab-test-logs")
	if err != nil {
		panic(err)
	}
	_ = flag.Set("log_dir", logs)
	code := m.Run()
	if shared.lab != nil {
		shared.lab.Stop()
	}
	_ = os.RemoveAll(shared.dir)
	_ = os.RemoveAll(logs)
	os.Exit(code)
}

// shared is one lab for the tests that only need an ordinary switch: starting
// a switch costs seconds (lemming builds its OpenConfig schema three times).
// Tests using it do not run in parallel and each uses its own object names.
var shared struct {
	once sync.Once
	lab  *Lab
	dir  string
	err  error
}

func sharedLab(t *testing.T) *Lab {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "lab-test") //nolint:usetesting // shared by many tests, removed in TestMain
		if shared.err != nil {
			return
		}
		shared.lab, shared.err = Start(context.Background(), Options{
			Switches: map[string]int{"openconfig": 2},
			Dir:      shared.dir,
		})
	})
	if shared.err != nil {
		t.Fatalf("start shared lab: %v", shared.err)
	}
	return shared.lab
}

type loginCreds struct{ username, password string }

func (c loginCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"username": c.username, "password": c.password}, nil
}
func (loginCreds) RequireTransportSecurity() bool { return true }

// dial connects like any gNMI client would from the inventory entry; opts
// come last so a test can override the credentials or the TLS settings.
func dial(t *testing.T, d DeviceEntry, opts ...grpc.DialOption) gpb.GNMIClient {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(d.CACertificate)) {
		t.Fatal("inventory CA certificate is not PEM")
	}
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots})),
		grpc.WithPerRPCCredentials(loginCreds{d.Username, d.Password}),
	}
	conn, err := grpc.NewClient(d.Address, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return gpb.NewGNMIClient(conn)
}

func entry(t *testing.T, l *Lab, name string) DeviceEntry {
	t.Helper()
	d, ok := l.Inventory().Devices[name]
	if !ok {
		t.Fatalf("no device %s in inventory", name)
	}
	return d
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func gpath(t *testing.T, s string) *gpb.Path {
	t.Helper()
	p, err := ygot.StringToStructuredPath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonIETF(s string) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(s)}}
}

// update is one JSON_IETF update under origin openconfig.
func update(t *testing.T, p, body string) *gpb.Update {
	return &gpb.Update{Path: gpath(t, p), Val: jsonIETF(body)}
}

func setReq(updates ...*gpb.Update) *gpb.SetRequest {
	return &gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Update: updates}
}

// get returns the JSON_IETF text at p, or the gRPC error.
func get(ctx context.Context, c gpb.GNMIClient, p *gpb.Path) (string, error) {
	p.Origin = "openconfig"
	resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p}, Encoding: gpb.Encoding_JSON_IETF})
	if err != nil {
		return "", err
	}
	if n := len(resp.GetNotification()); n != 1 {
		return "", fmt.Errorf("got %d notifications, want 1", n)
	}
	ups := resp.GetNotification()[0].GetUpdate()
	if len(ups) != 1 {
		return "", fmt.Errorf("got %d updates, want 1", len(ups))
	}
	v, ok := ups[0].GetVal().GetValue().(*gpb.TypedValue_JsonIetfVal)
	if !ok {
		return "", fmt.Errorf("value is %T, want JSON_IETF", ups[0].GetVal().GetValue())
	}
	return string(v.JsonIetfVal), nil
}

func mustGet(t *testing.T, c gpb.GNMIClient, p string) string {
	t.Helper()
	s, err := get(ctxT(t), c, gpath(t, p))
	if err != nil {
		t.Fatalf("Get %s: %v", p, err)
	}
	return s
}

func wantCode(t *testing.T, err error, want codes.Code) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Fatalf("got code %s (%v), want %s", got, err, want)
	}
}

// subscribeOnce returns path -> value of every leaf a ONCE subscription sees.
func subscribeOnce(t *testing.T, c gpb.GNMIClient, p string) map[string]string {
	t.Helper()
	stream, err := c.Subscribe(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	err = stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Prefix:       &gpb.Path{Origin: "openconfig"},
		Mode:         gpb.SubscriptionList_ONCE,
		Subscription: []*gpb.Subscription{{Path: gpath(t, p)}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	leaves := map[string]string{}
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			t.Fatal("stream ended before sync_response")
		}
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetSyncResponse() {
			return leaves
		}
		n := resp.GetUpdate()
		for _, u := range n.GetUpdate() {
			full := &gpb.Path{Elem: append(append([]*gpb.PathElem{}, n.GetPrefix().GetElem()...), u.GetPath().GetElem()...)}
			ps, err := ygot.PathToString(full)
			if err != nil {
				t.Fatal(err)
			}
			v, err := value.ToScalar(u.GetVal())
			if err != nil {
				t.Fatalf("%s: %v", ps, err)
			}
			leaves[ps] = fmt.Sprint(v)
		}
	}
}

// jsonEqual compares JSON texts ignoring member order and whitespace.
func jsonEqual(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got invalid JSON %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON %q: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("JSON differs\n got: %s\nwant: %s", gb, wb)
	}
}

func mustUnmarshal(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
}
