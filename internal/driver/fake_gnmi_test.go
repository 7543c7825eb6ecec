package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// fakeConfigDB is a SONiC switch behind gnmiConn: CONFIG_DB (table -> key -> field ->
// value) answered whole to a Get of its root, and SetRequests applied as sonic-gnmi applies
// them (deletes first; an update of a table adds its keys, of a key replaces the key, of a
// field sets the field). Other paths answer from other (gNMI NotFound where absent), and a
// Set of another origin is only recorded.
type fakeConfigDB struct {
	tables map[string]map[string]map[string]string
	other  map[string][]byte
	gets   int
	sets   []*gpb.SetRequest
	// setErr refuses every Set (nothing is applied).
	setErr error
}

func notFound(path string) error {
	return &gnmi.Error{Device: "sw", Op: "get", Err: status.Error(codes.NotFound, path+" not found")}
}

func gnmiPath(p *gpb.Path) string {
	s := p.GetOrigin() + ":"
	for _, e := range p.GetElem() {
		s += "/" + e.GetName()
	}
	return s
}

// Get is a GetRequest of type CONFIG: sonic-gnmi refuses it for every path (its Get checks the
// type first), so a path of origin sonic-db is refused here as there; other paths (OpenConfig)
// are answered.
func (f *fakeConfigDB) Get(ctx context.Context, paths ...*gpb.Path) ([]gnmi.Update, error) {
	for _, p := range paths {
		if p.GetOrigin() == "sonic-db" {
			return nil, &gnmi.Error{Device: "sw", Op: "get", Err: status.Error(codes.Unimplemented, "unsupported request type: CONFIG")}
		}
	}
	return f.GetAll(ctx, paths...)
}

// GetAll is a GetRequest of type ALL.
func (f *fakeConfigDB) GetAll(_ context.Context, paths ...*gpb.Path) ([]gnmi.Update, error) {
	f.gets++
	var out []gnmi.Update
	for _, p := range paths {
		if gnmiPath(p) == "sonic-db:/CONFIG_DB/localhost" {
			b, err := json.Marshal(f.tables)
			if err != nil {
				return nil, err
			}
			out = append(out, gnmi.Update{Path: p, JSON: b})
			continue
		}
		b, ok := f.other[gnmiPath(p)]
		if !ok {
			return nil, notFound(gnmiPath(p))
		}
		out = append(out, gnmi.Update{Path: p, JSON: b})
	}
	return out, nil
}

func (f *fakeConfigDB) GetState(ctx context.Context, paths ...*gpb.Path) ([]gnmi.Update, error) {
	return f.GetAll(ctx, paths...)
}

func (f *fakeConfigDB) Set(_ context.Context, req *gpb.SetRequest) error {
	f.sets = append(f.sets, req)
	if f.setErr != nil {
		return f.setErr
	}
	if req.GetPrefix().GetOrigin() != "sonic-db" {
		return nil // recorded only: the fake holds no OpenConfig tree
	}
	for _, p := range req.GetDelete() {
		el := dbElems(p)
		switch len(el) {
		case 1:
			delete(f.tables, el[0])
		case 2:
			delete(f.tables[el[0]], el[1])
		case 3:
			delete(f.tables[el[0]][el[1]], el[2])
		}
	}
	for _, u := range append(slices.Clone(req.GetReplace()), req.GetUpdate()...) {
		el := dbElems(u.GetPath())
		raw := u.GetVal().GetJsonIetfVal()
		var err error
		switch len(el) {
		case 1:
			var keys map[string]map[string]string
			if err = json.Unmarshal(raw, &keys); err == nil {
				for k, fields := range keys {
					f.key(el[0])[k] = fields
				}
			}
		case 2:
			var fields map[string]string
			if err = json.Unmarshal(raw, &fields); err == nil {
				f.key(el[0])[el[1]] = fields
			}
		case 3:
			var v string
			if err = json.Unmarshal(raw, &v); err == nil {
				if f.tables[el[0]][el[1]] == nil {
					return fmt.Errorf("update of a field of the absent key %v", el)
				}
				f.tables[el[0]][el[1]][el[2]] = v
			}
		}
		if err != nil {
			return fmt.Errorf("%v: %w", el, err)
		}
	}
	return nil
}

// key is table t, made when absent.
func (f *fakeConfigDB) key(t string) map[string]map[string]string {
	if f.tables[t] == nil {
		f.tables[t] = map[string]map[string]string{}
	}
	return f.tables[t]
}

// dbElems are a CONFIG_DB path's table, key and field (as many as it has).
func dbElems(p *gpb.Path) []string {
	var out []string
	for _, e := range p.GetElem()[2:] {
		out = append(out, e.GetName())
	}
	return out
}
