package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// oobClient is an operator's independent gNMI client (plain openconfig/gnmi code, not the
// provider's transport): it makes out-of-band changes and inspects the device.
type oobClient struct {
	t    *testing.T
	gc   gpb.GNMIClient
	user string
	pass string
}

func (l *accLab) oob(t *testing.T, device string) *oobClient {
	t.Helper()
	d := l.Inventory().Devices[device]
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(d.CACertificate))
	conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &oobClient{t: t, gc: gpb.NewGNMIClient(conn), user: d.Username, pass: d.Password}
}

func (c *oobClient) ctx() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	return metadata.AppendToOutgoingContext(ctx, "username", c.user, "password", c.pass), cancel
}

// path parses "/a/b[k=v]/c" (no "/" inside keys).
func oobPath(s string) *gpb.Path {
	p := &gpb.Path{Origin: "openconfig"}
	for _, part := range strings.Split(strings.Trim(s, "/"), "/") {
		if part == "" {
			continue
		}
		name, rest, _ := strings.Cut(part, "[")
		e := &gpb.PathElem{Name: name}
		for rest != "" {
			kv, after, _ := strings.Cut(rest, "]")
			k, v, _ := strings.Cut(kv, "=")
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			e.Key[k] = v
			rest = strings.TrimPrefix(after, "[")
		}
		p.Elem = append(p.Elem, e)
	}
	return p
}

// setLeaf writes one leaf with a JSON_IETF value.
func (c *oobClient) setLeaf(path, jsonValue string) {
	c.t.Helper()
	ctx, cancel := c.ctx()
	defer cancel()
	_, err := c.gc.Set(ctx, &gpb.SetRequest{Update: []*gpb.Update{{Path: oobPath(path),
		Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(jsonValue)}}}}})
	if err != nil {
		c.t.Fatalf("out-of-band set %s: %v", path, err)
	}
}

// set writes one list entry (or container) with a JSON_IETF body.
func (c *oobClient) set(path, jsonBody string) {
	c.setLeaf(path, jsonBody)
}

// get returns the decoded JSON at path, or nil when the device has nothing there.
func (c *oobClient) get(path string) any {
	c.t.Helper()
	ctx, cancel := c.ctx()
	defer cancel()
	resp, err := c.gc.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{oobPath(path)}, Encoding: gpb.Encoding_JSON_IETF, Type: gpb.GetRequest_CONFIG})
	if status.Code(err) == codes.NotFound {
		return nil
	}
	if err != nil {
		c.t.Fatalf("out-of-band get %s: %v", path, err)
	}
	var v any
	if err := json.Unmarshal(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal(), &v); err != nil {
		c.t.Fatal(err)
	}
	return v
}

// getString returns the JSON text at path ("" when absent).
func (c *oobClient) getString(path string) string {
	c.t.Helper()
	v := c.get(path)
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// setSONiC writes one CONFIG_DB field (origin sonic-db) with a JSON_IETF value.
func (c *oobClient) setSONiC(path, jsonValue string) {
	c.t.Helper()
	p := oobPath(path)
	p.Origin = "sonic-db"
	ctx, cancel := c.ctx()
	defer cancel()
	_, err := c.gc.Set(ctx, &gpb.SetRequest{Update: []*gpb.Update{{Path: p,
		Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(jsonValue)}}}}})
	if err != nil {
		c.t.Fatalf("out-of-band set %s: %v", path, err)
	}
}
