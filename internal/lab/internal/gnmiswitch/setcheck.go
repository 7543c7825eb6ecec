package gnmiswitch

import (
	"encoding/json"
	"slices"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lgnmi "github.com/openconfig/lemming/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// checkOrigins rejects origins other than OpenConfig's. lemming treats the
// "lemming-internal" origin as a schemaless scratch space; a client reaching
// it would bypass validation.
func checkOrigins(req *gpb.SetRequest) error {
	paths := []*gpb.Path{req.GetPrefix()}
	paths = append(paths, req.GetDelete()...)
	for _, u := range slices.Concat(req.GetReplace(), req.GetUpdate()) {
		paths = append(paths, u.GetPath())
	}
	for _, p := range paths {
		if err := checkOrigin(p.GetOrigin()); err != nil {
			return err
		}
	}
	return nil
}

func checkOrigin(origin string) error {
	if origin != "" && origin != lgnmi.OpenConfigOrigin {
		return status.Errorf(codes.InvalidArgument, "unsupported origin %q: this device serves %q", origin, lgnmi.OpenConfigOrigin)
	}
	return nil
}

// checkWritable rejects writes to operational state. lemming refuses a write at a
// `state` container but takes a `state` leaf's replace, a delete under `state` and
// `state` members of a body silently, which would let a client that writes state
// pass against the lab and fail against a device (openconfig-switch.md, "Set").
// OpenConfig puts every config-false leaf under a container named `state`, in
// paths and in bodies.
func checkWritable(req *gpb.SetRequest) error {
	for _, p := range req.GetDelete() {
		if err := notState(req.GetPrefix(), p); err != nil {
			return err
		}
	}
	for _, u := range slices.Concat(req.GetReplace(), req.GetUpdate()) {
		if err := notState(req.GetPrefix(), u.GetPath()); err != nil {
			return err
		}
		body := u.GetVal().GetJsonIetfVal()
		if body == nil {
			body = u.GetVal().GetJsonVal()
		}
		var v any
		if body != nil && json.Unmarshal(body, &v) == nil && hasStateMember(v) {
			return status.Errorf(codes.InvalidArgument, "value at %s writes a config false `state` container", pathString(u.GetPath().GetElem()))
		}
	}
	return nil
}

func notState(prefix, p *gpb.Path) error {
	for _, e := range append(append([]*gpb.PathElem{}, prefix.GetElem()...), p.GetElem()...) {
		if e.GetName() == "state" {
			return status.Errorf(codes.InvalidArgument, "%s is operational state (config false) and cannot be written", pathString(p.GetElem()))
		}
	}
	return nil
}

func hasStateMember(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if _, isObj := child.(map[string]any); isObj && (k == "state" || strings.HasSuffix(k, ":state")) {
				return true
			}
			if hasStateMember(child) {
				return true
			}
		}
	case []any:
		for _, child := range v {
			if hasStateMember(child) {
				return true
			}
		}
	}
	return false
}
