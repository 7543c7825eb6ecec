package cumulus

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// examplePolicy is DESIGN.md's roce_qos_policy example without its mtu, bound to swp1 and
// swp2: roce (TC 3, DSCP 26, lossless, ECN), cnp (TC 6, strict), default (TC 0).
func examplePolicy() fabric.QoSPolicy {
	return fabric.QoSPolicy{
		Name: "ROCE", Trust: fabric.TrustDSCP,
		Classes: map[string]fabric.Class{
			"roce": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(50), Lossless: true,
				ECN: &fabric.ECN{MinThresholdBytes: 150000, MaxThresholdBytes: 1500000, MarkProbabilityPercent: 100}},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, BandwidthPercent: fabric.Ptr(50)},
		},
		Interfaces: []string{"swp1", "swp2"},
	}
}

// config is an NVUE configuration as generic JSON, to which tests apply Ops the way NVUE stages
// them in a revision: PATCH merges objects (a null unsets the key), DELETE removes the path.
type config map[string]any

func factory(t *testing.T) config {
	t.Helper()
	var qos, iface map[string]any
	for _, f := range []struct {
		file string
		into *map[string]any
	}{{"testdata/factory-qos-cl55.json.txt", &qos}, {"testdata/factory-interface-cl55.json.txt", &iface}} {
		if err := json.Unmarshal([]byte(golden.Capture(t, f.file)), f.into); err != nil {
			t.Fatal(err)
		}
	}
	for _, port := range []string{"swp1", "swp2", "swp3"} {
		iface[port] = map[string]any{"type": "swp"}
	}
	return config{"qos": qos, "interface": iface}
}

func (c config) apply(t *testing.T, ops []Op) {
	t.Helper()
	for _, op := range ops {
		var elems []string
		for _, e := range strings.Split(strings.Trim(op.Path, "/"), "/") {
			if e == "" {
				continue
			}
			u, err := url.PathUnescape(e)
			if err != nil {
				t.Fatal(err)
			}
			elems = append(elems, u)
		}
		switch op.Method {
		case Patch:
			raw, err := json.Marshal(op.Body)
			if err != nil {
				t.Fatal(err)
			}
			var body any
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			for i := len(elems) - 1; i >= 0; i-- {
				body = map[string]any{elems[i]: body}
			}
			merge(map[string]any(c), body.(map[string]any))
		case Delete:
			parent := map[string]any(c)
			for _, e := range elems[:len(elems)-1] {
				next, ok := parent[e].(map[string]any)
				if !ok {
					t.Fatalf("DELETE %s: no %s", op.Path, e)
				}
				parent = next
			}
			if _, ok := parent[elems[len(elems)-1]]; !ok {
				t.Fatalf("DELETE %s: nothing there", op.Path)
			}
			delete(parent, elems[len(elems)-1])
		default:
			t.Fatalf("op %q", op.Method)
		}
	}
}

func merge(dst, src map[string]any) {
	for k, v := range src {
		switch v := v.(type) {
		case nil:
			delete(dst, k)
		case map[string]any:
			d, ok := dst[k].(map[string]any)
			if !ok {
				d = map[string]any{}
				dst[k] = d
			}
			merge(d, v)
		default:
			dst[k] = v
		}
	}
}

func (c config) tree(t *testing.T) *Tree {
	t.Helper()
	qos, err := json.Marshal(c["qos"])
	if err != nil {
		t.Fatal(err)
	}
	iface, err := json.Marshal(c["interface"])
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ParseTree(qos, iface)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// String renders c without its empty objects: whether NVUE keeps an object whose last key a
// DELETE removed is not documented, so comparisons ignore them.
func (c config) String() string {
	b, _ := json.MarshalIndent(pruned(map[string]any(c)), "", "  ")
	return string(b)
}

func pruned(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			if sub = pruned(sub); len(sub) == 0 {
				continue
			}
			v = sub
		}
		out[k] = v
	}
	return out
}

func renderOps(ops []Op) string {
	var b strings.Builder
	for _, op := range ops {
		b.WriteString(op.Method + " " + op.Path)
		if op.Body != nil {
			raw, _ := json.MarshalIndent(op.Body, "", "  ")
			b.WriteString(" " + string(raw))
		}
		b.WriteString("\n")
	}
	return b.String()
}
