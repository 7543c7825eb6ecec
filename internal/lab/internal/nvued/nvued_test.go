package nvued

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T) (*Switch, *httptest.Server) {
	t.Helper()
	sw := New(Options{Hostname: "cumulus-1", Ports: []string{"swp1", "swp2"}, Username: "admin", Password: "pw", ApplyTime: time.Millisecond})
	srv := httptest.NewTLSServer(sw)
	t.Cleanup(srv.Close)
	return sw, srv
}

// call sends one request and decodes the JSON answer.
func call(t *testing.T, srv *httptest.Server, method, path, body string) (int, map[string]any) {
	t.Helper()
	code, _, out := callTyped(t, srv, method, path, body)
	return code, out
}

// callTyped is call that also returns the answer's Content-Type.
func callTyped(t *testing.T, srv *httptest.Server, method, path, body string) (int, string, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("admin", "pw")
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), out
}

func newRevision(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	code, body := call(t, srv, http.MethodPost, "/nvue_v1/revision", "")
	if code != http.StatusOK || len(body) != 1 {
		t.Fatalf("create revision: %d %v", code, body)
	}
	for id, v := range body {
		if v.(map[string]any)["state"] != "pending" {
			t.Fatalf("a new revision is pending: %v", v)
		}
		return id
	}
	return ""
}

// applyAndWait applies a revision as NVIDIA's clients do and polls it to its final state.
func applyAndWait(t *testing.T, srv *httptest.Server, rev, body string) map[string]any {
	t.Helper()
	code, got := call(t, srv, http.MethodPatch, "/nvue_v1/revision/"+rev, body)
	if code != http.StatusOK || got["state"] != "apply" {
		t.Fatalf("apply: %d %v", code, got)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		_, got = call(t, srv, http.MethodGet, "/nvue_v1/revision/"+rev, "")
		if got["state"] != "apply" {
			return got
		}
	}
	t.Fatalf("revision %s never left apply", rev)
	return nil
}

const ays = `{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}`

func TestRevisionWorkflow(t *testing.T) {
	sw, srv := start(t)
	rev := newRevision(t, srv)
	if code, _ := call(t, srv, http.MethodPatch, "/nvue_v1/qos/mapping/ROCE?rev="+rev, `{"trust": "l3", "dscp": {"26": {"switch-priority": 3}}}`); code != http.StatusOK {
		t.Fatalf("stage: %d", code)
	}
	if code, _ := call(t, srv, http.MethodPatch, "/nvue_v1/interface/swp1/qos/mapping?rev="+rev, `{"profile": "ROCE"}`); code != http.StatusOK {
		t.Fatalf("stage: %d", code)
	}
	if _, staged := call(t, srv, http.MethodGet, "/nvue_v1/qos/mapping?rev="+rev, ""); staged["ROCE"] == nil {
		t.Errorf("the revision shows what it stages: %v", staged)
	}
	if _, applied := call(t, srv, http.MethodGet, "/nvue_v1/qos/mapping?rev=applied", ""); applied["ROCE"] != nil {
		t.Fatalf("nothing is applied before the apply: %v", applied)
	}
	if got := applyAndWait(t, srv, rev, ays); got["state"] != "applied" {
		t.Fatalf("apply: %v", got)
	}
	m := sw.Applied()["qos"].(map[string]any)["mapping"].(map[string]any)["ROCE"].(map[string]any)
	if m["trust"] != "l3" {
		t.Errorf("applied: %v", m)
	}
	if code, _ := call(t, srv, http.MethodPatch, "/nvue_v1/qos/mapping/X?rev="+rev, `{"trust": "l2"}`); code != http.StatusBadRequest {
		t.Errorf("staging into an applied revision: %d, want 400", code)
	}
	// A DELETE answers 204 (Cumulus Linux 5.10 and later), and only for what exists.
	rev = newRevision(t, srv)
	if code, _ := call(t, srv, http.MethodDelete, "/nvue_v1/interface/swp1/qos/mapping?rev="+rev, ""); code != http.StatusNoContent {
		t.Errorf("delete: %d", code)
	}
	if code, _ := call(t, srv, http.MethodDelete, "/nvue_v1/interface/swp2/qos/mapping?rev="+rev, ""); code != http.StatusNotFound {
		t.Errorf("delete of nothing: %d", code)
	}
}

func TestRefusals(t *testing.T) {
	_, srv := start(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/nvue_v1/qos", nil)
	req.SetBasicAuth("admin", "wrong")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong password: %d", resp.StatusCode)
	}

	rev := newRevision(t, srv)
	for body, want := range map[string]string{
		`{"trust": "l4"}`:                          `'l4' is not one of ['l2', 'l3', 'port', 'both'] - 'qos.mapping.R.trust'`,
		`{"dscp": {"64": {"switch-priority": 1}}}`: `64 is not a valid key (0-63) - 'qos.mapping.R.dscp'`,
		`{"dscp": {"1": {"switch-priority": 8}}}`:  `8 is greater than the maximum of 7 - 'qos.mapping.R.dscp.1.switch-priority'`,
		`{"colour": "red"}`:                        `Unevaluated properties are not allowed ('colour' was unexpected) - 'qos.mapping.R'`,
	} {
		code, got := call(t, srv, http.MethodPatch, "/nvue_v1/qos/mapping/R?rev="+rev, body)
		if code != http.StatusBadRequest || got["title"] != "Bad Request" || got["detail"] != want {
			t.Errorf("%s: %d %v, want 400 %q", body, code, got, want)
		}
	}

	// NVUE refuses at apply what only the whole configuration shows: PFC without lossless
	// buffers, a binding to a missing profile, a watchdog without PFC.
	if code, _ := call(t, srv, http.MethodPatch, "/nvue_v1/qos/roce?rev="+rev, `{"enable": "off"}`); code != http.StatusOK {
		t.Fatal(code)
	}
	call(t, srv, http.MethodPatch, "/nvue_v1/qos/pfc/ROCE?rev="+rev, `{"switch-priority": {"3": {}}}`)
	call(t, srv, http.MethodPatch, "/nvue_v1/interface/swp2/qos?rev="+rev, `{"egress-scheduler": {"profile": "NONE"}, "pfc-watchdog": {"state": "enable"}}`)
	got := applyAndWait(t, srv, rev, ays)
	issues := got["transition"].(map[string]any)["issue"].(map[string]any)
	if got["state"] != "invalid" || len(issues) != 3 {
		t.Fatalf("invalid configuration: %v", got)
	}
	first := issues["0"].(map[string]any)
	if first["code"] != "config_invalid" || !strings.HasPrefix(first["message"].(string), "Config invalid at qos.pfc: ") {
		t.Errorf("issue: %v", first)
	}

	// Nobody answers the prompt.
	rev = newRevision(t, srv)
	call(t, srv, http.MethodPatch, "/nvue_v1/qos/mapping/R?rev="+rev, `{"trust": "l3"}`)
	got = applyAndWait(t, srv, rev, `{"state": "apply"}`)
	if got["state"] != "ays_fail" || got["transition"].(map[string]any)["progress"] != "Aborted apply after warnings" {
		t.Errorf("unanswered prompt: %v", got)
	}
}

// TestDetach: DELETE of a revision (`nv config detach`) drops a failed or pending one; an
// applied one, and one that does not exist, are not dropped.
func TestDetach(t *testing.T) {
	_, srv := start(t)
	failed := newRevision(t, srv)
	call(t, srv, http.MethodPatch, "/nvue_v1/qos/mapping/R?rev="+failed, `{"trust": "l3"}`)
	if got := applyAndWait(t, srv, failed, `{"state": "apply"}`); got["state"] != "ays_fail" {
		t.Fatalf("unanswered prompt: %v", got)
	}
	pending := newRevision(t, srv)
	applied := newRevision(t, srv)
	if got := applyAndWait(t, srv, applied, ays); got["state"] != "applied" {
		t.Fatalf("apply: %v", got)
	}
	for rev, want := range map[string]int{failed: http.StatusNoContent, pending: http.StatusNoContent,
		applied: http.StatusMethodNotAllowed, "99": http.StatusNotFound} {
		if code, _ := call(t, srv, http.MethodDelete, "/nvue_v1/revision/"+rev, ""); code != want {
			t.Errorf("detach %s: %d, want %d", rev, code, want)
		}
	}
	for rev, want := range map[string]int{failed: http.StatusNotFound, pending: http.StatusNotFound, applied: http.StatusOK} {
		if code, _ := call(t, srv, http.MethodGet, "/nvue_v1/revision/"+rev, ""); code != want {
			t.Errorf("revision %s after the detaches: %d, want %d", rev, code, want)
		}
	}
}

// TestCurl drives the workflow with curl, as NVIDIA's NVUE API page does.
func TestCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_CURL") != "" {
			t.Fatal("curl is required (ROCE_REQUIRE_CURL is set) but not installed")
		}
		t.Skip("curl is not installed here (CI installs it and sets ROCE_REQUIRE_CURL=1)")
	}
	sw, srv := start(t)
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.CommandContext(t.Context(), curl, append([]string{"-sS", "-k", "-u", "admin:pw"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("curl %v: %v %s", args, err, out)
		}
		return string(out)
	}
	var created map[string]any
	if err := json.Unmarshal([]byte(run("-X", "POST", srv.URL+"/nvue_v1/revision")), &created); err != nil || len(created) != 1 {
		t.Fatalf("create: %v %v", created, err)
	}
	var rev string
	for id := range created {
		rev = id
	}
	run("-H", "Content-Type: application/json", "-d", `{"3": {"traffic-class": 3}}`, "-X", "PATCH",
		srv.URL+"/nvue_v1/qos/egress-queue-mapping/default-global/switch-priority?rev="+rev)
	run("-H", "Content-Type:application/json", "-d", ays, "-X", "PATCH", srv.URL+"/nvue_v1/revision/"+rev)
	for deadline := time.Now().Add(5 * time.Second); ; {
		if strings.Contains(run(srv.URL+"/nvue_v1/revision/"+rev), `"applied"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("never applied")
		}
	}
	eqm := sw.Applied()["qos"].(map[string]any)["egress-queue-mapping"]
	if !strings.Contains(run(srv.URL+"/nvue_v1/qos?rev=applied"), `"traffic-class":3`) || eqm == nil {
		t.Errorf("curl's change is not applied: %v", eqm)
	}
}

// TestErrorAnswers: the bodies of the refusals the framework in front of NVUE's handlers gives
// (connexion and werkzeug texts, cumulus-switch.md "Error answers"), and a staged DELETE whose
// target an earlier revision removed ending apply_fail.
func TestErrorAnswers(t *testing.T) {
	_, srv := start(t)
	rev := newRevision(t, srv)
	for _, c := range []struct {
		method, path, body string
		status             int
		title, detail      string
	}{
		{http.MethodPatch, "/nvue_v1/qos/mapping/R", `{"trust": "l3"}`, http.StatusBadRequest, "Bad Request", "Missing query parameter 'rev'"},
		{http.MethodPatch, "/nvue_v1/qos/mapping/R?rev=" + rev, `{"trust": `, http.StatusBadRequest, "Bad Request", "Request body is not valid JSON"},
		{http.MethodPatch, "/nvue_v1/revision/" + rev, `{"state"`, http.StatusBadRequest, "Bad Request", "Request body is not valid JSON"},
		{http.MethodPatch, "/nvue_v1/revision/" + rev, `{"state": "save"}`, http.StatusBadRequest, "Bad Request", "'save' is not one of the states this lab applies ('apply')"},
		{http.MethodPut, "/nvue_v1/qos", `{}`, http.StatusMethodNotAllowed, "Method Not Allowed", "The method is not allowed for the requested URL."},
		{http.MethodPost, "/nvue_v1/revision/" + rev, `{}`, http.StatusMethodNotAllowed, "Method Not Allowed", "The method is not allowed for the requested URL."},
	} {
		code, ctype, got := callTyped(t, srv, c.method, c.path, c.body)
		if code != c.status || ctype != "application/problem+json" ||
			got["title"] != c.title || got["detail"] != c.detail || got["type"] != "about:blank" || got["status"] != float64(c.status) {
			t.Errorf("%s %s: %d %s %v, want %d %q %q", c.method, c.path, code, ctype, got, c.status, c.title, c.detail)
		}
	}

	// Two revisions delete the same binding; the second to apply finds it gone.
	first, second := newRevision(t, srv), newRevision(t, srv)
	for _, r := range []string{first, second} {
		if code, _ := call(t, srv, http.MethodDelete, "/nvue_v1/system/hostname?rev="+r, ""); code != http.StatusNoContent {
			t.Fatalf("stage delete in %s: %d", r, code)
		}
	}
	if got := applyAndWait(t, srv, first, ays); got["state"] != "applied" {
		t.Fatalf("first: %v", got)
	}
	got := applyAndWait(t, srv, second, ays)
	issue, _ := got["transition"].(map[string]any)["issue"].(map[string]any)["0"].(map[string]any)
	if got["state"] != "apply_fail" || issue["code"] != "apply_fail" || issue["message"] != "no hostname" {
		t.Errorf("second: %v", got)
	}
}
