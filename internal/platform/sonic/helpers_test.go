package sonic

import (
	"encoding/json"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// examplePolicy is the contract's roce_qos_policy example without its sonic-unsupported mtu,
// bound to Ethernet0 and Ethernet4.
func examplePolicy() *fabric.QoSPolicy {
	return fabrictest.WithoutMTU(fabrictest.ExamplePolicy("Ethernet0", "Ethernet4"))
}

// updatedPolicy changes the roce ECN and share, adds a lossless storage class with ECN, trusts
// DSCP and PCP, unbinds Ethernet4 and binds Ethernet8.
func updatedPolicy() *fabric.QoSPolicy {
	p := fabrictest.Updated(examplePolicy(),
		fabric.ECN{MinThresholdBytes: 150000, MaxThresholdBytes: 1500001, MarkProbabilityPercent: 20}, "Ethernet0", "Ethernet8")
	p.Trust = fabric.TrustDSCPPCP
	return fabrictest.WithClass(p, "storage", func(c *fabric.Class) { c.PCP = []int{4} })
}

// renderSet renders a SetRequest with each value compacted onto its path's line.
func renderSet(t *testing.T, req *gpb.SetRequest) string {
	t.Helper()
	return platformtest.RenderSet(t, req, pathKey, false)
}

// golden compares got with testdata/name, rewriting it under -update.
var golden = goldenfile.Testdata

// sampleParts reads testdata/sonic-config_db-qos-1.json.txt (the shared sample, source header
// kept): part (A) is nested config_db.json, part (B) flat "TABLE|key" Redis entries.
func sampleParts(t *testing.T) (nested, flat map[string]any) {
	t.Helper()
	raw := goldenfile.Read(t, "testdata/sonic-config_db-qos-1.json.txt")
	var groups [][]string
	inGroup := false
	for _, line := range strings.Split(raw, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") || strings.TrimSpace(line) == "" {
			inGroup = false
			continue
		}
		if !inGroup {
			groups = append(groups, nil)
			inGroup = true
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], line)
	}
	if len(groups) != 2 {
		t.Fatalf("sample: want parts (A) and (B), found %d JSON blocks", len(groups))
	}
	mustJSON(t, strings.Join(groups[0], "\n"), &nested)
	b := strings.TrimSuffix(strings.TrimSpace(strings.Join(groups[1], "\n")), ",")
	mustJSON(t, "{"+b+"}", &flat)
	return nested, flat
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("sample JSON: %v", err)
	}
}

func rootUpdate(t *testing.T, doc any) *gpb.Update {
	t.Helper()
	tv, err := jsonIETF(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &gpb.Update{Path: ReadPaths()[0], Val: tv}
}

func mustParse(t *testing.T, ups ...*gpb.Update) *DB {
	t.Helper()
	db, err := ParseDB(ups)
	if err != nil {
		t.Fatal(err)
	}
	return db
}
