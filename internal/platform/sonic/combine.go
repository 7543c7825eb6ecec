package sonic

import (
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/protobuf/proto"
)

// Several SetRequests as one. sonic-gnmi turns one SetRequest into one JSON Patch, its deletes
// first, then its replaces, then its updates (mixed_db_client.go SetIncrementalConfig), and
// hands that patch to one `config apply-patch`, which checks the whole patched CONFIG_DB
// (YANG, no empty table, field operations) before it writes anything (DESIGN.md, "SONiC
// writes"). So requests that touch no common CONFIG_DB key (Overlap) do together, in one
// request (Combine), what they do one after the other, and a refusal of the whole applies none
// of them.

// Overlap reports whether a and b touch a common CONFIG_DB key: the same key, or a table one
// of them writes or deletes whole. Their deletes and updates would not apply in request order
// if combined (sonic-gnmi runs every delete before every update). A path this package would not
// build counts as overlapping everything.
func Overlap(a, b *gpb.SetRequest) bool {
	ka, oka := touched(a)
	kb, okb := touched(b)
	if !oka || !okb {
		return true
	}
	for t, keys := range ka {
		other, ok := kb[t]
		if !ok {
			continue
		}
		if keys == nil || other == nil {
			return true // a whole table
		}
		for k := range keys {
			if other[k] {
				return true
			}
		}
	}
	return false
}

// touched is req's tables and, per table, the keys it touches (nil: the whole table); false
// when a path is not CONFIG_DB/localhost/TABLE[/KEY[/FIELD]].
func touched(req *gpb.SetRequest) (map[string]map[string]bool, bool) {
	out := map[string]map[string]bool{}
	paths := append([]*gpb.Path(nil), req.GetDelete()...)
	for _, u := range append(append([]*gpb.Update(nil), req.GetReplace()...), req.GetUpdate()...) {
		paths = append(paths, u.GetPath())
	}
	for _, p := range paths {
		el, err := setElems(req.GetPrefix(), p)
		if err != nil {
			return nil, false
		}
		keys, seen := out[el[0]]
		switch {
		case len(el) == 1:
			out[el[0]] = nil
		case seen && keys == nil: // already whole
		default:
			if keys == nil {
				keys = map[string]bool{}
				out[el[0]] = keys
			}
			keys[el[1]] = true
		}
	}
	return out, true
}

// Combine is one SetRequest doing what reqs do: their deletes, replaces and updates in order.
// reqs must not overlap (Overlap). Requests of one prefix keep it; otherwise each path carries
// its own prefix's elements under the first request's.
func Combine(reqs []*gpb.SetRequest) *gpb.SetRequest {
	same := true
	for _, r := range reqs[1:] {
		same = same && proto.Equal(r.GetPrefix(), reqs[0].GetPrefix())
	}
	out := &gpb.SetRequest{}
	if p := reqs[0].GetPrefix(); p != nil {
		out.Prefix = proto.Clone(p).(*gpb.Path) //nolint:forcetypeassert // Clone keeps the type
		if !same {
			out.Prefix.Elem = nil
		}
	}
	full := func(r *gpb.SetRequest, p *gpb.Path) *gpb.Path {
		if same || len(r.GetPrefix().GetElem()) == 0 {
			return p
		}
		q := proto.Clone(p).(*gpb.Path) //nolint:forcetypeassert // Clone keeps the type
		q.Elem = append(append([]*gpb.PathElem(nil), r.GetPrefix().GetElem()...), p.GetElem()...)
		return q
	}
	update := func(r *gpb.SetRequest, u *gpb.Update) *gpb.Update {
		if same {
			return u
		}
		return &gpb.Update{Path: full(r, u.GetPath()), Val: u.GetVal()}
	}
	for _, r := range reqs {
		for _, p := range r.GetDelete() {
			out.Delete = append(out.Delete, full(r, p))
		}
		for _, u := range r.GetReplace() {
			out.Replace = append(out.Replace, update(r, u))
		}
		for _, u := range r.GetUpdate() {
			out.Update = append(out.Update, update(r, u))
		}
	}
	return out
}

// EmptySet reports a request with nothing in it: sonic-gnmi applies nothing and saves nothing
// for it, so it is not sent.
func EmptySet(req *gpb.SetRequest) bool {
	return len(req.GetDelete())+len(req.GetReplace())+len(req.GetUpdate()) == 0
}
