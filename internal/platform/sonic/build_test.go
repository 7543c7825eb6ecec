package sonic

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

// stockRestore is what Ethernet0 and Ethernet4 had before the policy: the stock AZURE binding.
var stockRestore = map[string]PortBinding{"Ethernet0": azureEthernet0, "Ethernet4": azureEthernet4}

func TestBuildSetGolden(t *testing.T) {
	for _, tc := range []fabrictest.GoldenStep{
		{"create.golden", nil, examplePolicy()},
		{"update.golden", examplePolicy(), updatedPolicy()},
		{"rename.golden", examplePolicy(), fabrictest.Renamed(examplePolicy(), "AI")},
		{"delete.golden", examplePolicy(), nil},
		{"noop.golden", examplePolicy(), examplePolicy()},
	} {
		t.Run(tc.Golden, func(t *testing.T) {
			// The sample switch, with the prior policy applied first.
			d := baseDB(t)
			if tc.Old != nil {
				d.set(t)(BuildSet(nil, tc.Old, nil, d.dbOf(t)))
			}
			before := d.dbOf(t)
			req, err := BuildSet(tc.Old, tc.Next, stockRestore, before)
			if err != nil {
				t.Fatal(err)
			}
			got := renderSet(t, req)
			golden(t, tc.Golden, got)
			again, _ := BuildSet(tc.Old, tc.Next, stockRestore, before)
			if renderSet(t, again) != got {
				t.Error("BuildSet is not deterministic")
			}
			checkShape(t, req, before)
			d.set(t)(req, nil)
		})
	}
}

// ownedTables are the tables whose keys a policy or a PFC interface writes whole.
var ownedTables = map[string]bool{tDSCPToTC: true, tDot1pToTC: true, tTCToQueue: true, tTCToPG: true,
	tPFCToQueue: true, tScheduler: true, tWRED: true, tQueue: true, tBufferProf: true}

// checkShape asserts the write discipline against the device before the request (before):
// no Replace (it fails where the target is absent); a table written whole only where it did not
// exist; a key written whole only in an owned table or where it did not exist; a field written
// or deleted only in a key that exists; a shared key deleted only when the request took its last
// field; no path twice; every path below CONFIG_DB/localhost.
func checkShape(t *testing.T, req *gpb.SetRequest, before *DB) {
	t.Helper()
	if req.GetPrefix().GetOrigin() != Origin {
		t.Errorf("prefix origin %q", req.GetPrefix().GetOrigin())
	}
	if len(req.Replace) > 0 {
		t.Errorf("Replace of %s: sonic-gnmi fails a Replace whose target is absent; write with Update", pathKey(req.Replace[0].Path))
	}
	seen := map[string]bool{}
	all := append([]*gpb.Path(nil), req.Delete...)
	for _, u := range req.Update {
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
	for _, u := range req.Update {
		table, key, field, _ := split(u.Path)
		_, keyExists := before.entry(table, key)
		switch {
		case key == "" && len(before.keys(table)) > 0:
			t.Errorf("Update of table %s: it exists, and an Update of a table replaces every key", table)
		case key != "" && len(field) == 0 && !ownedTables[table] && keyExists:
			t.Errorf("Update of %s: a shared key that exists is written field by field", pathKey(u.Path))
		case len(field) == 1 && !keyExists:
			t.Errorf("Update of %s: the key is absent, and a field Update needs its key", pathKey(u.Path))
		}
	}
	for _, p := range req.Delete {
		table, key, field, _ := split(p)
		if table == tBufferPG {
			// The policy removes only the lossless PG keys it added (removeAddedPGs), and
			// those hold NULL or the port's PFC profile.
			if v, _ := before.field(tBufferPG, key, fProfile); v != "NULL" && !strings.HasPrefix(v, "roce-") {
				t.Errorf("Delete of %s, whose profile %q is not one the provider wrote", pathKey(p), v)
			}
			continue
		}
		if table == tBufferQueue {
			checkQueueBufferDelete(t, req, before, key)
			continue
		}
		if key != "" && len(field) == 0 && !ownedTables[table] {
			e, _ := before.entry(table, key)
			for f := range e {
				if !seen[pathKey(dbPath(table, key, f))] && !slices.Contains(policyPortFields, f) && f != fPFCWDSwEnable {
					t.Errorf("Delete of %s takes field %s the request does not own", pathKey(p), f)
				}
			}
		}
	}
}

// checkQueueBufferDelete: a BUFFER_QUEUE key the policy deletes is either a split or restored
// range whose every queue the request writes under another key of the port, or a single-queue
// key on the lossless egress profile (one the policy added for a lossless queue).
func checkQueueBufferDelete(t *testing.T, req *gpb.SetRequest, before *DB, key string) {
	t.Helper()
	port, qi, _ := strings.Cut(key, "|")
	lo, hi, _ := queueRange(qi)
	if v, _ := before.field(tBufferQueue, key, fProfile); lo == hi && v == egressLosslessProfile {
		return
	}
	covered := map[int]bool{}
	for _, u := range req.Update {
		table, k, _, _ := split(u.Path)
		if p, q, _ := strings.Cut(k, "|"); table == tBufferQueue && p == port {
			l, h, _ := queueRange(q)
			for i := l; i <= h; i++ {
				covered[i] = true
			}
		}
	}
	for q := lo; q <= hi; q++ {
		if !covered[q] {
			t.Errorf("Delete of BUFFER_QUEUE %s leaves queue %d without the profile it had", key, q)
		}
	}
}

func TestBuildSetRenameAndUnbind(t *testing.T) {
	d := baseDB(t)
	d.set(t)(BuildSet(nil, examplePolicy(), nil, d.dbOf(t)))
	before := d.dbOf(t)
	req, err := BuildSet(examplePolicy(), updatedPolicy(), stockRestore, before)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, req, before)
	out := renderSet(t, req)
	for _, want := range []string{
		// Ethernet4 is unbound: its AZURE fields come back, field by field (the key exists).
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet4/dscp_to_tc_map = "AZURE"`,
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet4/pfc_enable = "3,4"`,
		`update  /CONFIG_DB/localhost/QUEUE/Ethernet4|3 = {"scheduler":"[SCHEDULER|scheduler.1]","wred_profile":"AZURE_LOSSLESS"}`,
		`delete  /CONFIG_DB/localhost/QUEUE/Ethernet4|6`,
		// Ethernet8 is new and has no PORT_QOS_MAP key: it is written whole (a field Update
		// would need the key); dscp_pcp binds both maps.
		`update  /CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet8 = {"dot1p_to_tc_map":"ROCE","dscp_to_tc_map":"ROCE","pfc_enable":"3,4",` +
			`"pfc_to_queue_map":"ROCE","tc_to_pg_map":"ROCE","tc_to_queue_map":"ROCE"}`,
		`update  /CONFIG_DB/localhost/QUEUE/Ethernet8|4 = {"scheduler":"ROCE-storage","wred_profile":"ROCE-storage"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("update lacks %s\n%s", want, out)
		}
	}
	d.set(t)(req, nil)

	// A delete restores what the ports had, except values naming this policy's own objects
	// (they are going away), which count as absent.
	d = baseDB(t)
	d.set(t)(BuildSet(nil, examplePolicy(), nil, d.dbOf(t)))
	restore := map[string]PortBinding{"Ethernet0": {QoSMap: map[string]string{fDSCPToTC: "ROCE", fPFCEnable: "3"},
		Queues: map[string]map[string]string{"6": {fScheduler: "ROCE-cnp", fWRED: "AZURE_LOSSLESS"}}}}
	before = d.dbOf(t)
	req, err = BuildSet(examplePolicy(), nil, restore, before)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, req, before)
	d.set(t)(req, nil)
	if _, ok := d[tPortQoSMap]["Ethernet0"][fDSCPToTC]; ok || d[tPortQoSMap]["Ethernet0"][fPFCEnable] != "3" {
		t.Errorf("PORT_QOS_MAP|Ethernet0 after delete = %v, want no dscp_to_tc_map and pfc_enable 3", d[tPortQoSMap]["Ethernet0"])
	}
	if !maps.Equal(d[tQueue]["Ethernet0|6"], map[string]string{fWRED: "AZURE_LOSSLESS"}) {
		t.Errorf("QUEUE|Ethernet0|6 after delete = %v", d[tQueue]["Ethernet0|6"])
	}
	if _, ok := d[tScheduler]["ROCE-cnp"]; ok {
		t.Error("SCHEDULER|ROCE-cnp survives the delete")
	}
}

func TestBuildSetRejects(t *testing.T) {
	build := func(old, next *fabric.QoSPolicy) error { _, err := BuildSet(old, next, nil, nil); return err }
	mod, class := fabrictest.PolicyEdits(examplePolicy)
	fabrictest.CheckRejects(t, build, map[string]fabrictest.RejectCase{
		"mtu":          {mod(func(p *fabric.QoSPolicy) { class(p, "roce", func(c *fabric.Class) { c.MTU = fabric.Ptr(9216) }) }), `classes["roce"].mtu: SONiC has no per-class MTU`},
		"dotted name":  {mod(func(p *fabric.QoSPolicy) { p.Name = "ro.ce" }), "name: SONiC names its QoS maps"},
		"long wred":    {mod(func(p *fabric.QoSPolicy) { p.Name = strings.Repeat("A", 30) }), "WRED_PROFILE|"},
		"dscp overlap": {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.DSCP = []int{26, 48} }) }), "DSCP 26 is used by classes"},
		"tc overlap":   {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.TrafficClass = 3 }) }), "traffic_class 3 is used"},
		"tc 8":         {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.TrafficClass = 8 }) }), "outside 0-7"},
		"weight 0": {mod(func(p *fabric.QoSPolicy) {
			class(p, "roce", func(c *fabric.Class) { c.BandwidthPercent = fabric.Ptr(0) })
		}), "outside 1-100"},
		"max below min": {mod(func(p *fabric.QoSPolicy) {
			class(p, "roce", func(c *fabric.Class) { c.ECN = &fabric.ECN{MinThresholdBytes: 2, MaxThresholdBytes: 1} })
		}), "below min_threshold_bytes"},
		"both strict and bw": {mod(func(p *fabric.QoSPolicy) {
			class(p, "cnp", func(c *fabric.Class) { c.BandwidthPercent = fabric.Ptr(5) })
		}), "exactly one"},
		"trust":      {mod(func(p *fabric.QoSPolicy) { p.Trust = "cos" }), "invalid trust"},
		"empty name": {mod(func(p *fabric.QoSPolicy) { p.Name = "" }), "policy name is empty"},
	})
}

func TestCheckSupported(t *testing.T) {
	p := examplePolicy()
	p.Trust = fabric.TrustDSCPPCP
	if got := CheckSupported(*p); len(got) != 0 {
		t.Errorf("example policy with trust dscp_pcp, pcp and lossless: %+v", got)
	}
	p.Name = "pol.1"
	roce := p.Classes["roce"]
	roce.MTU = fabric.Ptr(9216)
	p.Classes["roce"] = roce
	var attrs []string
	for _, u := range CheckSupported(*p) {
		attrs = append(attrs, fabric.AttrString(u.Attr))
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
	if _, err := BuildSet(prior, next, nil, baseDB(t).dbOf(t)); err != nil {
		t.Fatalf("update from a drifted prior: %v", err)
	}
	if _, err := BuildSet(prior, nil, nil, baseDB(t).dbOf(t)); err != nil {
		t.Fatalf("delete of a drifted prior: %v", err)
	}
	if prior.Classes["roce"].ECN.MinThresholdBytes != Unknown {
		t.Error("BuildSet must not modify its prior")
	}
}
