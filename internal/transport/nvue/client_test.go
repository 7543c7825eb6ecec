package nvue

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/tlsconf"
)

// fakeNVUE answers the revision workflow the way NVIDIA's NVUE API page shows it; final is the
// state the revision reaches after one poll in "apply", wrapped answers it under the revision's
// id (the form of one of NVIDIA's examples).
type fakeNVUE struct {
	mu       sync.Mutex
	final    string
	wrapped  bool
	polls    int
	requests []string
	// drops is how many applies have their connection closed before NVUE takes them; taken
	// says an apply was taken (the revision is pending until then).
	drops int
	taken bool
	// stageFail refuses every staging request (400).
	stageFail bool
}

func (f *fakeNVUE) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	user, pass, _ := r.BasicAuth()
	body, _ := io.ReadAll(r.Body)
	f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI()+" "+string(body))
	if user != "admin" || pass != "pw" {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"title": "Unauthorized", "detail": "Authentication failed."}`))
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/nvue_v1/revision":
		_, _ = w.Write([]byte(`{"changeset/admin/7": {"state": "pending", "transition": {"issue": {}, "progress": ""}}}`))
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/nvue_v1/revision/") && f.drops > 0:
		f.drops--
		panic(http.ErrAbortHandler) // net/http closes the connection without an answer
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/nvue_v1/revision/"):
		f.taken = true
		_, _ = w.Write([]byte(`{"state": "apply", "transition": {"issue": {}, "progress": ""}}`))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/nvue_v1/revision/"):
		f.polls++
		state := map[string]any{"state": "apply", "transition": map[string]any{"issue": map[string]any{}, "progress": ""}}
		switch {
		case !f.taken:
			state["state"] = "pending"
		case f.polls > 1:
			state["state"] = f.final
			if f.final == "invalid" {
				state["transition"] = map[string]any{"progress": "Invalid config", "issue": map[string]any{"0": map[string]any{
					"code": "config_invalid", "data": map[string]any{"location": "qos.pfc", "reason": "no lossless pool\n"},
					"message": "Config invalid at qos.pfc: no lossless pool\n", "severity": "error"}}}
			}
		}
		var out any = state
		if f.wrapped {
			out = map[string]any{"changeset/admin/7": state}
		}
		_ = json.NewEncoder(w).Encode(out)
	case r.Method == http.MethodGet:
		_, _ = w.Write([]byte(`{"mapping": {}}`))
	case r.URL.Query().Get("rev") != "" && f.stageFail:
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"title": "Bad Request", "detail": "'x' is not one of ['l2', 'l3', 'port', 'both']"}`))
	default:
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{}`))
	}
}

func client(t *testing.T, f *fakeNVUE, password string) *Client {
	t.Helper()
	srv := httptest.NewTLSServer(f)
	t.Cleanup(srv.Close)
	c := New(Config{Endpoint: tlsconf.Endpoint{Device: "leaf-1", Address: strings.TrimPrefix(srv.URL, "https://"), Username: "admin", Password: password, Insecure: true},
		ApplyTimeout: 5 * time.Second})
	c.http.Transport = srv.Client().Transport
	return c
}

// TestApplyOneRevision: the changes are staged into the revision NVUE created (its id
// escaped in the query and the path), applied with the prompt answered, and polled to the end.
func TestApplyOneRevision(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		f := &fakeNVUE{final: "applied", wrapped: wrapped}
		err := client(t, f, "pw").Apply(context.Background(), []Op{{Method: http.MethodPatch, Path: "/", Body: map[string]any{"qos": map[string]any{}}},
			{Method: http.MethodDelete, Path: "/qos/pfc/ROCE"}})
		if err != nil {
			t.Fatalf("wrapped %v: %v", wrapped, err)
		}
		want := []string{
			"POST /nvue_v1/revision ",
			`PATCH /nvue_v1/?rev=changeset%2Fadmin%2F7 {"qos":{}}`,
			"DELETE /nvue_v1/qos/pfc/ROCE?rev=changeset%2Fadmin%2F7 ",
			`PATCH /nvue_v1/revision/changeset%2Fadmin%2F7 {"auto-prompt":{"ays":"ays_yes"},"state":"apply"}`,
		}
		for i, w := range want {
			if f.requests[i] != w {
				t.Errorf("request %d: %q, want %q", i, f.requests[i], w)
			}
		}
		if detached(f) {
			t.Errorf("an applied revision was detached: %q", f.requests)
		}
	}
}

const detachReq = "DELETE /nvue_v1/revision/changeset%2Fadmin%2F7 "

func detached(f *fakeNVUE) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.requests {
		if r == detachReq {
			return true
		}
	}
	return false
}

// TestDetachUnapplied: a revision that will not apply is detached (DELETE of the revision, the
// REST form of `nv config detach`): one NVUE ended invalid, one whose staging NVUE refused (the
// apply is never sent), and one still pending after its applies were lost; the write's own
// error is what the caller gets.
func TestDetachUnapplied(t *testing.T) {
	ops := []Op{{Method: http.MethodPatch, Path: "/qos", Body: map[string]any{}}}
	f := &fakeNVUE{final: "invalid"}
	if err := client(t, f, "pw").Apply(context.Background(), ops); !Rejected(err) || !detached(f) {
		t.Errorf("invalid: %v; detached %v: %q", err, detached(f), f.requests)
	}
	f = &fakeNVUE{stageFail: true}
	err := client(t, f, "pw").Apply(context.Background(), ops)
	if err == nil || !strings.Contains(err.Error(), "is not one of") || !detached(f) || f.taken {
		t.Errorf("staging refused: %v; detached %v: %q", err, detached(f), f.requests)
	}
	if last := f.requests[len(f.requests)-1]; last != detachReq {
		t.Errorf("last request %q, want the detach", last)
	}
	f = &fakeNVUE{final: "applied", drops: 2}
	c := client(t, f, "pw")
	c.cfg.Retries = 1
	if err := c.Apply(context.Background(), ops); err == nil || !detached(f) || !strings.Contains(err.Error(), "still pending, nothing applied (it is detached)") {
		t.Errorf("applies lost: %v; detached %v", err, detached(f))
	}
}

// TestApplyRefused: a revision NVUE ends invalid is an error carrying NVUE's issue, and counts
// as the switch refusing the change; a wrong password says so.
func TestApplyRefused(t *testing.T) {
	err := client(t, &fakeNVUE{final: "invalid"}, "pw").Apply(context.Background(), []Op{{Method: http.MethodPatch, Path: "/qos", Body: map[string]any{}}})
	var e *Error
	if !errors.As(err, &e) || e.State != "invalid" || !Rejected(err) ||
		!strings.Contains(err.Error(), `revision changeset/admin/7 ended invalid, nothing applied: Config invalid at qos.pfc: no lossless pool`) {
		t.Fatalf("refused revision: %v", err)
	}
	_, err = client(t, &fakeNVUE{}, "wrong").Get(context.Background(), "/qos")
	if err == nil || !strings.Contains(err.Error(), "authentication failed") || !strings.Contains(err.Error(), "HTTP 401 Unauthorized: Authentication failed.") {
		t.Fatalf("wrong password: %v", err)
	}
}

// TestGetAppliedWithoutDefaults: reads ask for the applied configuration without NVUE's
// defaults filled in.
func TestGetAppliedWithoutDefaults(t *testing.T) {
	f := &fakeNVUE{}
	if _, err := client(t, f, "pw").Get(context.Background(), "/qos"); err != nil {
		t.Fatal(err)
	}
	if f.requests[0] != "GET /nvue_v1/qos?filled=false&rev=applied " {
		t.Errorf("read %q", f.requests[0])
	}
}

// TestGetOperationalIncluding: one GET of the operational state with one include parameter
// per pattern, each escaped.
func TestGetOperationalIncluding(t *testing.T) {
	f := &fakeNVUE{}
	if _, err := client(t, f, "pw").GetOperationalIncluding(context.Background(), "/interface", "/swp1/counters/qos", "/*/counters/qos"); err != nil {
		t.Fatal(err)
	}
	if len(f.requests) != 1 || f.requests[0] != "GET /nvue_v1/interface?include=%2Fswp1%2Fcounters%2Fqos&include=%2F%2A%2Fcounters%2Fqos " {
		t.Errorf("read %q", f.requests)
	}
}

// TestApplyDropped: an apply whose connection drops before NVUE answers is sent again only once
// NVUE shows the revision still pending (it never took the first), within Retries; past them
// the error says the revision was left pending with nothing applied, a transport failure, not a
// refusal.
func TestApplyDropped(t *testing.T) {
	ops := []Op{{Method: http.MethodPatch, Path: "/qos", Body: map[string]any{}}}
	applyReq := `PATCH /nvue_v1/revision/changeset%2Fadmin%2F7 {"auto-prompt":{"ays":"ays_yes"},"state":"apply"}`
	f := &fakeNVUE{final: "applied", drops: 1}
	c := client(t, f, "pw")
	c.cfg.Retries = 1
	if err := c.Apply(context.Background(), ops); err != nil {
		t.Fatalf("one drop, one retry: %v", err)
	}
	want := []string{applyReq, "GET /nvue_v1/revision/changeset%2Fadmin%2F7 ", applyReq}
	if got := f.requests[2:5]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests after staging:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	f = &fakeNVUE{final: "applied", drops: 2}
	c = client(t, f, "pw")
	c.cfg.Retries = 1
	err := c.Apply(context.Background(), ops)
	if err == nil || Rejected(err) || !strings.Contains(err.Error(), `NVUE apply revision on device "leaf-1"`) ||
		!strings.Contains(err.Error(), "after 2 attempts, revision changeset/admin/7") ||
		!strings.Contains(err.Error(), "EOF; the revision is still pending, nothing applied") {
		t.Fatalf("two drops, one retry: %v", err)
	}
	if f.taken {
		t.Error("the revision was applied")
	}
}
