package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sonicService is the gNMI service of a SONiCSwitch.
type sonicService struct {
	gpb.UnimplementedGNMIServer
	sw *SONiCSwitch
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
// ({field: value}) or a field ("value"). A path with nothing there is codes.NotFound. The
// GetRequest type is accepted but changes nothing: CONFIG_DB is all configuration.
func (s *sonicService) Get(_ context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	enc := req.GetEncoding()
	if err := checkSONiCEncoding(enc); err != nil {
		return nil, err
	}
	if err := checkDataType(req.GetType()); err != nil {
		return nil, err
	}
	paths := req.GetPath()
	if len(paths) == 0 {
		paths = []*gpb.Path{{}} // the prefix alone names the data
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
		a, err := sonicAddr(prefix, p)
		if err != nil {
			return nil, err
		}
		node, err := s.sw.db.read(a)
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

func checkSONiCEncoding(enc gpb.Encoding) error {
	if enc != gpb.Encoding_JSON_IETF && enc != gpb.Encoding_JSON {
		return status.Errorf(codes.Unimplemented, "encoding %s is not supported: use JSON_IETF", enc)
	}
	return nil
}

func jsonValue(enc gpb.Encoding, body []byte) *gpb.TypedValue {
	if enc == gpb.Encoding_JSON {
		return &gpb.TypedValue{Value: &gpb.TypedValue_JsonVal{JsonVal: body}}
	}
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: body}}
}

// Set applies the deletes, replaces and updates in that order (gNMI specification 3.4.3) to a
// copy of CONFIG_DB, validates the copy whole and only then makes it the database: any error
// leaves the database as it was.
func (s *sonicService) Set(_ context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	if err := s.sw.takeFailure(); err != nil {
		return nil, err
	}
	if len(req.GetUnionReplace()) > 0 {
		return nil, status.Error(codes.Unimplemented, "union_replace is not supported")
	}
	type op struct {
		a               dbAddr
		v               any
		remove, replace bool
	}
	var ops []op
	for _, p := range req.GetDelete() {
		a, err := sonicAddr(req.GetPrefix(), p)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op{a: a, remove: true})
	}
	for i, u := range append(append([]*gpb.Update{}, req.GetReplace()...), req.GetUpdate()...) {
		a, err := sonicAddr(req.GetPrefix(), u.GetPath())
		if err != nil {
			return nil, err
		}
		v, err := decodeValue(a, u.GetVal())
		if err != nil {
			return nil, err
		}
		ops = append(ops, op{a: a, v: v, replace: i < len(req.GetReplace())})
	}

	s.sw.mu.Lock()
	defer s.sw.mu.Unlock()
	next := s.sw.db.clone()
	for _, o := range ops {
		if err := next.apply(o.a, o.v, o.remove, o.replace); err != nil {
			return nil, err
		}
	}
	next.prune()
	if v := validateDB(next); len(v) > 0 {
		return nil, status.Error(codes.InvalidArgument, rejection(v))
	}
	s.sw.db = next
	return setResponse(req), nil
}

// rejection is the error text of an invalid change: the first violations, each naming
// TABLE|key|field, the rule and the model it comes from.
func rejection(violations []string) string {
	const shown = 5
	msg := "CONFIG_DB validation failed, nothing was applied: " + strings.Join(violations[:min(shown, len(violations))], "; ")
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
