// Package nvue is the provider's transport to NVIDIA Cumulus Linux switches: NVUE's REST API
// over HTTPS with basic authentication (https://<switch>:8765/nvue_v1). Reads are GETs of the
// applied configuration; writes go through one NVUE revision: create it, stage each change
// into it, apply it answering NVUE's prompt, and poll it until it is applied or has failed. It
// knows nothing about QoS. The workflow and its JSON are NVIDIA's ("NVUE API", Cumulus Linux
// 5.9 and 5.14 user guides; DESIGN.md, Cumulus Linux).
package nvue

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/tlsconf"
)

// BasePath is where NVUE serves its API.
const BasePath = "/nvue_v1"

// DefaultPort is NVUE's API port when the address names none ("If you do not set a port,
// Cumulus Linux uses the default port 8765").
const DefaultPort = "8765"

// Config is everything needed to reach one switch.
type Config struct {
	tlsconf.Endpoint
	Timeout time.Duration // per request; 0 means 30s
	Retries int           // extra attempts of a read after a transient failure
	// ApplyTimeout bounds the wait for a revision to leave NVUE's apply states; 0 means 5m.
	ApplyTimeout time.Duration
	Logger       Logger
}

// Logger receives transport events (event.Logger, every transport's).
type Logger = event.Logger

// Client talks to one switch; safe for concurrent use.
type Client struct {
	cfg  Config
	http *http.Client
	err  error // a configuration error, reported by every call
}

// New returns a client for cfg without connecting.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.ApplyTimeout <= 0 {
		cfg.ApplyTimeout = 5 * time.Minute
	}
	c := &Client{cfg: cfg}
	tlsCfg, err := c.tlsConfig()
	if err != nil {
		c.err = err
	}
	c.http = &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{TLSClientConfig: tlsCfg, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 4,
			IdleConnTimeout: 90 * time.Second},
		// NVUE answers every call itself; a redirect would resend the credentials elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return c
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

func (c *Client) tlsConfig() (*tls.Config, error) {
	return c.cfg.TLS()
}

// Close drops idle connections.
func (c *Client) Close() error {
	c.http.CloseIdleConnections()
	return nil
}

// Get returns the applied configuration at path (below /nvue_v1, e.g. "/qos"), as NVUE's JSON,
// without defaults filled in (rev=applied, filled=false).
func (c *Client) Get(ctx context.Context, path string) ([]byte, error) {
	return c.read(ctx, "get", path, url.Values{"rev": {"applied"}, "filled": {"false"}})
}

// GetOperational returns operational state at path (counters): NVUE's default revision.
func (c *Client) GetOperational(ctx context.Context, path string) ([]byte, error) {
	return c.read(ctx, "get", path, nil)
}

// GetOperationalIncluding returns operational state at path trimmed to the branches the
// include patterns reach (NVUE's include parameter, once per pattern: "/*/counters/qos" keeps
// every child's counters/qos), so one GET reads one branch of many objects.
func (c *Client) GetOperationalIncluding(ctx context.Context, path string, include ...string) ([]byte, error) {
	return c.read(ctx, "get", path, url.Values{"include": include})
}

func (c *Client) read(ctx context.Context, op, path string, q url.Values) ([]byte, error) {
	var body []byte
	var err error
	attempts := 0
	for {
		attempts++
		body, err = c.do(ctx, http.MethodGet, path, q, nil)
		if err == nil || !transient(err) || attempts > c.cfg.Retries || ctx.Err() != nil {
			break
		}
		select {
		case <-time.After(time.Duration(attempts) * 200 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	if err != nil {
		return nil, c.wrap(op, attempts, err)
	}
	return body, nil
}

// Op is one change staged into a revision: PATCH merges Body at Path, DELETE removes Path.
type Op struct {
	Method string
	Path   string
	Body   any
}

// Apply makes ops one NVUE revision and applies it: either the switch applies all of them or
// the revision ends failed (or is never applied) and the applied configuration is as it was.
// A revision that this call abandoned before applying (a staging request refused) or that
// ended failed is detached (detach); one whose apply may still be under way is left alone.
func (c *Client) Apply(ctx context.Context, ops []Op) error {
	if len(ops) == 0 {
		return nil
	}
	rev, err := c.createRevision(ctx)
	if err != nil {
		return c.wrap("create revision", 1, err)
	}
	log := map[string]any{"revision": rev, "changes": len(ops)}
	c.debug(ctx, "nvue revision created", log)
	q := url.Values{"rev": {rev}}
	for _, op := range ops {
		if _, err := c.do(ctx, op.Method, op.Path, q, op.Body); err != nil {
			e := c.wrap("stage change", 1, err)
			e.Revision = rev
			c.detach(ctx, rev)
			return e
		}
	}
	if unapplied, err := c.applyRevision(ctx, rev); err != nil {
		if unapplied {
			c.detach(ctx, rev)
		}
		return err
	}
	state, issues, err := c.wait(ctx, rev)
	log["state"] = state
	c.debug(ctx, "nvue revision ended", log)
	if err != nil {
		return err
	}
	if !applied(state) {
		c.detach(ctx, rev)
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "apply revision", Revision: rev, State: state, Issues: issues}
	}
	return nil
}

// detach removes a revision this client created and will not apply: one abandoned before its
// apply, or one that ended failed. NVUE's REST API detaches a revision with `DELETE
// /nvue_v1/revision/<id>` (`nv config detach`; NVIDIA documents it in the NVUE reference of its
// NVOS switches, Cumulus Linux's API pages list no such example: DESIGN.md, Cumulus Linux). It
// is a courtesy, so NVUE's list of revisions does not fill with ours: the error that ended the
// write is what the caller reports, and a detach that fails (an NVUE without the call, a lost
// connection) is only logged; the revision is never applied either way. It gets its own short
// deadline, since the write's context may be what ran out.
func (c *Client) detach(ctx context.Context, rev string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(c.cfg.Timeout, 10*time.Second))
	defer cancel()
	_, err := c.do(ctx, http.MethodDelete, revisionPath(rev), nil, nil)
	f := map[string]any{"revision": rev}
	if err != nil {
		f["error"] = describe(err)
	}
	c.debug(ctx, "nvue revision detached", f)
}

func revisionPath(rev string) string { return "/revision/" + url.PathEscape(rev) }

// applyRevision asks NVUE to apply rev, answering its prompt. When the answer is lost (the
// connection dropped or the request timed out) NVUE may or may not have taken the apply, so
// the revision's state decides: still pending means it never did, and the apply is sent again
// (up to Retries times: a pending revision applies whole or not at all, so a second apply
// cannot half-apply anything); any other state means it did, and wait follows it. A revision
// still pending at the end was never applied. unapplied reports an error after which the
// revision is known not to apply (NVUE answered the apply with an error, or the revision is
// still pending); a revision whose state could not be read may still apply.
func (c *Client) applyRevision(ctx context.Context, rev string) (unapplied bool, err error) {
	apply := map[string]any{"state": "apply", "auto-prompt": map[string]string{"ays": "ays_yes"}}
	for attempt := 1; ; attempt++ {
		_, err := c.do(ctx, http.MethodPatch, revisionPath(rev), nil, apply)
		var h *HTTPError
		if err == nil || errors.As(err, &h) || c.err != nil || ctx.Err() != nil {
			if err != nil {
				e := c.wrap("apply revision", attempt, err)
				e.Revision = rev
				return h != nil, e
			}
			return false, nil
		}
		c.debug(ctx, "nvue apply unanswered", map[string]any{"revision": rev, "attempt": attempt, "error": err.Error()})
		body, serr := c.read(ctx, "poll revision", revisionPath(rev), nil)
		var s revisionState
		var se *Error
		if errors.As(serr, &se) && se.Err != nil {
			serr = se.Err // the device and address are said once, below
		} else if serr == nil {
			s, serr = parseRevision(rev, body)
		}
		switch {
		case serr != nil:
			return false, &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "apply revision", Attempts: attempt, Revision: rev,
				Err: fmt.Errorf("%w; then its state could not be read (%s), so it may still apply: check `nv config history` on the switch", err, describe(serr))}
		case s.State != "pending":
			return false, nil // NVUE took the apply: wait follows it
		case attempt > c.cfg.Retries:
			return true, &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "apply revision", Attempts: attempt, Revision: rev,
				Err: fmt.Errorf("%w; the revision is still pending, nothing applied (it is detached)", err)}
		}
	}
}

// createRevision posts a new revision and returns its id: the one key of NVUE's answer
// ({"2": {"state": "pending", ...}}), as NVIDIA's own clients read it.
func (c *Client) createRevision(ctx context.Context) (string, error) {
	body, err := c.do(ctx, http.MethodPost, "/revision", nil, nil)
	if err != nil {
		return "", err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || len(m) != 1 {
		return "", fmt.Errorf("unexpected answer to creating a revision: %.200s", body)
	}
	for id := range m {
		return id, nil
	}
	return "", nil
}

// revisionState is NVUE's view of a revision: GET /nvue_v1/revision/<id>.
type revisionState struct {
	State      string `json:"state"`
	Transition struct {
		Issue    map[string]issueJSON `json:"issue"`
		Progress string               `json:"progress"`
	} `json:"transition"`
}

type issueJSON struct {
	Code string `json:"code"`
	Data struct {
		Location string `json:"location"`
		Reason   string `json:"reason"`
	} `json:"data"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// States after which a revision will not change by itself (GPN's NT_APPLIED and NT_FAIL, the
// groupings of a production NVUE client); every other state is still on its way.
var (
	appliedStates = []string{"applied", "applied_and_saved", "auto_save", "saved"}
	failedStates  = []string{"apply_error", "apply_fail", "ays_fail", "confirm_fail", "invalid", "ready_error", "verify_error"}
)

func applied(state string) bool { return slices.Contains(appliedStates, state) }

// wait polls the revision until it is applied or has failed. NVUE applies one revision at a
// time: a revision waiting for another stays in "apply" meanwhile.
func (c *Client) wait(ctx context.Context, rev string) (string, []Issue, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.ApplyTimeout)
	defer cancel()
	delay := 50 * time.Millisecond
	state := ""
	for {
		body, err := c.do(ctx, http.MethodGet, revisionPath(rev), nil, nil)
		if err == nil {
			var s revisionState
			if s, err = parseRevision(rev, body); err == nil {
				state = s.State
				if applied(s.State) || slices.Contains(failedStates, s.State) {
					return s.State, s.issues(), nil
				}
			}
		}
		if err != nil && !transient(err) {
			e := c.wrap("poll revision", 1, err)
			e.Revision = rev
			return "", nil, e
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return "", nil, &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "apply revision", Revision: rev, State: state,
				Err: fmt.Errorf("the revision did not finish applying (state %q) before the timeout; it may still apply: check `nv config history` on the switch", state)}
		}
		delay = min(2*delay, time.Second)
	}
}

// parseRevision reads a revision's state; NVUE's answer is the bare object, or (in one of
// NVIDIA's examples) the object under the revision's id.
func parseRevision(rev string, body []byte) (revisionState, error) {
	var s revisionState
	if err := json.Unmarshal(body, &s); err == nil && s.State != "" {
		return s, nil
	}
	var wrapped map[string]revisionState
	if err := json.Unmarshal(body, &wrapped); err == nil && wrapped[rev].State != "" {
		return wrapped[rev], nil
	}
	return s, fmt.Errorf("unexpected revision state: %.200s", body)
}

func (s revisionState) issues() []Issue {
	var out []Issue
	for _, k := range slices.Sorted(maps.Keys(s.Transition.Issue)) {
		i := s.Transition.Issue[k]
		out = append(out, Issue{Code: i.Code, Message: i.Message, Severity: i.Severity, Location: i.Data.Location, Reason: i.Data.Reason})
	}
	if len(out) == 0 && s.Transition.Progress != "" {
		out = append(out, Issue{Message: s.Transition.Progress})
	}
	return out
}

// do sends one request and returns the body of a 2xx answer.
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body any) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	// path comes escaped element by element (a revision id such as changeset/admin/7 is one
	// element, its slashes %2F): keep that form instead of escaping it again.
	raw := BasePath + path
	unescaped, err := url.PathUnescape(raw)
	if err != nil {
		return nil, fmt.Errorf("NVUE path %q: %w", path, err)
	}
	u := url.URL{Scheme: "https", Host: c.cfg.Address, Path: unescaped, RawPath: raw, RawQuery: q.Encode()}
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(c.cfg.Username, c.cfg.Password)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	c.debug(ctx, "nvue request", map[string]any{"method": method, "path": path, "status": resp.StatusCode,
		"ms": time.Since(start).Milliseconds()})
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, httpError(resp.StatusCode, out)
	}
	return out, nil
}

func (c *Client) debug(ctx context.Context, msg string, fields map[string]any) {
	if c.cfg.Logger != nil {
		f := map[string]any{"device": c.cfg.Device, "address": c.cfg.Address}
		maps.Copy(f, fields)
		c.cfg.Logger.Debug(ctx, msg, f)
	}
}
