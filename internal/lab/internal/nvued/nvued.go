// Package nvued imitates the NVUE REST API of an NVIDIA Cumulus Linux 5.x switch (nvued behind
// nginx on https://<switch>:8765/nvue_v1) for the lab: basic authentication, GETs of the
// applied (or a revision's, or operational) configuration, the revision workflow (create,
// stage with PATCH and DELETE, apply with NVUE's prompt answered, poll) and the QoS subtree's
// validation. internal/lab/cumulus-switch.md cites the source of each behaviour and marks what
// is assumed. It serves HTTP; the lab wraps it in TLS with its CA.
package nvued

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options describe one switch.
type Options struct {
	Hostname string
	Ports    []string // swp1, swp2, ...
	Username string
	Password string
	// Latency is added before every answer, to model a remote switch.
	Latency time.Duration
	// ApplyTime is how long an apply takes before the revision reaches its final state (NVUE
	// applies asynchronously; clients poll). 0 means 20ms.
	ApplyTime time.Duration
	// Clock drives the counters; nil means time.Now.
	Clock func() time.Time
	// Neighbors returns what each port hears over LLDP now (the lab's cabling), by local port;
	// nil hears nothing.
	Neighbors func() map[string]Neighbor
}

// Neighbor is what a port hears from its LLDP peer.
type Neighbor struct {
	SystemName, ChassisID, PortName, PortDescription, PortType string
}

// Switch is one simulated NVUE switch. Safe for concurrent use.
type Switch struct {
	o Options

	mu      sync.Mutex
	applied map[string]any // the user's configuration: what `rev=applied&filled=false` shows
	revs    map[string]*revision
	order   []string
	next    int
	reject  string // a fault: the next applies fail config_invalid with this reason
	// rejectOnce is FaultReject's refusal: the next revision to apply fails with it.
	rejectOnce *problem
	applyMu    sync.Mutex // NVUE applies one revision at a time
	boot       time.Time  // the counters count from here
	storms     map[string]*storm
}

type revision struct {
	state    string
	progress string
	issues   []issue
	ops      []op
}

type op struct {
	method string
	path   []string
	body   any
}

type issue struct {
	Code     string         `json:"code"`
	Data     map[string]any `json:"data"`
	Message  string         `json:"message"`
	Severity string         `json:"severity"`
}

// New returns a switch whose applied configuration is the factory one with RoCE enabled in
// lossless mode (`nv set qos roce`, the first step of NVIDIA's RoCE guide) and its ports and
// hostname configured.
func New(o Options) *Switch {
	if o.ApplyTime <= 0 {
		o.ApplyTime = 20 * time.Millisecond
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	iface := map[string]any{}
	for _, p := range o.Ports {
		iface[p] = map[string]any{"type": "swp"}
	}
	s := &Switch{o: o, revs: map[string]*revision{}, next: 1, boot: o.Clock(), storms: map[string]*storm{}}
	s.applied = map[string]any{
		"qos":       map[string]any{"roce": map[string]any{"enable": "on", "mode": "lossless"}},
		"interface": iface,
		"system":    map[string]any{"hostname": o.Hostname},
	}
	// Revision 1 is the one the applied configuration came from, as on a switch that has
	// been configured once.
	s.revs["1"] = &revision{state: "applied"}
	s.order = append(s.order, "1")
	s.next = 2
	return s
}

// Reject makes every later apply fail with NVUE's config_invalid issue and reason (a fault of
// `rocelab fault`); "" ends it.
func (s *Switch) Reject(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject = reason
}

// RejectNext makes the next revision to apply (the next to reach its turn) fail as invalid with
// one config_invalid issue at location, for reason; the revisions after it apply as usual (a
// one-shot fault of `rocelab fault`).
func (s *Switch) RejectNext(location, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejectOnce = &problem{location, reason}
}

// Revisions returns each revision's state by id (tests: what a client left behind).
func (s *Switch) Revisions() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.revs))
	for id, rv := range s.revs {
		out[id] = rv.state
	}
	return out
}

// Authorized says whether r carries the switch's credentials (HTTP basic authentication).
func (s *Switch) Authorized(r *http.Request) bool {
	user, pass, ok := r.BasicAuth()
	return ok && subtle.ConstantTimeCompare([]byte(user), []byte(s.o.Username)) == 1 &&
		subtle.ConstantTimeCompare([]byte(pass), []byte(s.o.Password)) == 1
}

// IsApply says whether r asks to apply a revision (PATCH /nvue_v1/revision/<id>): the one
// request that changes the applied configuration.
func IsApply(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, "/nvue_v1")
	elems := split(rest)
	return ok && r.Method == http.MethodPatch && len(elems) == 2 && elems[0] == "revision"
}

// Applied returns a copy of the applied configuration (tests, inventory).
func (s *Switch) Applied() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneTree(s.applied)
}

// ServeHTTP answers one API request.
func (s *Switch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.o.Latency > 0 {
		time.Sleep(s.o.Latency)
	}
	if !s.Authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="NVUE"`)
		fail(w, http.StatusUnauthorized, "Unauthorized", "Authentication failed.")
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/nvue_v1")
	if !ok {
		fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
		return
	}
	elems := split(rest)
	q := r.URL.Query()
	switch {
	case len(elems) >= 1 && elems[0] == "revision":
		s.revision(w, r, elems[1:])
	case r.Method == http.MethodGet:
		s.get(w, elems, q)
	case r.Method == http.MethodPatch || r.Method == http.MethodDelete:
		s.stage(w, r, elems, q.Get("rev"))
	default:
		methodNotAllowed(w)
	}
}

func split(p string) []string {
	var out []string
	for _, e := range strings.Split(p, "/") {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// get answers GET <path>?rev=...: applied, a revision id (its staged configuration), or
// operational (the default; the lab's operational state is its applied configuration).
func (s *Switch) get(w http.ResponseWriter, elems []string, q url.Values) {
	if len(elems) >= countersPathDepth && elems[0] == "interface" && elems[2] == "counters" && elems[3] == "qos" {
		s.counters(w, elems)
		return
	}
	s.mu.Lock()
	staged := cloneTree(s.applied)
	rev := q.Get("rev")
	if rev == "" || rev == "operational" {
		s.operational(staged)
	}
	if rev != "" && rev != "applied" && rev != "operational" && rev != "startup" {
		r, ok := s.revs[rev]
		if !ok {
			s.mu.Unlock()
			fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
			return
		}
		for _, o := range r.ops {
			if err := o.apply(staged); err != nil {
				break
			}
		}
	}
	s.mu.Unlock()
	var tree any = staged
	for _, e := range elems {
		m, ok := tree.(map[string]any)
		if !ok {
			tree = nil
			break
		}
		tree = m[e]
	}
	if inc := q["include"]; len(inc) > 0 && tree != nil {
		tree = included(tree, patterns(inc))
	}
	if tree == nil {
		// An object the configuration does not hold yet is empty, not missing, when its
		// parent is a known container; the lab cannot tell, so answer an empty object.
		tree = map[string]any{}
	}
	reply(w, tree)
}

// patterns splits include parameters ("/*/counters/qos") into their elements.
func patterns(include []string) [][]string {
	out := make([][]string, 0, len(include))
	for _, p := range include {
		out = append(out, split(p))
	}
	return out
}

// included keeps of v the branches the patterns reach, each whole below the pattern's end; a
// "*" element matches every key of its level. nil when none is reached. (The include
// parameter of NVUE's GETs, as NVIDIA's own clients use it: GET /interface with include
// /*/lldp/neighbor answers {"swp1": {"lldp": {"neighbor": ...}}, ...}.)
func included(v any, pats [][]string) any {
	for _, p := range pats {
		if len(p) == 0 {
			return v
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]any{}
	for k, child := range m {
		var sub [][]string
		for _, p := range pats {
			if p[0] == "*" || p[0] == k {
				sub = append(sub, p[1:])
			}
		}
		if len(sub) == 0 {
			continue
		}
		if c := included(child, sub); c != nil {
			out[k] = c
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// operational adds to the applied configuration what only operational state holds: every port
// (NVUE shows interfaces that exist, configured or not), each port's LLDP neighbours and QoS
// counters, and the system's build, hostname and uptime. s.mu is held.
func (s *Switch) operational(tree map[string]any) {
	ifs, _ := tree["interface"].(map[string]any)
	if ifs == nil {
		ifs = map[string]any{}
		tree["interface"] = ifs
	}
	var heard map[string]Neighbor
	if s.o.Neighbors != nil {
		heard = s.o.Neighbors()
	}
	up := int64(s.o.Clock().Sub(s.boot).Seconds())
	for _, port := range s.o.Ports {
		i, _ := ifs[port].(map[string]any)
		if i == nil {
			i = map[string]any{"type": "swp"}
			ifs[port] = i
		}
		lldp := map[string]any{"dcbx-ets-config-tlv": "off", "dcbx-ets-recomm-tlv": "off", "dcbx-pfc-tlv": "off"}
		if n, ok := heard[port]; ok {
			lldp["neighbor"] = map[string]any{n.SystemName: map[string]any{
				"age":     strconv.FormatInt(up, 10),
				"chassis": map[string]any{"chassis-id": n.ChassisID, "system-name": n.SystemName},
				"port":    map[string]any{"name": n.PortName, "description": n.PortDescription, "type": n.PortType, "ttl": 120},
			}}
		}
		i["lldp"] = lldp
		// The port's counters are a branch of its operational tree, as their own path
		// (interface/<swp>/counters/qos) makes them.
		i["counters"] = map[string]any{"qos": s.qosCounters(port)}
	}
	sys, _ := tree["system"].(map[string]any)
	if sys == nil {
		sys = map[string]any{}
		tree["system"] = sys
	}
	sys["build"], sys["timezone"], sys["uptime"] = "Cumulus Linux 5.12.0", "Etc/UTC", up
}

// counters answers GET /interface/<swp>/counters/qos[/<child>[/<key>]] (operational state).
func (s *Switch) counters(w http.ResponseWriter, elems []string) {
	s.mu.Lock()
	if !contains(s.o.Ports, elems[1]) {
		s.mu.Unlock()
		fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
		return
	}
	var v any = s.qosCounters(elems[1])
	s.mu.Unlock()
	for _, e := range elems[countersPathDepth:] {
		m, ok := v.(map[string]any)
		if !ok || m[e] == nil {
			fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
			return
		}
		v = m[e]
	}
	reply(w, v)
}

// stage records a PATCH or DELETE into a pending revision after checking it against the
// schema.
func (s *Switch) stage(w http.ResponseWriter, r *http.Request, elems []string, rev string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rv, ok := s.revs[rev]
	switch {
	case rev == "":
		// connexion's answer to a required query parameter that is missing
		// (cumulus-switch.md, "Error answers").
		fail(w, http.StatusBadRequest, "Bad Request", "Missing query parameter 'rev'")
		return
	case !ok:
		fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
		return
	case rv.state != "pending":
		fail(w, http.StatusBadRequest, "Bad Request", fmt.Sprintf("The branch must be in the pending state; revision %s is %s.", rev, rv.state))
		return
	}
	o := op{method: r.Method, path: elems}
	if r.Method == http.MethodPatch {
		var body any
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20))
		dec.UseNumber()
		if err := dec.Decode(&body); err != nil {
			badJSON(w)
			return
		}
		if msg := checkPatch(elems, body); msg != "" {
			fail(w, http.StatusBadRequest, "Bad Request", msg)
			return
		}
		o.body = body
	}
	staged := cloneTree(s.applied)
	for _, prev := range rv.ops {
		_ = prev.apply(staged)
	}
	if err := o.apply(staged); err != nil {
		fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
		return
	}
	rv.ops = append(rv.ops, o)
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	// Cumulus Linux 5.10 and later answer a PATCH with the change it made.
	delta := o.body
	for i := len(elems) - 1; i >= 0; i-- {
		delta = map[string]any{elems[i]: delta}
	}
	reply(w, delta)
}

// revision answers /revision: POST creates one, GET lists them or shows one, PATCH applies
// one.
func (s *Switch) revision(w http.ResponseWriter, r *http.Request, elems []string) {
	switch {
	case len(elems) == 0 && r.Method == http.MethodPost:
		s.mu.Lock()
		id := strconv.Itoa(s.next)
		s.next++
		s.revs[id] = &revision{state: "pending"}
		s.order = append(s.order, id)
		s.mu.Unlock()
		reply(w, map[string]any{id: stateJSON("pending", "", nil)})
	case len(elems) == 0 && r.Method == http.MethodGet:
		s.mu.Lock()
		out := map[string]any{}
		for id, rv := range s.revs {
			out[id] = stateJSON(rv.state, rv.progress, rv.issues)
		}
		out["applied"] = stateJSON("applied", "", nil)
		s.mu.Unlock()
		reply(w, out)
	case len(elems) == 1 && r.Method == http.MethodGet:
		s.mu.Lock()
		rv, ok := s.revs[elems[0]]
		var body map[string]any
		if ok {
			body = stateJSON(rv.state, rv.progress, rv.issues)
		}
		s.mu.Unlock()
		if !ok {
			fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
			return
		}
		reply(w, body)
	case len(elems) == 1 && r.Method == http.MethodPatch:
		s.apply(w, r, elems[0])
	case len(elems) == 1 && r.Method == http.MethodDelete:
		s.detach(w, elems[0])
	default:
		methodNotAllowed(w)
	}
}

// The states in which the lab leaves a revision that failed.
var failedStates = []string{"invalid", "ays_fail", "apply_fail"}

// detach answers DELETE /nvue_v1/revision/<id>, the REST form of `nv config detach` (NVIDIA's
// NVUE reference for its NVOS switches): a revision that is not applying and was not applied is
// dropped (204, as NVUE's other DELETEs answer); one applying or applied stays (405 with the
// answer of a method a path does not take: assumed, cumulus-switch.md "The revision workflow").
func (s *Switch) detach(w http.ResponseWriter, id string) {
	s.mu.Lock()
	rv, ok := s.revs[id]
	done := ok && (rv.state == "pending" || slices.Contains(failedStates, rv.state))
	if done {
		delete(s.revs, id)
		s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
	}
	s.mu.Unlock()
	switch {
	case !ok:
		fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
	case !done:
		methodNotAllowed(w)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func stateJSON(state, progress string, issues []issue) map[string]any {
	is := map[string]any{}
	for i, x := range issues {
		is[strconv.Itoa(i)] = x
	}
	return map[string]any{"state": state, "transition": map[string]any{"issue": is, "progress": progress}}
}

// apply starts applying a pending revision; the answer comes at once with state "apply" and
// the revision reaches its final state in the background.
func (s *Switch) apply(w http.ResponseWriter, r *http.Request, id string) {
	var req struct {
		State      string            `json:"state"`
		AutoPrompt map[string]string `json:"auto-prompt"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		badJSON(w)
		return
	}
	s.mu.Lock()
	rv, ok := s.revs[id]
	switch {
	case !ok:
		s.mu.Unlock()
		fail(w, http.StatusNotFound, "Not Found", "The requested item does not exist.")
		return
	case req.State != "apply":
		// NVUE takes other states (pending, confirm_yes, save, ...); the lab applies only:
		// its own refusal, assumed (cumulus-switch.md, "Error answers").
		s.mu.Unlock()
		fail(w, http.StatusBadRequest, "Bad Request", fmt.Sprintf("'%s' is not one of the states this lab applies ('apply')", req.State))
		return
	case rv.state != "pending":
		s.mu.Unlock()
		fail(w, http.StatusBadRequest, "Bad Request", fmt.Sprintf("The branch must be in the pending state; revision %s is %s.", id, rv.state))
		return
	}
	rv.state = "apply"
	answered := req.AutoPrompt["ays"] == "ays_yes"
	s.mu.Unlock()
	reply(w, stateJSON("apply", "", nil))
	go s.finish(id, answered)
}

// finish applies the revision's changes to the configuration applied now (NVUE applies one
// revision at a time; a revision waits in "apply" for the one before it).
func (s *Switch) finish(id string, answered bool) {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	time.Sleep(s.o.ApplyTime)
	s.mu.Lock()
	defer s.mu.Unlock()
	rv := s.revs[id]
	if !answered {
		// NVIDIA's NVUE API page: an apply whose prompt nobody answers.
		rv.state, rv.progress = "ays_fail", "Aborted apply after warnings"
		rv.issues = []issue{{Code: "client_timeout", Data: map[string]any{}, Message: "Timeout while waiting for client response", Severity: "error"}}
		return
	}
	next := cloneTree(s.applied)
	for _, o := range rv.ops {
		if err := o.apply(next); err != nil {
			// A staged DELETE whose target an earlier revision removed. apply_fail is one of
			// NVUE's failed states; the issue's code, message and progress are the lab's
			// (cumulus-switch.md, "Error answers").
			rv.state, rv.progress = "apply_fail", "Apply failed"
			rv.issues = []issue{{Code: "apply_fail", Data: map[string]any{}, Message: err.Error(), Severity: "error"}}
			return
		}
	}
	invalid := validate(next, s.o.Ports)
	if s.reject != "" {
		invalid = append(invalid, problem{"qos", s.reject})
	}
	if s.rejectOnce != nil {
		invalid = append(invalid, *s.rejectOnce)
		s.rejectOnce = nil
	}
	if len(invalid) > 0 {
		rv.state, rv.progress = "invalid", "Invalid config"
		for _, p := range invalid {
			rv.issues = append(rv.issues, issue{Code: "config_invalid", Data: map[string]any{"location": p.location, "reason": p.reason + "\n"},
				Message: fmt.Sprintf("Config invalid at %s: %s\n", p.location, p.reason), Severity: "error"})
		}
		return
	}
	s.applied = next
	rv.state = "applied"
}

// apply changes tree by one staged operation.
func (o op) apply(tree map[string]any) error {
	if len(o.path) == 0 {
		if o.method == http.MethodDelete {
			clear(tree)
			return nil
		}
		m, ok := o.body.(map[string]any)
		if !ok {
			return fmt.Errorf("the root takes an object")
		}
		merge(tree, m)
		return nil
	}
	parent := tree
	for _, e := range o.path[:len(o.path)-1] {
		next, ok := parent[e].(map[string]any)
		if !ok {
			if o.method == http.MethodDelete {
				return fmt.Errorf("no %s", e)
			}
			next = map[string]any{}
			parent[e] = next
		}
		parent = next
	}
	last := o.path[len(o.path)-1]
	if o.method == http.MethodDelete {
		if _, ok := parent[last]; !ok {
			return fmt.Errorf("no %s", last)
		}
		delete(parent, last)
		return nil
	}
	if m, ok := o.body.(map[string]any); ok {
		dst, ok := parent[last].(map[string]any)
		if !ok {
			dst = map[string]any{}
			parent[last] = dst
		}
		merge(dst, m)
		return nil
	}
	if o.body == nil {
		delete(parent, last)
		return nil
	}
	parent[last] = clone(o.body)
	return nil
}

// merge is NVUE's PATCH: objects merge key by key, a null unsets the key.
func merge(dst, src map[string]any) {
	for k, v := range src {
		switch v := v.(type) {
		case nil:
			delete(dst, k)
		case map[string]any:
			d, ok := dst[k].(map[string]any)
			if !ok {
				d = map[string]any{}
				dst[k] = d
			}
			merge(d, v)
		default:
			dst[k] = v
		}
	}
}

// cloneTree copies a configuration tree.
func cloneTree(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = clone(v)
	}
	return out
}

func clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out[k] = clone(v[k])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = clone(v[i])
		}
		return out
	}
	return v
}

// reply answers 200 with body as JSON.
func reply(w http.ResponseWriter, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(body)
}

// fail answers an error the way NVUE's API does: a problem body with status, title and detail
// (the keys NVIDIA's NVOS test client requires) and type, laid out and typed as connexion's
// problem() makes it (cumulus-switch.md, "Error answers").
func fail(w http.ResponseWriter, status int, title, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "about:blank", "title": title, "detail": detail, "status": status})
}

// methodNotAllowed is werkzeug's MethodNotAllowed as connexion answers it: its name as title,
// its description as detail (cumulus-switch.md, "Error answers").
func methodNotAllowed(w http.ResponseWriter) {
	fail(w, http.StatusMethodNotAllowed, "Method Not Allowed", "The method is not allowed for the requested URL.")
}

// badJSON is connexion's answer to a JSON request body that does not parse
// (cumulus-switch.md, "Error answers").
func badJSON(w http.ResponseWriter) {
	fail(w, http.StatusBadRequest, "Bad Request", "Request body is not valid JSON")
}
