package fabric

import (
	"strconv"
	"strings"
)

// Step is one step of an attribute path: an attribute name, or a key of a map attribute.
//
// Exactly one is meant to be set. Attribute names are never empty, so a Step whose Attr is
// empty is a map-key step; that keeps the empty map key ("" is a valid Terraform map key)
// representable.
type Step struct {
	Attr   string
	MapKey string
}

// IsKey reports whether s selects a map element rather than an attribute.
func (s Step) IsKey() bool { return s.Attr == "" }

// Path locates an attribute of a resource's configuration, using the Terraform attribute names
// of the contract, so the provider can map it to a Terraform path and attach a diagnostic to the
// attribute at fault. The zero Path is the resource itself.
//
// Paths are values: Attr and Key return new paths and never modify the receiver's backing
// array, so a common prefix can be extended many times.
type Path []Step

// Root returns the path of a top-level attribute.
func Root(attr string) Path { return Path{{Attr: attr}} }

// Attr returns p extended by the nested attribute a.
func (p Path) Attr(a string) Path { return p.with(Step{Attr: a}) }

// Key returns p extended by the map key k.
func (p Path) Key(k string) Path { return p.with(Step{MapKey: k}) }

func (p Path) with(s Step) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, s)
}

// Equal reports whether p and o are the same path.
func (p Path) Equal(o Path) bool {
	if len(p) != len(o) {
		return false
	}
	for i := range p {
		if p[i] != o[i] {
			return false
		}
	}
	return true
}

// String renders p the way Terraform prints paths, e.g. classes["roce"].ecn.max_threshold_bytes.
// Map keys are quoted, so a key holding quotes or control characters stays readable and
// unambiguous.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		if s.IsKey() {
			b.WriteByte('[')
			b.WriteString(strconv.Quote(s.MapKey))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Attr)
	}
	return b.String()
}

// Problem is one thing wrong with an intent: where (Path), what (Summary, short) and what the
// user should do about it (Detail). The provider turns it into an attribute diagnostic.
type Problem struct {
	Path    Path
	Summary string
	Detail  string
}

// Error renders the problem on one line: "path: summary: detail".
func (p Problem) Error() string {
	var b strings.Builder
	if len(p.Path) > 0 {
		b.WriteString(p.Path.String())
		b.WriteString(": ")
	}
	b.WriteString(p.Summary)
	if p.Detail != "" {
		b.WriteString(": ")
		b.WriteString(p.Detail)
	}
	return b.String()
}

// Problems collects every problem found, in a deterministic order, so a user sees all of them
// in one plan rather than one per run.
type Problems []Problem

// Add records a problem at path.
func (ps *Problems) Add(path Path, summary, detail string) {
	*ps = append(*ps, Problem{Path: path, Summary: summary, Detail: detail})
}

// Append records p when it is not nil, so results of checks such as WholeKilobytes can be
// collected without an if at every call.
func (ps *Problems) Append(p *Problem) {
	if p != nil {
		*ps = append(*ps, *p)
	}
}

// Error joins the problems, one per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns ps as an error, or nil when there is no problem. Use it instead of converting
// ps to error directly: an empty Problems stored in an error interface is not nil.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}
