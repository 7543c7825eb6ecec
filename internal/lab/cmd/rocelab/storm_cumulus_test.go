package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestStormACumulusSwitch: `rocelab storm` on a cumulus switch's port makes its NVUE queue
// counters show discards, read over HTTPS as any NVUE client reads them; --off stops them.
// `rocelab fault` refuses its HTTPS connections until cleared.
func TestStormACumulusSwitch(t *testing.T) {
	dir, inv := upInProcess(t, "--switches", "cumulus=1", "--ports", "2")
	sw := inv.Devices["cumulus-1"]
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(sw.CACertificate))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	get := func() (*http.Response, error) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "https://"+sw.Address+"/nvue_v1/interface/swp2/counters/qos/egress-queue-stats", nil)
		req.SetBasicAuth(sw.Username, sw.Password)
		return client.Do(req)
	}
	discards := func() float64 {
		t.Helper()
		resp, err := get()
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var q map[string]map[string]float64
		if err := json.NewDecoder(resp.Body).Decode(&q); err != nil {
			t.Fatal(err)
		}
		return q["0"]["tx-uc-buffer-discards"]
	}
	if n := discards(); n != 0 {
		t.Fatalf("%v discards before any storm", n)
	}
	if code, out, errOut := runArgs("storm", "--dir", dir, "cumulus-1", "swp2"); code != 0 || !strings.Contains(out, "storm on cumulus-1 swp2") {
		t.Fatalf("storm: exit %d, %q %q", code, out, errOut)
	}
	eventually(t, "discards during the storm", func() bool { return discards() != 0 })
	if code, _, errOut := runArgs("storm", "--dir", dir, "cumulus-1", "swp2", "--off"); code != 0 {
		t.Fatalf("storm --off: exit %d, %q", code, errOut)
	}
	first := discards()
	if second := discards(); second != first {
		t.Errorf("after --off the discards went %v -> %v", first, second)
	}
	if code, _, errOut := runArgs("storm", "--dir", dir, "cumulus-1", "swp9"); code == 0 || !strings.Contains(errOut, `has no interface "swp9"`) {
		t.Errorf("a port the switch lacks: exit %d, %q", code, errOut)
	}
	client.CloseIdleConnections()
	if code, out, errOut := runArgs("fault", "--dir", dir, "cumulus-1", "refuse"); code != 0 {
		t.Fatalf("fault refuse: exit %d, %q %q", code, out, errOut)
	}
	if _, err := get(); err == nil || !strings.Contains(err.Error(), "connection reset by peer") {
		t.Errorf("a GET while the switch refuses: %v", err)
	}
	if code, out, errOut := runArgs("fault", "--dir", dir, "cumulus-1", "clear"); code != 0 {
		t.Fatalf("fault clear: exit %d, %q %q", code, out, errOut)
	}
	discards()
}
