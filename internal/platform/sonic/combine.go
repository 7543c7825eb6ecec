package sonic

import (
	"slices"

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

// Overlap reports whether a and b touch a common part of CONFIG_DB: a path of one contains a
// path of the other (the same field; a key or a table written or deleted whole, and anything
// in it). Combined, their deletes and updates would not apply in request order (sonic-gnmi
// runs every delete of a request before its updates). Different fields of one key do not
// overlap: field operations on different fields give the same key in either order (a key a
// delete empties goes, and a field update makes it again, in JsonClient and in AfterSet
// alike; a write that finds the key gone after the writes before it writes the key whole,
// which overlaps). A path this package would not build counts as overlapping everything.
func Overlap(a, b *gpb.SetRequest) bool {
	pa, oka := touched(a)
	pb, okb := touched(b)
	if !oka || !okb {
		return true
	}
	for _, x := range pa {
		for _, y := range pb {
			if contains(x, y) || contains(y, x) {
				return true
			}
		}
	}
	return false
}

// contains reports whether path elements outer are inner or one of its parents.
func contains(outer, inner []string) bool {
	return len(outer) <= len(inner) && slices.Equal(outer, inner[:len(outer)])
}

// touched is the TABLE[/KEY[/FIELD]] elements of every path of req; false when a path is not
// CONFIG_DB/localhost/TABLE[/KEY[/FIELD]].
func touched(req *gpb.SetRequest) ([][]string, bool) {
	paths := append([]*gpb.Path(nil), req.GetDelete()...)
	for _, u := range append(append([]*gpb.Update(nil), req.GetReplace()...), req.GetUpdate()...) {
		paths = append(paths, u.GetPath())
	}
	out := make([][]string, 0, len(paths))
	for _, p := range paths {
		el, err := setElems(req.GetPrefix(), p)
		if err != nil {
			return nil, false
		}
		out = append(out, el)
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
