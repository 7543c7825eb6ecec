package gnmiswitch

// GetRequest.Type: CONFIG reads the configuration (config true) leaves, STATE and OPERATIONAL
// the operational state (the `state` containers: counters; the lab mirrors no applied
// configuration into them, so the two are the same), ALL (the default) both. OpenConfig keeps
// every leaf of either kind in a container named `config` or `state`; only list keys sit
// outside them, and they go with the entry.

import (
	"slices"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func checkDataType(t gpb.GetRequest_DataType) error {
	if _, ok := gpb.GetRequest_DataType_name[int32(t)]; !ok {
		return status.Errorf(codes.InvalidArgument, "unknown GetRequest type %d", t)
	}
	return nil
}

type leafKind int

const (
	leafKey leafKind = iota // a list key (or its state mirror): goes with its entry
	leafConfig
	leafState
)

func kindOf(elems []*gpb.PathElem) leafKind {
	for i, e := range elems {
		switch e.GetName() {
		case "config":
			return leafConfig
		case "state":
			// .../entry[k=v]/state/k mirrors the key: the entry exists in the state
			// datastore, which says nothing about the entry having state.
			if i == len(elems)-2 && i > 0 {
				if _, isKey := elems[i-1].GetKey()[elems[i+1].GetName()]; isKey {
					return leafKey
				}
			}
			return leafState
		}
	}
	return leafKey
}

func wants(t gpb.GetRequest_DataType, k leafKind) bool {
	switch k {
	case leafConfig:
		return t == gpb.GetRequest_ALL || t == gpb.GetRequest_CONFIG
	case leafState:
		return t != gpb.GetRequest_CONFIG
	}
	return false
}

// filterLeaves keeps the leaves of the requested type, and the key leaves of the list entries
// that keep some of them (or that the request names or descends into: depth is the length of
// the requested path), so an entry holding nothing of that type disappears.
func filterLeaves(leaves []*gpb.Update, t gpb.GetRequest_DataType, depth int) []*gpb.Update {
	kinds := make([]leafKind, len(leaves))
	held := map[string]bool{} // entries (and containers) with a kept leaf under them
	for i, u := range leaves {
		elems := u.GetPath().GetElem()
		kinds[i] = kindOf(elems)
		if wants(t, kinds[i]) {
			for n := 1; n < len(elems); n++ {
				held[elemsKey(elems[:n])] = true
			}
		}
	}
	out := leaves[:0:0]
	for i, u := range leaves {
		elems := u.GetPath().GetElem()
		switch {
		case wants(t, kinds[i]):
		case kinds[i] == leafKey && (len(elems)-1 <= depth || held[elemsKey(elems[:len(elems)-1])]):
		default:
			continue
		}
		out = append(out, u)
	}
	return out
}

func elemsKey(elems []*gpb.PathElem) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteByte('/')
		b.WriteString(e.GetName())
		keys := e.GetKey()
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			b.WriteString("[" + k + "=" + keys[k] + "]")
		}
	}
	return b.String()
}

// dropConfig removes the `config` containers the renderer adds for list keys from a STATE
// answer: every configuration leaf was filtered out before rendering.
func dropConfig(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, child := range v {
			if _, local, _ := cutModule(k); local == "config" {
				continue
			}
			out[k] = dropConfig(child)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, child := range v {
			out[i] = dropConfig(child)
		}
		return out
	}
	return v
}

func cutModule(member string) (module, local string, qualified bool) {
	if m, l, ok := strings.Cut(member, ":"); ok {
		return m, l, true
	}
	return "", member, false
}
