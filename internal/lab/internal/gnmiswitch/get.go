package gnmiswitch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lgnmi "github.com/openconfig/lemming/gnmi"
	"github.com/openconfig/lemming/gnmi/oc"
	"github.com/openconfig/ygot/ygot"
	"github.com/openconfig/ygot/ytypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Get answers from the datastore Subscribe reads, so the two never disagree:
// for each path, one notification with one update whose value is the RFC 7951
// (JSON_IETF) subtree at that path, as a device renders it: uncompressed
// OpenConfig with `config` containers, lists as arrays of entries carrying
// their keys, and module-qualified top-level members
// ({"openconfig-qos:qos": ...} at "/", {"openconfig-qos:classifiers": ...}
// at /qos).
//
// A path with nothing under it is codes.NotFound (gNMI specification 3.3.4): an
// empty value would let a client mistake a missing object for an empty one.
// openconfig-switch.md, "Get", gives the source of each answer.
// The request's type is honoured (get_type.go): CONFIG reads configuration
// only, STATE and OPERATIONAL the `state` containers (traffic counters,
// refreshed from the switch's clock before the read), ALL both.
// A path ending at a list without keys returns the array of its entries.
// Wildcards are not supported (Subscribe takes them).
func (s *gnmiService) Get(_ context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	enc := req.GetEncoding()
	if enc != gpb.Encoding_JSON_IETF && enc != gpb.Encoding_JSON {
		return nil, status.Errorf(codes.Unimplemented, "encoding %s is not supported: use JSON_IETF", enc)
	}
	prefix := req.GetPrefix()
	if err := checkOrigin(prefix.GetOrigin()); err != nil {
		return nil, err
	}
	dataType := req.GetType()
	if err := checkDataType(dataType); err != nil {
		return nil, err
	}
	paths := GetPaths(req)

	if dataType == gpb.GetRequest_CONFIG {
		s.sw.mu.RLock()
		defer s.sw.mu.RUnlock()
	} else {
		s.sw.mu.Lock()
		defer s.sw.mu.Unlock()
		if err := s.refreshCounters(); err != nil {
			return nil, status.Errorf(codes.Internal, "refresh counters: %v", err)
		}
	}
	resp := &gpb.GetResponse{}
	for _, p := range paths {
		if err := checkOrigin(p.GetOrigin()); err != nil {
			return nil, err
		}
		elems := append(slices.Clone(prefix.GetElem()), p.GetElem()...)
		body, err := s.read(elems, dataType)
		if err != nil {
			return nil, err
		}
		val := &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: body}}
		if enc == gpb.Encoding_JSON {
			// Plain JSON has no standard form for module names; the
			// RFC 7951 text is valid JSON and what several devices send.
			val = &gpb.TypedValue{Value: &gpb.TypedValue_JsonVal{JsonVal: body}}
		}
		resp.Notification = append(resp.Notification, &gpb.Notification{
			Timestamp: time.Now().UnixNano(),
			Prefix:    prefix,
			Update:    []*gpb.Update{{Path: p, Val: val}},
		})
	}
	return resp, nil
}

// GetPaths are the paths a GetRequest names: its own, or the prefix alone when it lists none
// (both gNMI switches read a Get so).
func GetPaths(req *gpb.GetRequest) []*gpb.Path {
	if paths := req.GetPath(); len(paths) > 0 {
		return paths
	}
	return []*gpb.Path{{}}
}

// read renders the subtree at elems: the datastore's leaves under it are
// loaded into an OpenConfig ygot tree (which knows each leaf's YANG type and
// module, so uint64 becomes a string and identities get their module), the
// tree is marshalled to RFC 7951 and the requested node is picked out of the
// uncompressed JSON, where every path element has its own member.
func (s *gnmiService) read(elems []*gpb.PathElem, dataType gpb.GetRequest_DataType) ([]byte, error) {
	where := pathString(elems)
	if err := noWildcards(elems); err != nil {
		return nil, err
	}
	leaves, err := s.leaves(elems)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "read %s: %v", where, err)
	}
	leaves = filterLeaves(leaves, dataType, len(elems))
	if len(leaves) == 0 {
		return nil, status.Errorf(codes.NotFound, "no data at %s", where)
	}
	tree, err := toRFC7951(leaves)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "render %s: %v", where, err)
	}
	node, module, ok := descend(tree, elems)
	if !ok {
		return nil, status.Errorf(codes.NotFound, "no data at %s", where)
	}
	if dataType == gpb.GetRequest_STATE || dataType == gpb.GetRequest_OPERATIONAL {
		node = dropConfig(node)
	}
	return json.Marshal(qualify(node, module))
}

// leaves reads every leaf under elems with a Subscribe ONCE on the datastore,
// which is how lemming's cache is read.
func (s *gnmiService) leaves(elems []*gpb.PathElem) ([]*gpb.Update, error) {
	// Not the RPC's context: the local stream must be drained to its sync
	// marker whatever the client does, or lemming's sender goroutine blocks.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := s.Server.LocalClient().Subscribe(ctx)
	if err != nil {
		return nil, err
	}
	err = stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Prefix:       &gpb.Path{Origin: lgnmi.OpenConfigOrigin, Target: s.sw.name},
		Mode:         gpb.SubscriptionList_ONCE,
		Subscription: []*gpb.Subscription{{Path: &gpb.Path{Elem: elems}}},
	}}})
	if err != nil {
		return nil, err
	}
	var out []*gpb.Update
	for {
		resp, err := stream.Recv()
		if err != nil {
			return nil, err
		}
		if resp.GetSyncResponse() {
			return out, nil
		}
		n := resp.GetUpdate()
		for _, u := range n.GetUpdate() {
			p := &gpb.Path{Elem: append(slices.Clone(n.GetPrefix().GetElem()), u.GetPath().GetElem()...)}
			out = append(out, &gpb.Update{Path: p, Val: u.GetVal()})
		}
	}
}

// ocSchema is built once per process: it takes about a second and only its
// read-only schema tree is shared; every read gets a fresh root.
var ocSchema = sync.OnceValues(oc.Schema)

func toRFC7951(leaves []*gpb.Update) (map[string]any, error) {
	base, err := ocSchema()
	if err != nil {
		return nil, err
	}
	schema := &ytypes.Schema{Root: &oc.Root{}, SchemaTree: base.SchemaTree, Unmarshal: base.Unmarshal}
	// lemming stores configuration under the `config` (shadow) paths of its
	// state-preferring compressed schema; PreferShadowPath maps them back.
	if err := ytypes.UnmarshalSetRequest(schema, &gpb.SetRequest{Update: leaves}, &ytypes.PreferShadowPath{}); err != nil {
		return nil, err
	}
	return ygot.ConstructIETFJSON(schema.Root, &ygot.RFC7951JSONConfig{AppendModuleName: true, PreferShadowPath: true})
}

// descend walks the RFC 7951 tree along elems and returns the node there and
// the YANG module it belongs to (RFC 7951 names a member's module only where
// it differs from its parent's, so the walk carries it down).
func descend(tree map[string]any, elems []*gpb.PathElem) (any, string, bool) {
	var node any = tree
	module := ""
	for _, e := range elems {
		obj, ok := node.(map[string]any)
		if !ok {
			return nil, "", false
		}
		child, mod, ok := member(obj, e.GetName())
		if !ok {
			return nil, "", false
		}
		if mod != "" {
			module = mod
		}
		node = child
		if len(e.GetKey()) > 0 {
			if node, ok = listEntry(child, e.GetKey()); !ok {
				return nil, "", false
			}
		}
	}
	return node, module, true
}

func member(obj map[string]any, name string) (any, string, bool) {
	if v, ok := obj[name]; ok {
		return v, "", true
	}
	for k, v := range obj {
		if mod, local, ok := strings.Cut(k, ":"); ok && local == name {
			return v, mod, true
		}
	}
	return nil, "", false
}

func listEntry(list any, keys map[string]string) (any, bool) {
	entries, ok := list.([]any)
	if !ok {
		return nil, false
	}
	for _, entry := range entries {
		obj, ok := entry.(map[string]any)
		if ok && keysMatch(obj, keys) {
			return obj, true
		}
	}
	return nil, false
}

func keysMatch(obj map[string]any, keys map[string]string) bool {
	for k, want := range keys {
		got, _, ok := member(obj, k)
		if !ok || unqualified(fmt.Sprint(got)) != unqualified(want) {
			return false
		}
	}
	return true
}

// unqualified drops an identity's module, which clients may or may not write
// in a key ("IPV4" or "openconfig-qos-types:IPV4").
func unqualified(s string) string {
	if _, local, ok := strings.Cut(s, ":"); ok {
		return local
	}
	return s
}

// qualify names the module on the value's top-level members: RFC 7951 requires
// it for a JSON text's top-level object, which a Get value is.
func qualify(v any, module string) any {
	if module == "" {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, child := range v {
			if !strings.Contains(k, ":") {
				k = module + ":" + k
			}
			out[k] = child
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, child := range v {
			out[i] = qualify(child, module)
		}
		return out
	}
	return v
}

func noWildcards(elems []*gpb.PathElem) error {
	for _, e := range elems {
		wild := e.GetName() == "*" || e.GetName() == "..."
		for _, v := range e.GetKey() {
			wild = wild || v == "*"
		}
		if wild {
			return status.Errorf(codes.Unimplemented, "wildcards in Get paths are not supported by the lab (%s): use Subscribe", pathString(elems))
		}
	}
	return nil
}

func pathString(elems []*gpb.PathElem) string {
	s, err := ygot.PathToString(&gpb.Path{Elem: elems})
	if err != nil {
		return fmt.Sprint(elems)
	}
	return s
}
