package sonic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/gnmiswitch"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sonicService is the gNMI service of a Switch.
type sonicService struct {
	gpb.UnimplementedGNMIServer
	sw *Switch
}

// sonicModels are the sonic-yang-models modules whose tables the switch serves, at their
// revision dates.
var sonicModels = []*gpb.ModelData{
	{Name: "sonic-dscp-tc-map", Version: "2021-04-15"},
	{Name: "sonic-dot1p-tc-map", Version: "2021-04-15"},
	{Name: "sonic-tc-queue-map", Version: "2021-04-15"},
	{Name: "sonic-tc-priority-group-map", Version: "2021-04-15"},
	{Name: "sonic-pfc-priority-queue-map", Version: "2021-04-15"},
	{Name: "sonic-pfc-priority-priority-group-map", Version: "2021-04-15"},
	{Name: "sonic-tc-dscp-map", Version: "2021-04-15"},
	{Name: "sonic-tc-dot1p-map", Version: "2021-04-15"},
	{Name: "sonic-scheduler", Version: "2021-04-01"},
	{Name: "sonic-wred-profile", Version: "2026-06-23"},
	{Name: "sonic-queue", Version: "2021-04-01"},
	{Name: "sonic-port-qos-map", Version: "2019-05-15"},
	{Name: "sonic-buffer-pool", Version: "2021-07-01"},
	{Name: "sonic-buffer-profile", Version: "2021-07-01"},
	{Name: "sonic-buffer-pg", Version: "2021-07-01"},
	{Name: "sonic-buffer-queue", Version: "2021-07-01"},
	{Name: "sonic-cable-length", Version: "2021-11-11"},
	{Name: "sonic-pfcwd", Version: "2021-07-01"},
	{Name: "sonic-port", Version: "2019-07-01"},
	{Name: "sonic-device_metadata", Version: "2021-02-27"},
}

func (s *sonicService) Capabilities(context.Context, *gpb.CapabilityRequest) (*gpb.CapabilityResponse, error) {
	models := make([]*gpb.ModelData, len(sonicModels))
	for i, m := range sonicModels {
		models[i] = &gpb.ModelData{Name: m.GetName(), Organization: "SONiC", Version: m.GetVersion()}
	}
	return &gpb.CapabilityResponse{
		SupportedModels:    models,
		SupportedEncodings: sonicEncodings,
		GNMIVersion:        "0.7.0",
	}, nil
}

// Get answers each path with one notification holding the subtree there (sonicValue): the
// whole database ({table: {key: {field: value}}}), a table ({key: {field: value}}), a key
// ({field: value}) or a field ("value"). A path with nothing there is codes.NotFound. Only
// GetRequests of type ALL are answered: sonic-gnmi's Get (gnmi_server/server.go) refuses every
// other type first, whatever the paths, with `unsupported request type: CONFIG` (Unimplemented).
func (s *sonicService) Get(_ context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	if req.GetType() != gpb.GetRequest_ALL {
		return nil, status.Errorf(codes.Unimplemented, "unsupported request type: %s", gpb.GetRequest_DataType_name[int32(req.GetType())])
	}
	if err := checkSONiCEncoding(req.GetEncoding()); err != nil {
		return nil, err
	}
	if isTargetDB(req.GetPrefix().GetTarget()) {
		return s.getTargetDB(req) // countersdb.go
	}
	paths := gnmiswitch.GetPaths(req)
	if err := originConflict(req.GetPrefix(), paths); err != nil {
		return nil, err
	}
	vals, err := s.readAll(req.GetPrefix(), paths, req.GetEncoding())
	if err != nil {
		return nil, err
	}
	resp := &gpb.GetResponse{}
	for i, p := range paths {
		if vals[i] == nil {
			continue // sonic-gnmi renders nothing for it: no notification
		}
		resp.Notification = append(resp.Notification, &gpb.Notification{
			Timestamp: time.Now().UnixNano(),
			Prefix:    req.GetPrefix(),
			Update:    []*gpb.Update{{Path: p, Val: vals[i]}},
		})
	}
	return resp, nil
}

// readAll reads every path from one snapshot of the database, as sonic-gnmi's Get does: a
// path's value in enc (sonicValue), nil for a path it renders nothing for (errNoTableData,
// skipped quietly), NotFound for the rest (errNoEntry is `No valid entry found for path <path>`,
// except a key asked as PROTO, whose empty hash is `No proto bytes found in redis map[]`).
func (s *sonicService) readAll(prefix *gpb.Path, paths []*gpb.Path, enc gpb.Encoding) ([]*gpb.TypedValue, error) {
	s.sw.mu.RLock()
	defer s.sw.mu.RUnlock()
	out := make([]*gpb.TypedValue, len(paths))
	for i, p := range paths {
		a, node, err := s.readPath(prefix, p)
		switch {
		case errors.Is(err, errNoTableData):
			continue
		case errors.Is(err, errNoEntry) && a.depth == 2 && enc == gpb.Encoding_PROTO:
			return nil, status.Error(codes.NotFound, "No proto bytes found in redis map[]")
		case errors.Is(err, errNoEntry):
			return nil, status.Errorf(codes.NotFound, "No valid entry found for path %v", p)
		case err != nil:
			return nil, err
		}
		if out[i], err = sonicValue(enc, p, a, node); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readPath resolves p and reads what is there (configDB.read); the caller holds the lock.
func (s *sonicService) readPath(prefix, p *gpb.Path) (dbAddr, any, error) {
	a, err := sonicAddr(prefix, p, false)
	if err != nil {
		return a, nil, err
	}
	if a.extra != nil {
		return a, nil, status.Error(codes.NotFound, a.tooDeep(false)) // getDbtablePath, wrapped by server.go
	}
	db := s.sw.db
	if a.db == "APPL_DB" {
		db = s.sw.applDB()
	}
	node, err := db.read(a)
	return a, node, err
}

// sonicEncodings are gnmi_server/server.go's supportedEncodings (sonic-net/sonic-gnmi 5ec1c20b,
// server.go:67, the same on 202505 and 202511), which Capabilities lists (server.go:1313).
var sonicEncodings = []gpb.Encoding{gpb.Encoding_JSON, gpb.Encoding_JSON_IETF, gpb.Encoding_PROTO}

// checkSONiCEncoding is gnmi_server/server.go checkEncodingAndModel (5ec1c20b, server.go:925-938),
// which Get runs before it looks at the target (server.go:987-990): an encoding outside
// sonicEncodings is `unsupported encoding: <name>` (Encoding_name, empty for a number without one),
// returned as Unimplemented. Subscribe checks no encoding (client_subscribe.go:196 reads sonic-db
// as JSON_IETF whatever the request asks).
func checkSONiCEncoding(enc gpb.Encoding) error {
	if slices.Contains(sonicEncodings, enc) {
		return nil
	}
	return status.Errorf(codes.Unimplemented, "unsupported encoding: %s", gpb.Encoding_name[int32(enc)])
}

// sonicValue renders what a sonic-db path reads as sonic-gnmi's MixedDbClient does in the
// request's encoding (sonic_data_client/mixed_db_client.go at 5ec1c20b): a field is a JSON_IETF
// string whatever the encoding (tableData2TypedValue, :1119-1125). A key, a table or the whole
// database is JSON_IETF only: asked as PROTO it has no "pb" field (only proto-bytes DASH tables
// do), `No proto bytes found in redis map[...]` for a key (tableData2Msi, :1028-1033) and `No
// proto bytes found in msi map[...]` for a table or the database (msi2TypedValue, :1063-1071;
// the database's tables are pointers there, so Go prints their addresses); asked as JSON a key
// renders nothing, `No valid entry found for path <path>` (Get, :1766-1773; 202511 says `Unknown
// encoding JSON` here too), and a table or the database is `Unknown encoding JSON`
// (msi2TypedValue, :1074). server.go Get returns these as NotFound (:1064-1070).
func sonicValue(enc gpb.Encoding, p *gpb.Path, a dbAddr, node any) (*gpb.TypedValue, error) {
	if a.depth == 3 || enc == gpb.Encoding_JSON_IETF {
		body, err := json.Marshal(node)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "render %s: %v", a, err)
		}
		return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: body}}, nil
	}
	var msg string
	switch {
	case a.depth == 2 && enc == gpb.Encoding_PROTO:
		msg = fmt.Sprintf("No proto bytes found in redis %v", node)
	case a.depth == 2:
		msg = fmt.Sprintf("No valid entry found for path %v", p)
	case enc == gpb.Encoding_PROTO && a.depth == 0:
		msi := map[string]any{}
		for table, keys := range node.(configDB) { //nolint:forcetypeassert // read's result at depth 0
			msi[table] = &keys
		}
		msg = fmt.Sprintf("No proto bytes found in msi %v", msi)
	case enc == gpb.Encoding_PROTO:
		msg = fmt.Sprintf("No proto bytes found in msi %v", node)
	default:
		msg = fmt.Sprintf("Unknown encoding %v", enc)
	}
	return nil, status.Error(codes.NotFound, msg)
}

// Set applies a SetRequest as sonic-gnmi and the Generic Config Updater do (set.go): the
// deletes (one of an absent target is skipped), the replaces (a remove, which needs its target,
// then an add) and the updates (an add: a whole key or table replaced, a field set) become one
// JSON Patch, checked on a copy of the running CONFIG_DB the way GCU checks it (RFC 6902
// parents, no empty table, SONiC's YANG models) and only then written and saved. Any refusal is
// code Unknown with sonic-gnmi's text and changes nothing; the reasons GCU logs are kept for
// LastRefusal, as a switch's syslog keeps them.
func (s *sonicService) Set(_ context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	if err := s.sw.RefuseSet(req); err != nil {
		return nil, err
	}
	if err := setOrigin(req); err != nil {
		return nil, err
	}
	s.sw.mu.Lock()
	defer s.sw.mu.Unlock()
	ops, yang, err := s.sw.patchOf(req)
	if err != nil {
		s.sw.refusal = status.Convert(err).Message()
		if yang != "" {
			s.sw.refusal = yang
		}
		return nil, err
	}
	if yang != "" {
		// A value JsonClient takes but SONiC's YANG models cannot load (a number, an array).
		s.sw.refusal = yang
		return nil, gcuValidateFailure(ops, "Data Loading Failed")
	}
	if len(ops) == 0 {
		return gnmiswitch.SetResponse(req), nil // every delete skipped: no apply-patch and no save
	}
	next, err := s.sw.db.applyPatch(ops)
	if err != nil {
		s.sw.refusal = err.Error()
		return nil, gcuValidateFailure(ops, err.Error())
	}
	if v := validateDB(next); len(v) > 0 {
		s.sw.refusal = rejection(v)
		return nil, gcuValidateFailure(ops, "Data Loading Failed")
	}
	if why := fieldOperations(s.sw.db, next); why != "" {
		s.sw.refusal = why
		return nil, setError(gcuScopeFailure)
	}
	if empty := next.emptyTables(); len(empty) > 0 {
		s.sw.refusal = emptyTableText(empty)
		return nil, setError(gcuScopeFailure)
	}
	next.prune() // Redis keeps no empty hash
	before := s.sw.db
	s.sw.db = next
	s.sw.saved = next.clone() // config save -y
	s.sw.refusal = ""
	// buffermgrd reacts to the applied change after the save (buffermgr.go).
	runBufferManager(s.sw.db, before)
	s.sw.db.prune()
	return gnmiswitch.SetResponse(req), nil
}

// setOrigin is gnmi_server/server.go's choice of client for a Set: the prefix's origin, else
// the paths' origin fields, which must all agree (ParseOrigin: `Origin conflict in path`).
func setOrigin(req *gpb.SetRequest) error {
	paths := slices.Clone(req.GetDelete())
	for _, u := range append(slices.Clone(req.GetReplace()), req.GetUpdate()...) {
		paths = append(paths, u.GetPath())
	}
	return originConflict(req.GetPrefix(), paths)
}

// originConflict is ParseOrigin's refusal, which Get and Set both run when the prefix names no
// origin.
func originConflict(prefix *gpb.Path, paths []*gpb.Path) error {
	if prefix.GetOrigin() != "" {
		return nil
	}
	for _, p := range paths {
		if p.GetOrigin() != paths[0].GetOrigin() {
			return status.Error(codes.Unimplemented, "Origin conflict in path")
		}
	}
	return nil
}

// patchOf runs the request's operations against a copy of CONFIG_DB as sonic-gnmi's JsonClient
// does and returns the JSON Patch it sends to GCU: removes, replaces, adds. yang is set when a
// value passes JsonClient but not the YANG load GCU does next (why, for LastRefusal).
func (sw *Switch) patchOf(req *gpb.SetRequest) (ops []patchOp, yang string, err error) {
	work := sw.db.clone()
	for _, p := range req.GetDelete() {
		a, err := sonicAddr(req.GetPrefix(), p, true)
		if err != nil {
			return nil, "", err
		}
		if a.extra != nil {
			continue // JsonClient Remove fails on it: "Remove failed, ignore"
		}
		if a.depth == 0 {
			return nil, "", setError("Invalid db table Path []")
		}
		if work.jsonClientRemove(a) != nil {
			continue // sonic-gnmi: "Remove failed, ignore"
		}
		ops = append(ops, patchOp{op: "remove", at: a, path: pointer(a)})
	}
	for i, u := range append(append([]*gpb.Update{}, req.GetReplace()...), req.GetUpdate()...) {
		replace := i < len(req.GetReplace())
		a, err := sonicAddr(req.GetPrefix(), u.GetPath(), true)
		if err != nil {
			return nil, "", err
		}
		if a.extra != nil {
			return nil, "", setError(a.tooDeep(true)) // JsonClient Add (a Replace's Remove: assumed the same)
		}
		if a.depth == 0 {
			return nil, "", setError("Invalid db table Path []")
		}
		if replace {
			if err := work.jsonClientRemove(a); err != nil {
				return nil, "", setError(err.Error())
			}
		}
		body := u.GetVal().GetJsonIetfVal()
		op := "add"
		if replace {
			op = "replace"
		}
		if len(body) == 0 {
			return nil, "", setError("Fail to parse ") // JsonClient reads json_ietf_val only
		}
		v, err := decodeValue(a, u.GetVal())
		if err != nil {
			detail := status.Convert(err).Message()
			raw, text := jsonClientValue(a, body)
			if text != "" {
				return nil, detail, setError(text)
			}
			if yang == "" {
				yang = detail
			}
			ops = append(ops, patchOp{op: op, at: a, val: raw, path: pointer(a)})
			continue
		}
		work.jsonClientAdd(a, v)
		ops = append(ops, patchOp{op: op, at: a, val: v, path: pointer(a)})
	}
	return ops, yang, nil
}

// jsonClientValue is what sonic-gnmi's JsonClient.Add says of a value: the decoded JSON, and
// its error text for a value it refuses ("" for one it takes, whose strings GCU's YANG load
// then checks). Only json_ietf_val carries a value; any other encoding parses as empty.
func jsonClientValue(a dbAddr, body []byte) (any, string) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Sprintf("Fail to parse %v", string(body))
	}
	switch a.depth {
	case 1:
		if _, ok := v.(map[string]any); !ok {
			return v, fmt.Sprintf("Invalid table %v", v)
		}
	case 2:
		if _, ok := v.(map[string]any); !ok {
			return v, fmt.Sprintf("Invalid entry %v", v)
		}
	case 3:
		switch x := v.(type) {
		case string:
		case []any:
			for _, it := range x {
				if _, ok := it.(string); !ok {
					return v, fmt.Sprintf("Invalid field %v", v)
				}
			}
		default:
			return v, fmt.Sprintf("Invalid field %v", v)
		}
	}
	return v, ""
}

// pointer is the JSON Pointer sonic-gnmi builds: the elements after CONFIG_DB/localhost.
func pointer(a dbAddr) string {
	return "/" + strings.Join([]string{a.table, a.key, a.field}[:a.depth], "/")
}

// rejection is the error text of an invalid change: the first violations, each naming
// TABLE|key|field, the rule and the model it comes from.
func rejection(violations []string) string {
	const shown = 5
	msg := "CONFIG_DB validation failed: " + strings.Join(violations[:min(shown, len(violations))], "; ")
	if n := len(violations) - shown; n > 0 {
		msg += fmt.Sprintf("; and %d more", n)
	}
	return msg
}

// Subscribe serves ONCE subscriptions (once): one notification per subscribed path that holds
// data (its subtree as JSON_IETF, whatever encoding is asked), then sync_response, then the end
// of the stream (assumed: sonic-gnmi keeps it open until the client closes its side). Its
// refusals are gnmi_server/client_subscribe.go Run's (sonic-net/sonic-gnmi 5ec1c20b), except
// STREAM and POLL, which sonic-gnmi serves and the lab does not (sonic-switch.md, "RPCs": assumed).
func (s *sonicService) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	req, err := stream.Recv()
	if err != nil {
		return err
	}
	sub := req.GetSubscribe()
	if sub == nil {
		return status.Errorf(codes.InvalidArgument, "first message must be SubscriptionList: %q", req) // :159
	}
	if len(sub.GetSubscription()) == 0 {
		return status.Errorf(codes.NotFound, "Invalid subscription path: %v %q", "No Subscription", req) // :112, :168
	}
	var paths []*gpb.Path
	for _, x := range sub.GetSubscription() {
		paths = append(paths, x.GetPath())
	}
	if err := subscribeOrigin(sub.GetPrefix(), paths); err != nil {
		return err
	}
	for _, p := range paths { // NewMixedDbClient's checks (ParseDatabase), answered as in Get
		if _, err := sonicAddr(sub.GetPrefix(), p, false); err != nil {
			return err
		}
	}
	// Run reads the mode last, once the paths have made their client (:238-255).
	switch sub.GetMode() {
	case gpb.SubscriptionList_ONCE:
	case gpb.SubscriptionList_STREAM, gpb.SubscriptionList_POLL:
		return status.Errorf(codes.Unimplemented, "subscription mode %s is not supported: use ONCE", sub.GetMode())
	default:
		return status.Errorf(codes.InvalidArgument, "Unkown subscription mode: %q", req) //nolint:misspell // sonic-gnmi's text (:254)
	}
	updates, fatal := s.once(sub.GetPrefix(), paths)
	for _, n := range updates {
		if err := stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_Update{Update: n}}); err != nil {
			return err
		}
	}
	if fatal != "" {
		// OnceRun's putFatalMsg, which client_subscribe.go send returns and Run wraps (:259-263).
		return status.Errorf(codes.InvalidArgument, "OnceRun error: %s", fatal)
	}
	return stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_SyncResponse{SyncResponse: true}})
}

// once is mixed_db_client.go OnceRun (:1791-1837): every path in order, updates_only or not,
// as JSON_IETF; a key or field that is not there, or a table without keys, is skipped; an
// error of getDbtablePath (`Failed to find ...`, `Invalid index ...`) ends the run, after the
// updates before it, as the text of a fatal message.
func (s *sonicService) once(prefix *gpb.Path, paths []*gpb.Path) (updates []*gpb.Notification, fatal string) {
	s.sw.mu.RLock()
	defer s.sw.mu.RUnlock()
	for _, p := range paths {
		a, node, err := s.readPath(prefix, p)
		switch {
		case errors.Is(err, errNoEntry) || errors.Is(err, errNoTableData):
			continue
		case err != nil:
			return updates, status.Convert(err).Message()
		}
		v, err := sonicValue(gpb.Encoding_JSON_IETF, p, a, node)
		if err != nil {
			return updates, status.Convert(err).Message()
		}
		updates = append(updates, &gpb.Notification{
			Timestamp: time.Now().UnixNano(),
			Prefix:    prefix,
			Update:    []*gpb.Update{{Path: p, Val: v}},
		})
	}
	return updates, ""
}

// subscribeOrigin is client_subscribe.go Run's choice of client by origin (:170-205): the paths'
// origins must agree (ParseOrigin, `Origin conflict in path`, Unimplemented), and agree with the
// prefix's where both are set (`Origin conflict between prefix and paths`, InvalidArgument);
// an origin other than sonic-db and openconfig is `Unsupported origin: <origin>` (Unimplemented);
// no origin and no target is `Empty target data not supported` (Unimplemented). openconfig
// (translib) and database targets (the DB client) pass on to sonicAddr, which refuses them with
// the lab's own text (assumed: the lab serves neither by Subscribe). The lab's `sonic-db:` on the
// first element counts as the origin (sonicAddr).
func subscribeOrigin(prefix *gpb.Path, paths []*gpb.Path) error {
	o := ""
	for i, p := range paths {
		if i == 0 {
			o = p.GetOrigin()
		} else if p.GetOrigin() != o {
			return status.Error(codes.Unimplemented, "Origin conflict in path")
		}
	}
	origin := prefix.GetOrigin()
	switch {
	case origin == "":
		origin = o
	case o != "" && o != origin:
		return status.Error(codes.InvalidArgument, "Origin conflict between prefix and paths")
	}
	if elems := append(slices.Clone(prefix.GetElem()), paths[0].GetElem()...); origin == "" && len(elems) > 0 {
		if o, _, ok := strings.Cut(elems[0].GetName(), ":"); ok && o == sonicOrigin {
			origin = sonicOrigin
		}
	}
	switch {
	case origin == sonicOrigin || origin == "openconfig":
		return nil
	case origin != "":
		return status.Errorf(codes.Unimplemented, "Unsupported origin: %s", origin)
	case prefix.GetTarget() == "":
		return status.Error(codes.Unimplemented, "Empty target data not supported")
	}
	return nil
}
