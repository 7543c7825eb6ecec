package sonic

import (
	"context"
	"encoding/json"
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
		SupportedEncodings: []gpb.Encoding{gpb.Encoding_JSON_IETF, gpb.Encoding_JSON},
		GNMIVersion:        "0.7.0",
	}, nil
}

// Get answers each path with one notification holding the subtree there as JSON: the whole
// database ({table: {key: {field: value}}}), a table ({key: {field: value}}), a key
// ({field: value}) or a field ("value"). A path with nothing there is codes.NotFound. Only
// GetRequests of type ALL are answered: sonic-gnmi's Get (gnmi_server/server.go) refuses every
// other type first, whatever the paths, with `unsupported request type: CONFIG` (Unimplemented).
func (s *sonicService) Get(_ context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	if req.GetType() != gpb.GetRequest_ALL {
		return nil, status.Errorf(codes.Unimplemented, "unsupported request type: %s", gpb.GetRequest_DataType_name[int32(req.GetType())])
	}
	if isTargetDB(req.GetPrefix().GetTarget()) {
		return s.getTargetDB(req) // countersdb.go
	}
	enc := req.GetEncoding()
	if err := checkSONiCEncoding(enc); err != nil {
		return nil, err
	}
	paths := gnmiswitch.GetPaths(req)
	if err := originConflict(req.GetPrefix(), paths); err != nil {
		return nil, err
	}
	bodies, err := s.readAll(req.GetPrefix(), paths, false)
	if err != nil {
		return nil, err
	}
	resp := &gpb.GetResponse{}
	for i, p := range paths {
		resp.Notification = append(resp.Notification, &gpb.Notification{
			Timestamp: time.Now().UnixNano(),
			Prefix:    req.GetPrefix(),
			Update:    []*gpb.Update{{Path: p, Val: jsonValue(enc, bodies[i])}},
		})
	}
	return resp, nil
}

// readAll renders every path from one snapshot of the database. With skipMissing, a path with
// nothing there gets a nil body instead of failing the call.
func (s *sonicService) readAll(prefix *gpb.Path, paths []*gpb.Path, skipMissing bool) ([][]byte, error) {
	s.sw.mu.RLock()
	defer s.sw.mu.RUnlock()
	out := make([][]byte, len(paths))
	for i, p := range paths {
		a, err := sonicAddr(prefix, p, false)
		if err != nil {
			return nil, err
		}
		if a.extra != nil {
			return nil, status.Error(codes.NotFound, a.tooDeep()) // getDbtablePath, wrapped by server.go
		}
		db := s.sw.db
		if a.db == "APPL_DB" {
			db = s.sw.applDB()
		}
		node, err := db.read(a)
		if skipMissing && status.Code(err) == codes.NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if out[i], err = json.Marshal(node); err != nil {
			return nil, status.Errorf(codes.Internal, "render %s: %v", a, err)
		}
	}
	return out, nil
}

// checkSONiCEncoding: gnmi_server/server.go checkEncodingAndModel takes JSON, JSON_IETF and
// PROTO (`unsupported encoding: <name>` otherwise, Unimplemented); PROTO then needs proto bytes
// CONFIG_DB does not have, refused here with the lab's own text (assumed).
func checkSONiCEncoding(enc gpb.Encoding) error {
	switch enc {
	case gpb.Encoding_JSON_IETF, gpb.Encoding_JSON:
		return nil
	case gpb.Encoding_PROTO:
		return status.Errorf(codes.Unimplemented, "encoding %s is not supported: use JSON_IETF", enc)
	}
	return status.Errorf(codes.Unimplemented, "unsupported encoding: %s", enc)
}

func jsonValue(enc gpb.Encoding, body []byte) *gpb.TypedValue {
	if enc == gpb.Encoding_JSON {
		return &gpb.TypedValue{Value: &gpb.TypedValue_JsonVal{JsonVal: body}}
	}
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: body}}
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
			return nil, "", setError(a.tooDeep()) // JsonClient Add (a Replace's Remove: assumed the same)
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

// Subscribe serves ONCE subscriptions: one notification per subscribed path that holds data
// (its subtree as JSON, like Get), then sync_response, then the end of the stream.
func (s *sonicService) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	req, err := stream.Recv()
	if err != nil {
		return err
	}
	sub := req.GetSubscribe()
	switch {
	case sub == nil:
		return status.Error(codes.InvalidArgument, "the first SubscribeRequest must carry a SubscriptionList")
	case sub.GetMode() != gpb.SubscriptionList_ONCE:
		return status.Errorf(codes.Unimplemented, "subscription mode %s is not supported: use ONCE", sub.GetMode())
	}
	if err := checkSONiCEncoding(sub.GetEncoding()); err != nil {
		return err
	}
	var paths []*gpb.Path
	if !sub.GetUpdatesOnly() {
		for _, x := range sub.GetSubscription() {
			paths = append(paths, x.GetPath())
		}
	}
	bodies, err := s.readAll(sub.GetPrefix(), paths, true)
	if err != nil {
		return err
	}
	for i, p := range paths {
		if bodies[i] == nil {
			continue
		}
		n := &gpb.Notification{
			Timestamp: time.Now().UnixNano(),
			Prefix:    sub.GetPrefix(),
			Update:    []*gpb.Update{{Path: p, Val: jsonValue(sub.GetEncoding(), bodies[i])}},
		}
		if err := stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_Update{Update: n}}); err != nil {
			return err
		}
	}
	return stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_SyncResponse{SyncResponse: true}})
}
