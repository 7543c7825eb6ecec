package lab

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// stage creates a revision that adds egress-scheduler profile name, and returns its id.
func stage(c *labtest.NVUE, name string) string {
	c.T.Helper()
	var rev string
	for id := range c.Must(http.MethodPost, "/revision", nil) {
		rev = id
	}
	c.Must(http.MethodPatch, "/qos/egress-scheduler/"+name+"?rev="+rev, map[string]any{"traffic-class": map[string]any{"3": map[string]any{"mode": "strict"}}})
	return rev
}

func applyBody() map[string]any {
	return map[string]any{"state": "apply", "auto-prompt": map[string]string{"ays": "ays_yes"}}
}

// settle polls revision rev until it leaves the apply state and returns its state.
func settle(c *labtest.NVUE, rev string) map[string]any {
	c.T.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s := c.Must(http.MethodGet, "/revision/"+rev, nil); s["state"] != "apply" {
			return s
		}
	}
	c.T.Fatalf("revision %s never settled", rev)
	return nil
}

// TestCumulusFaults: every fault kind on the NVUE switch, as an HTTPS client sees it, and what
// the switch keeps (faults.md, cumulus-switch.md "Faults").
func TestCumulusFaults(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"cumulus": 1}, Ports: 2})
	sw := l.Cumulus("cumulus-1")
	c := labtest.NewNVUE(t, entry(t, l, "cumulus-1"))
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
	c.Must(http.MethodGet, "/qos?rev=applied", nil)

	t.Run("refuse", func(t *testing.T) {
		conns := sw.DeviceCounters().Connections
		inject(FaultRefuse)
		// The open connection was closed; the first GET may still try it (EOF), the next dials.
		if _, err := c.Do(t.Context(), http.MethodGet, "/qos?rev=applied", nil, nil); err == nil {
			t.Fatal("a GET while refusing answered")
		}
		if _, err := c.Do(t.Context(), http.MethodGet, "/qos?rev=applied", nil, nil); err == nil || !strings.Contains(err.Error(), "connection reset by peer") {
			t.Fatalf("a GET on a new connection while refusing: %v", err)
		}
		if got := sw.DeviceCounters().Connections; got <= conns {
			t.Errorf("the refused connection was not counted: %d -> %d", conns, got)
		}
		unfault()
		c.Must(http.MethodGet, "/qos?rev=applied", nil)
	})

	t.Run("drop", func(t *testing.T) {
		inject(FaultDrop)
		rev := stage(c, "DROP") // reads, a revision and its staging do not fire it
		if got := l.Faults("cumulus-1"); !slices.Equal(got, []FaultKind{FaultDrop}) {
			t.Fatalf("faults %v after staging", got)
		}
		if _, err := c.Do(t.Context(), http.MethodPatch, "/revision/"+rev, applyBody(), nil); err == nil {
			t.Fatal("the dropped apply answered")
		}
		if got := l.Faults("cumulus-1"); len(got) != 0 {
			t.Errorf("the drop did not disarm: %v", got)
		}
		if s := c.Must(http.MethodGet, "/revision/"+rev, nil); s["state"] != "pending" || has("DROP") {
			t.Fatalf("after the drop: revision %v, applied %v", s, has("DROP"))
		}
		c.Must(http.MethodPatch, "/revision/"+rev, applyBody())
		if s := settle(c, rev); s["state"] != "applied" || !has("DROP") {
			t.Fatalf("the apply sent again: %v", s)
		}
	})

	t.Run("reject", func(t *testing.T) {
		inject(FaultReject)
		rev := stage(c, "REJECT")
		c.Must(http.MethodPatch, "/revision/"+rev, applyBody())
		s := settle(c, rev)
		raw, _ := json.Marshal(s)
		if s["state"] != "invalid" || !strings.Contains(string(raw),
			`"message":"Config invalid at router.bgp.enable: BGP requires router-id to be set globally or in the VRF.\n"`) {
			t.Fatalf("the rejected revision: %s", raw)
		}
		if has("REJECT") || len(l.Faults("cumulus-1")) != 0 {
			t.Fatalf("applied %v, faults %v", has("REJECT"), l.Faults("cumulus-1"))
		}
		next := stage(c, "REJECT")
		c.Must(http.MethodPatch, "/revision/"+next, applyBody())
		if s := settle(c, next); s["state"] != "applied" || !has("REJECT") {
			t.Fatalf("the revision after the reject: %v", s)
		}
	})

	t.Run("stall", func(t *testing.T) {
		inject(FaultStall)
		short, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		if _, err := c.Do(short, http.MethodGet, "/qos?rev=applied", nil, nil); err == nil {
			t.Fatal("a stalled GET answered")
		}
		wantStalled(t, "GET", func() (string, error) {
			code, err := c.Do(context.Background(), http.MethodGet, "/system", nil, nil)
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
		c.Must(http.MethodGet, "/system", nil)
		if took := time.Since(start); took < by {
			t.Errorf("a slow switch answered in %s, want at least %s", took, by)
		}
		unfault()
	})
}
