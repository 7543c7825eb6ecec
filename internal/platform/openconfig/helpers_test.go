package openconfig

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func ptr[T any](v T) *T { return &v }

// examplePolicy is the contract's roce_qos_policy example without its openconfig-unsupported
// attributes (lossless, pcp, mtu).
func examplePolicy() *fabric.QoSPolicy {
	return &fabric.QoSPolicy{
		Name:                "ROCE",
		Trust:               fabric.TrustDSCP,
		DefaultTrafficClass: 0,
		Classes: map[string]fabric.Class{
			"roce": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: ptr(50),
				ECN: &fabric.ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: ptr(50)},
		},
		Interfaces: []string{"Ethernet1", "Ethernet2"},
	}
}

// updatedPolicy renames examplePolicy, changes the roce ECN, adds a class and unbinds
// Ethernet2 in favour of Ethernet3.
func updatedPolicy() *fabric.QoSPolicy {
	p := examplePolicy()
	p.Name = "AI"
	roce := p.Classes["roce"]
	roce.ECN = &fabric.ECN{MinThresholdBytes: 307200, MaxThresholdBytes: 3072000, MarkProbabilityPercent: 20}
	roce.BandwidthPercent = ptr(40)
	p.Classes["roce"] = roce
	p.Classes["storage"] = fabric.Class{TrafficClass: 4, DSCP: []int{32, 34}, BandwidthPercent: ptr(10),
		ECN: &fabric.ECN{MinThresholdBytes: 81920, MaxThresholdBytes: 819200, MarkProbabilityPercent: 5}}
	p.Interfaces = []string{"Ethernet1", "Ethernet3"}
	return p
}

// renderSet renders a SetRequest stably (prototext output is deliberately unstable): one line
// per operation with its path, then the JSON_IETF value indented.
func renderSet(t *testing.T, req *gpb.SetRequest) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("prefix origin=" + req.GetPrefix().GetOrigin() + "\n")
	for _, p := range req.Delete {
		b.WriteString("delete  " + pathKey(p) + "\n")
	}
	for _, kind := range []struct {
		name string
		ups  []*gpb.Update
	}{{"replace", req.Replace}, {"update ", req.Update}} {
		for _, u := range kind.ups {
			b.WriteString(kind.name + " " + pathKey(u.Path) + "\n")
			var out bytes.Buffer
			if err := json.Indent(&out, u.GetVal().GetJsonIetfVal(), "    ", "  "); err != nil {
				t.Fatalf("value of %s is not JSON: %v", pathKey(u.Path), err)
			}
			b.WriteString("    " + out.String() + "\n")
		}
	}
	return b.String()
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}
