package sonic

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// stockRestore is what Ethernet0 and Ethernet4 had before the policy: the stock AZURE binding.
var stockRestore = map[string]PortBinding{"Ethernet0": azureEthernet0, "Ethernet4": azureEthernet0}

func TestBuildSetGolden(t *testing.T) {
	for _, tc := range []struct {
		golden      string
		prior, next *fabric.QoSPolicy
	}{
		{"create.golden", nil, examplePolicy()},
		{"update.golden", examplePolicy(), updatedPolicy()},
		{"rename.golden", examplePolicy(), renamed(examplePolicy(), "AI")},
		{"delete.golden", examplePolicy(), nil},
		{"noop.golden", examplePolicy(), examplePolicy()},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			req, err := BuildSet(tc.prior, tc.next, stockRestore)
			if err != nil {
				t.Fatal(err)
			}
			got := renderSet(t, req)
			golden(t, tc.golden, got)
			again, _ := BuildSet(tc.prior, tc.next, stockRestore)
			if renderSet(t, again) != got {
				t.Error("BuildSet is not deterministic")
			}
			checkShape(t, req)
		})
	}
}

// ownedTables are the tables whose keys a policy writes whole.
var ownedTables = map[string]bool{tDSCPToTC: true, tDot1pToTC: true, tTCToQueue: true, tTCToPG: true,
	tPFCToQueue: true, tScheduler: true, tWRED: true, tQueue: true, tBufferProf: true}

// checkShape asserts the write discipline: whole keys are replaced only in owned tables, shared
// keys are written field by field, no path twice, every path below CONFIG_DB/localhost.
func checkShape(t *testing.T, req *gpb.SetRequest) {
	t.Helper()
	if req.GetPrefix().GetOrigin() != Origin {
		t.Errorf("prefix origin %q", req.GetPrefix().GetOrigin())
	}
	seen := map[string]bool{}
	all := append([]*gpb.Path(nil), req.Delete...)
	for _, u := range append(append([]*gpb.Update(nil), req.Replace...), req.Update...) {
		all = append(all, u.Path)
	}
	for _, p := range all {
		k := pathKey(p)
		if seen[k] {
			t.Errorf("%s is written twice", k)
		}
		seen[k] = true
		if _, _, _, err := split(p); err != nil {
			t.Error(err)
		}
	}
	for _, u := range req.Replace {
		table, _, field, _ := split(u.Path)
		if len(field) > 0 || !ownedTables[table] {
			t.Errorf("Replace of %s: only owned keys are replaced, whole", pathKey(u.Path))
		}
	}
	for _, u := range req.Update {
		if _, _, field, _ := split(u.Path); len(field) != 1 {
			t.Errorf("Update of %s: shared keys are written one field at a time", pathKey(u.Path))
		}
	}
	for _, p := range req.Delete {
		if table, _, field, _ := split(p); !ownedTables[table] && len(field) != 1 {
			t.Errorf("Delete of %s: a shared key loses only our fields", pathKey(p))
		}
	}
}

func TestBuildSetRenameAndUnbind(t *testing.T) {
	req, err := BuildSet(examplePolicy(), updatedPolicy(), stockRestore)
	if err != nil {
		t.Fatal(err)
	}
	out := renderSet(t, req)
	for _, want := range []string{
		// Ethernet4 is unbound: its AZURE fields come back, field by field.
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet4/dscp_to_tc_map = "AZURE"`,
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet4/pfc_enable = "3,4"`,
		`delete  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet4/dot1p_to_tc_map`,
		`replace /CONFIG_DB/localhost/QUEUE/Ethernet4|3 = {"scheduler":"[SCHEDULER|scheduler.1]","wred_profile":"AZURE_LOSSLESS"}`,
		`delete  /CONFIG_DB/localhost/QUEUE/Ethernet4|6`,
		// Ethernet8 is new; dscp_pcp binds both maps.
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet8/dot1p_to_tc_map = "ROCE"`,
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet8/pfc_enable = "3,4"`,
		`replace /CONFIG_DB/localhost/QUEUE/Ethernet8|4 = {"scheduler":"ROCE-storage","wred_profile":"ROCE-storage"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("update lacks %s\n%s", want, out)
		}
	}

	// A rename deletes every old object in the request that rebinds the ports to the new ones;
	// a prior value naming our own old objects counts as absent.
	restore := map[string]PortBinding{"Ethernet0": {QoSMap: map[string]string{fDSCPToTC: "ROCE", fPFCEnable: "3"},
		Queues: map[string]map[string]string{"6": {fScheduler: "ROCE-cnp", fWRED: "AZURE_LOSSLESS"}}}}
	req, err = BuildSet(examplePolicy(), nil, restore)
	if err != nil {
		t.Fatal(err)
	}
	out = renderSet(t, req)
	for _, want := range []string{
		`delete  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet0/dscp_to_tc_map`,
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet0/pfc_enable = "3"`,
		`replace /CONFIG_DB/localhost/QUEUE/Ethernet0|6 = {"wred_profile":"AZURE_LOSSLESS"}`,
		`delete  /CONFIG_DB/localhost/SCHEDULER/ROCE-cnp`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("delete lacks %s\n%s", want, out)
		}
	}
}

func TestBuildSetRejects(t *testing.T) {
	mod := func(f func(p *fabric.QoSPolicy)) *fabric.QoSPolicy { p := examplePolicy(); f(p); return p }
	class := func(p *fabric.QoSPolicy, n string, f func(c *fabric.Class)) {
		c := p.Classes[n]
		f(&c)
		p.Classes[n] = c
	}
	for name, tc := range map[string]struct {
		p    *fabric.QoSPolicy
		want string
	}{
		"mtu":          {mod(func(p *fabric.QoSPolicy) { class(p, "roce", func(c *fabric.Class) { c.MTU = ptr(9216) }) }), `classes["roce"].mtu: SONiC has no per-class MTU`},
		"dotted name":  {mod(func(p *fabric.QoSPolicy) { p.Name = "ro.ce" }), "name: SONiC names its QoS maps"},
		"long wred":    {mod(func(p *fabric.QoSPolicy) { p.Name = strings.Repeat("A", 30) }), "WRED_PROFILE|"},
		"dscp overlap": {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.DSCP = []int{26, 48} }) }), "DSCP 26 is used by classes"},
		"tc overlap":   {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.TrafficClass = 3 }) }), "traffic_class 3 is used"},
		"tc 8":         {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.TrafficClass = 8 }) }), "outside 0-7"},
		"weight 0":     {mod(func(p *fabric.QoSPolicy) { class(p, "roce", func(c *fabric.Class) { c.BandwidthPercent = ptr(0) }) }), "outside 1-100"},
		"max below min": {mod(func(p *fabric.QoSPolicy) {
			class(p, "roce", func(c *fabric.Class) { c.ECN = &fabric.ECN{MinThresholdBytes: 2, MaxThresholdBytes: 1} })
		}), "below min_threshold_bytes"},
		"both strict and bw": {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.BandwidthPercent = ptr(5) }) }), "exactly one"},
		"trust":              {mod(func(p *fabric.QoSPolicy) { p.Trust = "cos" }), "invalid trust"},
		"empty name":         {mod(func(p *fabric.QoSPolicy) { p.Name = "" }), "policy name is empty"},
	} {
		if _, err := BuildSet(nil, tc.p, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, tc.want)
		}
	}
	if _, err := BuildSet(nil, nil, nil); err == nil {
		t.Error("BuildSet(nil, nil) succeeded")
	}
}

func TestCheckSupported(t *testing.T) {
	p := examplePolicy()
	p.Trust = fabric.TrustDSCPPCP
	if got := CheckSupported(*p); len(got) != 0 {
		t.Errorf("example policy with trust dscp_pcp, pcp and lossless: %+v", got)
	}
	p.Name = "pol.1"
	roce := p.Classes["roce"]
	roce.MTU = ptr(9216)
	p.Classes["roce"] = roce
	var attrs []string
	for _, u := range CheckSupported(*p) {
		attrs = append(attrs, joinAttr(u.Attr))
		if u.Reason == "" {
			t.Errorf("%v: empty reason", u.Attr)
		}
	}
	if diff := cmp.Diff([]string{"name", `classes["roce"].mtu`}, attrs); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
}

func TestReadPaths(t *testing.T) {
	for _, got := range [][]*gpb.Path{ReadPaths(), PFCReadPaths("Ethernet0")} {
		if len(got) != 1 || got[0].Origin != "sonic-db" || pathKey(got[0]) != "/CONFIG_DB/localhost" {
			t.Errorf("read paths = %v", got)
		}
	}
	if got := pathKey(dbPath(tQueue, "Ethernet0|3", fScheduler)); got != "/CONFIG_DB/localhost/QUEUE/Ethernet0|3/scheduler" {
		t.Errorf("a key with | must be one element: %s", got)
	}
}

// A policy read back from a drifted switch (numbers read as Unknown) still works as a prior.
func TestBuildSetWithDriftedPrior(t *testing.T) {
	next := examplePolicy()
	prior := examplePolicy()
	prior.Classes = maps.Clone(prior.Classes)
	c := prior.Classes["roce"]
	c.ECN = &fabric.ECN{MinThresholdBytes: Unknown, MaxThresholdBytes: Unknown, MarkProbabilityPercent: Unknown}
	prior.Classes["roce"] = c
	prior.DefaultTrafficClass = Unknown
	if _, err := BuildSet(prior, next, nil); err != nil {
		t.Fatalf("update from a drifted prior: %v", err)
	}
	if _, err := BuildSet(prior, nil, nil); err != nil {
		t.Fatalf("delete of a drifted prior: %v", err)
	}
	if prior.Classes["roce"].ECN.MinThresholdBytes != Unknown {
		t.Error("BuildSet must not modify its prior")
	}
}
