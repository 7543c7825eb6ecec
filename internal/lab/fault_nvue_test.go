package lab

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// nvueTestClient speaks to a lab cumulus switch as curl does: HTTPS with the lab CA, basic
// authentication.
type nvueTestClient struct {
	t    *testing.T
	d    DeviceEntry
	http *http.Client
}

func newNVUETestClient(t *testing.T, d DeviceEntry) *nvueTestClient {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(d.CACertificate))
	return &nvueTestClient{t: t, d: d, http: &http.Client{Timeout: 20 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, ForceAttemptHTTP2: true}}}
}

// do sends one request and returns the status and body, or the transport's error.
func (c *nvueTestClient) do(ctx context.Context, method, path string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, "https://"+c.d.Address+"/nvue_v1"+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.SetBasicAuth(c.d.Username, c.d.Password)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out, nil
}

func (c *nvueTestClient) must(method, path string, body any) map[string]any {
	c.t.Helper()
	code, out, err := c.do(c.t.Context(), method, path, body)
	if err != nil || code/100 != 2 {
		c.t.Fatalf("%s %s: %d %v %v", method, path, code, out, err)
	}
	return out
}

// stage creates a revision that adds egress-scheduler profile name, and returns its id.
func (c *nvueTestClient) stage(name string) string {
	c.t.Helper()
	var rev string
	for id := range c.must(http.MethodPost, "/revision", nil) {
		rev = id
	}
	c.must(http.MethodPatch, "/qos/egress-scheduler/"+name+"?rev="+rev, map[string]any{"traffic-class": map[string]any{"3": map[string]any{"mode": "strict"}}})
	return rev
}

func applyBody() map[string]any {
	return map[string]any{"state": "apply", "auto-prompt": map[string]string{"ays": "ays_yes"}}
}

// settle polls revision rev until it leaves the apply state and returns its state.
func (c *nvueTestClient) settle(rev string) map[string]any {
	c.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s := c.must(http.MethodGet, "/revision/"+rev, nil); s["state"] != "apply" {
			return s
		}
	}
	c.t.Fatalf("revision %s never settled", rev)
	return nil
}

// TestCumulusFaults: every fault kind on the NVUE switch, as an HTTPS client sees it, and what
// the switch keeps (faults.md, cumulus-switch.md "Faults").
func TestCumulusFaults(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"cumulus": 1}, Ports: 2})
	sw := l.Cumulus("cumulus-1")
	c := newNVUETestClient(t, entry(t, l, "cumulus-1"))
	inject := func(k FaultKind) {
		t.Helper()
		if err := l.InjectFault("cumulus-1", k); err != nil {
			t.Fatal(err)
		}
	}
	unfault := func() {
		t.Helper()
		if err := l.ClearFaults("cumulus-1"); err != nil {
			t.Fatal(err)
		}
	}
	has := func(profile string) bool {
		q, _ := sw.Applied()["qos"].(map[string]any)
		s, _ := q["egress-scheduler"].(map[string]any)
		return s[profile] != nil
	}
	c.must(http.MethodGet, "/qos?rev=applied", nil)

	t.Run("refuse", func(t *testing.T) {
		conns := sw.DeviceCounters().Connections
		inject(FaultRefuse)
		// The open connection was closed; the first GET may still try it (EOF), the next dials.
		if _, _, err := c.do(t.Context(), http.MethodGet, "/qos?rev=applied", nil); err == nil {
			t.Fatal("a GET while refusing answered")
		}
		if _, _, err := c.do(t.Context(), http.MethodGet, "/qos?rev=applied", nil); err == nil || !strings.Contains(err.Error(), "connection reset by peer") {
			t.Fatalf("a GET on a new connection while refusing: %v", err)
		}
		if got := sw.DeviceCounters().Connections; got <= conns {
			t.Errorf("the refused connection was not counted: %d -> %d", conns, got)
		}
		unfault()
		c.must(http.MethodGet, "/qos?rev=applied", nil)
	})

	t.Run("drop", func(t *testing.T) {
		inject(FaultDrop)
		rev := c.stage("DROP") // reads, a revision and its staging do not fire it
		if got := l.Faults("cumulus-1"); !slices.Equal(got, []FaultKind{FaultDrop}) {
			t.Fatalf("faults %v after staging", got)
		}
		if _, _, err := c.do(t.Context(), http.MethodPatch, "/revision/"+rev, applyBody()); err == nil {
			t.Fatal("the dropped apply answered")
		}
		if got := l.Faults("cumulus-1"); len(got) != 0 {
			t.Errorf("the drop did not disarm: %v", got)
		}
		if s := c.must(http.MethodGet, "/revision/"+rev, nil); s["state"] != "pending" || has("DROP") {
			t.Fatalf("after the drop: revision %v, applied %v", s, has("DROP"))
		}
		c.must(http.MethodPatch, "/revision/"+rev, applyBody())
		if s := c.settle(rev); s["state"] != "applied" || !has("DROP") {
			t.Fatalf("the apply sent again: %v", s)
		}
	})

	t.Run("reject", func(t *testing.T) {
		inject(FaultReject)
		rev := c.stage("REJECT")
		c.must(http.MethodPatch, "/revision/"+rev, applyBody())
		s := c.settle(rev)
		raw, _ := json.Marshal(s)
		if s["state"] != "invalid" || !strings.Contains(string(raw),
			`"message":"Config invalid at router.bgp.enable: BGP requires router-id to be set globally or in the VRF.\n"`) {
			t.Fatalf("the rejected revision: %s", raw)
		}
		if has("REJECT") || len(l.Faults("cumulus-1")) != 0 {
			t.Fatalf("applied %v, faults %v", has("REJECT"), l.Faults("cumulus-1"))
		}
		next := c.stage("REJECT")
		c.must(http.MethodPatch, "/revision/"+next, applyBody())
		if s := c.settle(next); s["state"] != "applied" || !has("REJECT") {
			t.Fatalf("the revision after the reject: %v", s)
		}
	})

	t.Run("stall", func(t *testing.T) {
		inject(FaultStall)
		short, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		if _, _, err := c.do(short, http.MethodGet, "/qos?rev=applied", nil); err == nil {
			t.Fatal("a stalled GET answered")
		}
		wantStalled(t, "GET", func() (string, error) {
			code, _, err := c.do(context.Background(), http.MethodGet, "/system", nil)
			if err == nil && code != http.StatusOK {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}, unfault)
	})

	t.Run("slow", func(t *testing.T) {
		const by = 300 * time.Millisecond
		if err := l.InjectSlow("cumulus-1", by); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		c.must(http.MethodGet, "/system", nil)
		if took := time.Since(start); took < by {
			t.Errorf("a slow switch answered in %s, want at least %s", took, by)
		}
		unfault()
	})
}
