package fabric

import (
	"errors"
	"strings"
	"testing"
)

func TestPathString(t *testing.T) {
	tests := []struct {
		name string
		path Path
		want string
	}{
		{"empty", nil, ""},
		{"root", Root("name"), "name"},
		{"nested", Root("classes").Key("roce").Attr("ecn").Attr("max_threshold_bytes"), `classes["roce"].ecn.max_threshold_bytes`},
		{"key quoting", Root("classes").Key("a\"b\n"), `classes["a\"b\n"]`},
		{"empty key", Root("classes").Key(""), `classes[""]`},
		{"key then key", Root("m").Key("a").Key("b"), `m["a"]["b"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.path.String(); got != tt.want {
				t.Errorf("String() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPathStepKinds(t *testing.T) {
	p := Root("classes").Key("")
	if len(p) != 2 || p[0].IsKey() || !p[1].IsKey() {
		t.Fatalf("steps = %#v, want an attribute step then a key step", p)
	}
	if p[1].MapKey != "" || p[1].Attr != "" {
		t.Errorf("empty key step = %#v", p[1])
	}
}

// Extending a shared prefix twice must not let the second extension overwrite the first.
func TestPathExtendDoesNotAlias(t *testing.T) {
	base := Root("classes").Key("roce")
	base = append(base[:len(base):len(base)], Step{Attr: "ecn"})[:2] // spare capacity behind base
	a := base.Attr("dscp")
	b := base.Attr("pcp")
	if a.String() != `classes["roce"].dscp` || b.String() != `classes["roce"].pcp` {
		t.Errorf("a = %s, b = %s", a, b)
	}
	if !a[:2].Equal(base) || a.Equal(b) || a.Equal(base) {
		t.Errorf("Equal misbehaves: a=%s b=%s base=%s", a, b, base)
	}
}

func TestProblems(t *testing.T) {
	var ps Problems
	if err := ps.Err(); err != nil {
		t.Fatalf("empty Problems.Err() = %v, want nil", err)
	}
	ps.Append(nil)
	if len(ps) != 0 {
		t.Fatalf("Append(nil) added a problem: %v", ps)
	}
	ps.Add(Root("name"), "Policy name is empty", "Give a name.")
	ps.Append(&Problem{Path: Root("classes").Key("roce").Attr("mtu"), Summary: "mtu 9 out of range"})
	err := ps.Err()
	if err == nil {
		t.Fatal("Err() = nil with two problems")
	}
	want := "name: Policy name is empty: Give a name.\n" + `classes["roce"].mtu: mtu 9 out of range`
	if err.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", err, want)
	}
	var got Problems
	if !errors.As(err, &got) || len(got) != 2 || !got[1].Path.Equal(Root("classes").Key("roce").Attr("mtu")) {
		t.Errorf("errors.As gave %#v", got)
	}
	if s := (Problem{Summary: "s"}).Error(); strings.Contains(s, ":") {
		t.Errorf("pathless problem renders as %q, want no separators", s)
	}
}
