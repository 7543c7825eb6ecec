package gnmiswitch

import (
	"context"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lgnmi "github.com/openconfig/lemming/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// gnmiService is what the switch registers on its gRPC server: lemming's
// datastore for Set validation and Subscribe, plus the parts a real device has
// and lemming lacks (Get, Capabilities) or must not expose (its internal
// write modes).
type gnmiService struct {
	*lgnmi.Server
	sw *Switch
}

func (s *gnmiService) Set(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	if err := s.sw.RefuseSet(req); err != nil {
		return nil, err
	}
	if err := checkOrigins(req); err != nil {
		return nil, err
	}
	if err := checkWritable(req); err != nil {
		return nil, err
	}
	s.sw.mu.Lock()
	defer s.sw.mu.Unlock()
	if _, err := s.Server.Set(userContext(ctx), req); err != nil {
		return nil, err
	}
	return SetResponse(req), nil
}

// userContext drops the metadata lemming reads to let its own reconcilers
// write operational state unvalidated; a network client must only ever get
// the validated configuration mode.
func userContext(ctx context.Context) context.Context {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return ctx
	}
	md = md.Copy()
	delete(md, lgnmi.GNMIModeMetadataKey)
	delete(md, lgnmi.TimestampMetadataKey)
	return metadata.NewIncomingContext(ctx, md)
}

// SetResponse reports one result per operation, in request order, as the gNMI
// specification asks (lemming leaves the response empty).
func SetResponse(req *gpb.SetRequest) *gpb.SetResponse {
	resp := &gpb.SetResponse{Prefix: req.GetPrefix(), Timestamp: time.Now().UnixNano()}
	add := func(p *gpb.Path, op gpb.UpdateResult_Operation) {
		resp.Response = append(resp.Response, &gpb.UpdateResult{Path: p, Op: op})
	}
	for _, p := range req.GetDelete() {
		add(p, gpb.UpdateResult_DELETE)
	}
	for _, u := range req.GetReplace() {
		add(u.GetPath(), gpb.UpdateResult_REPLACE)
	}
	for _, u := range req.GetUpdate() {
		add(u.GetPath(), gpb.UpdateResult_UPDATE)
	}
	return resp
}

func (s *gnmiService) Capabilities(context.Context, *gpb.CapabilityRequest) (*gpb.CapabilityResponse, error) {
	return &gpb.CapabilityResponse{
		SupportedModels:    supportedModels(),
		SupportedEncodings: []gpb.Encoding{gpb.Encoding_JSON_IETF, gpb.Encoding_JSON},
		GNMIVersion:        "0.10.0",
	}, nil
}

// supportedModels announces the modules of the schema lemming validates
// against. The generated schema carries no module versions, so these are the
// openconfig/public release versions of that era; clients use the list to
// find openconfig-qos, not to pin versions.
func supportedModels() []*gpb.ModelData {
	const oc = "OpenConfig working group"
	return []*gpb.ModelData{
		{Name: "openconfig-qos", Organization: oc, Version: "0.11.2"},
		{Name: "openconfig-qos-types", Organization: oc, Version: "0.2.1"},
		{Name: "openconfig-interfaces", Organization: oc, Version: "3.7.1"},
		{Name: "openconfig-if-ethernet", Organization: oc, Version: "2.14.0"},
		{Name: "openconfig-if-aggregate", Organization: oc, Version: "2.4.4"},
		{Name: "openconfig-if-ip", Organization: oc, Version: "3.5.1"},
		{Name: "openconfig-vlan", Organization: oc, Version: "3.2.2"},
		{Name: "openconfig-lldp", Organization: oc, Version: "0.2.1"},
		{Name: "openconfig-platform", Organization: oc, Version: "0.28.0"},
		{Name: "openconfig-system", Organization: oc, Version: "2.1.0"},
		{Name: "openconfig-network-instance", Organization: oc, Version: "4.4.1"},
		{Name: "openconfig-types", Organization: oc, Version: "1.0.0"},
		{Name: "openconfig-yang-types", Organization: oc, Version: "1.0.0"},
		{Name: "openconfig-inet-types", Organization: oc, Version: "0.7.0"},
		{Name: "iana-if-type", Organization: "IANA", Version: "2023-01-26"},
	}
}

func (s *gnmiService) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	return s.Server.Subscribe(&deviceStream{GNMI_SubscribeServer: stream, target: s.sw.name, refresh: s.refreshLocked})
}

// refreshLocked brings the counters up to date before a subscription reads the datastore.
func (s *gnmiService) refreshLocked() error {
	s.sw.mu.Lock()
	defer s.sw.mu.Unlock()
	return s.refreshCounters()
}

// deviceStream makes lemming's collector-style Subscribe answer like a device:
// clients need not name the target (lemming's cache is keyed by it), paths
// without an origin mean OpenConfig, and responses echo the client's target.
type deviceStream struct {
	gpb.GNMI_SubscribeServer
	target       string
	clientTarget string
	refresh      func() error // counters as of now, before the subscription reads them
}

func (d *deviceStream) Recv() (*gpb.SubscribeRequest, error) {
	req, err := d.GNMI_SubscribeServer.Recv()
	if err != nil {
		return nil, err
	}
	if sub := req.GetSubscribe(); sub != nil {
		if err := d.refresh(); err != nil {
			return nil, status.Errorf(codes.Internal, "refresh counters: %v", err)
		}
		if sub.Prefix == nil {
			sub.Prefix = &gpb.Path{}
		}
		d.clientTarget = sub.Prefix.Target
		sub.Prefix.Target = d.target
		if sub.Prefix.Origin == "" && !anyPathOrigin(sub) {
			sub.Prefix.Origin = lgnmi.OpenConfigOrigin
		}
	}
	return req, nil
}

func anyPathOrigin(sub *gpb.SubscriptionList) bool {
	for _, s := range sub.GetSubscription() {
		if s.GetPath().GetOrigin() != "" {
			return true
		}
	}
	return false
}

func (d *deviceStream) Send(resp *gpb.SubscribeResponse) error {
	if n := resp.GetUpdate(); n != nil {
		// The notification is the one held in the datastore's cache: copy
		// before changing it.
		n, _ = proto.Clone(n).(*gpb.Notification)
		if n.Prefix == nil {
			n.Prefix = &gpb.Path{}
		}
		n.Prefix.Target = d.clientTarget
		resp = &gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_Update{Update: n}}
	}
	return d.GNMI_SubscribeServer.Send(resp)
}
