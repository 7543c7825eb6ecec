package sonic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

func examplePFC() *fabric.PFCInterface {
	return &fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn,
		Buffer:   &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(122880)), XonBytes: fabric.Ptr(int64(61440)), CableLengthM: fabric.Ptr(100)},
		Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogForward, DetectionTimeMs: 600, RestorationTimeMs: 1200}}
}

// updatedPFC changes the headroom and the watchdog and leaves the cable length unmanaged.
func updatedPFC() *fabric.PFCInterface {
	return &fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn,
		Buffer:   &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(150000)), XonBytes: fabric.Ptr(int64(1))},
		Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop, DetectionTimeMs: 800, RestorationTimeMs: 2000}}
}

// withPolicy is the sample switch with the example policy bound to Ethernet0 and Ethernet4.
func withPolicy(t *testing.T) fakeDB {
	t.Helper()
	d := baseDB(t)
	p := examplePolicy()
	d.set(t)(BuildSet(nil, p, priorOf(d.dbOf(t), p), d.dbOf(t)))
	return d
}

func TestBuildPFCSetGolden(t *testing.T) {
	for _, tc := range []struct {
		golden      string
		prior, next *fabric.PFCInterface
	}{
		{"pfc-create.golden", nil, examplePFC()},
		{"pfc-update.golden", examplePFC(), updatedPFC()},
		{"pfc-delete.golden", examplePFC(), nil},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			// The sample switch with the policy bound, and the prior PFC interface applied.
			d := withPolicy(t)
			prior := d.dbOf(t).PFCPrior("Ethernet0", *examplePFC())
			if tc.prior != nil {
				d.set(t)(BuildPFCSet("Ethernet0", nil, tc.prior, d.dbOf(t), prior))
			}
			db := d.dbOf(t)
			req, err := BuildPFCSet("Ethernet0", tc.prior, tc.next, db, prior)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, renderSet(t, req))
			checkShape(t, req, db)
			d.set(t)(req, nil)
			for _, u := range req.Update {
				if _, _, f, _ := split(u.Path); len(f) == 1 && f[0] == fPFCEnable {
					t.Errorf("roce_pfc_interface writes the policy's %s", pathKey(u.Path))
				}
			}
		})
	}
}

// create, update and delete on the switch the policy configured: each reads back as written,
// and delete restores every field the interface wrote.
func TestPFCRoundTrip(t *testing.T) {
	d := withPolicy(t)
	before := d.clone()
	next, upd := examplePFC(), updatedPFC()
	prior := d.dbOf(t).PFCPrior("Ethernet0", *next)
	d.set(t)(BuildPFCSet("Ethernet0", nil, next, d.dbOf(t), prior))
	checkPFC(t, d, next)

	prior = prior.Merge(d.dbOf(t).PFCPrior("Ethernet0", *upd))
	d.set(t)(BuildPFCSet("Ethernet0", next, upd, d.dbOf(t), prior))
	want := *upd
	want.Buffer = &fabric.PFCBuffer{XoffBytes: upd.Buffer.XoffBytes, XonBytes: upd.Buffer.XonBytes, CableLengthM: fabric.Ptr(40)}
	checkPFC(t, d, &want) // the cable length went back to the stock 40m once unmanaged

	d.set(t)(BuildPFCSet("Ethernet0", upd, nil, d.dbOf(t), prior))
	if diff := cmp.Diff(before, d); diff != "" {
		t.Errorf("delete does not restore the port (-before +after):\n%s", diff)
	}
	// Without a recorded prior (after import) delete removes the fields it wrote; a lossless
	// PG's key goes back to the computed headroom (NULL) on the dynamic model.
	d.set(t)(BuildPFCSet("Ethernet0", nil, next, d.dbOf(t), PFCPrior{}))
	d.set(t)(BuildPFCSet("Ethernet0", next, nil, d.dbOf(t), PFCPrior{}))
	if _, ok := d[tPFCWatchdog]["Ethernet0"][fWDAction]; ok || d[tBufferPG]["Ethernet0|3"][fProfile] != "NULL" {
		t.Errorf("delete without prior left PFC_WD %v, BUFFER_PG %v", d[tPFCWatchdog]["Ethernet0"], d[tBufferPG]["Ethernet0|3"])
	}
}

func checkPFC(t *testing.T, d fakeDB, want *fabric.PFCInterface) {
	t.Helper()
	got, ok := d.dbOf(t).PFC(want.Interface)
	if !ok {
		t.Fatalf("PFC(%s) not found", want.Interface)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PFC(%s) (-want +got):\n%s", want.Interface, diff)
	}
}

// A policy and a PFC interface on the same port, applied in either order and deleted in either
// order: each delete leaves the other resource's fields as they were, and the last one leaves
// the switch as it found it.
func TestPolicyAndPFCShareAPort(t *testing.T) {
	// Lossless TC 3 sits in the stock 3-4 PG key; lossless TC 5 has no key until the policy (or
	// the PFC interface) makes one, on the dynamic buffer model.
	tc5 := examplePolicy()
	roce := tc5.Classes["roce"]
	roce.TrafficClass = 5
	tc5.Classes["roce"] = roce
	for _, pol := range []*fabric.QoSPolicy{examplePolicy(), tc5} {
		for _, order := range []struct{ apply, remove string }{
			{"policy,pfc", "policy,pfc"}, {"policy,pfc", "pfc,policy"},
			{"pfc,policy", "policy,pfc"}, {"pfc,policy", "pfc,policy"},
		} {
			testPolicyAndPFCShareAPort(t, pol, order.apply, order.remove)
		}
	}
}

func testPolicyAndPFCShareAPort(t *testing.T, pol *fabric.QoSPolicy, applyOrder, removeOrder string) {
	t.Helper()
	order := struct{ apply, remove string }{applyOrder, removeOrder}
	{
		t.Run(fmt.Sprintf("TC %d apply %s delete %s", pol.Classes["roce"].TrafficClass, order.apply, order.remove), func(t *testing.T) {
			base := baseDB(t)
			d := base.clone()
			p, pfc := pol, examplePFC()
			var restore map[string]PortBinding
			var prior PFCPrior
			var pfcFields []PriorField
			for _, step := range strings.Split(order.apply, ",") {
				db := d.dbOf(t)
				if step == "policy" {
					restore = priorOf(db, p)
					d.set(t)(BuildSet(nil, p, restore, d.dbOf(t)))
					continue
				}
				prior = db.PFCPrior("Ethernet0", *pfc)
				d.set(t)(BuildPFCSet("Ethernet0", nil, pfc, db, prior))
				pfcFields = current(d, prior)
			}
			// Whichever came first, both read back as configured: the PFC interface's watchdog
			// stays on the port's no-drop priorities when the policy changes them.
			checkPFC(t, d, pfc)
			checkRead(t, d, p)
			policyRead, _ := d.dbOf(t).Policy(p.Name)
			for i, step := range strings.Split(order.remove, ",") {
				if step == "policy" {
					d.set(t)(BuildSet(p, nil, restore, d.dbOf(t)))
				} else {
					d.set(t)(BuildPFCSet("Ethernet0", pfc, nil, d.dbOf(t), prior))
				}
				if i > 0 {
					continue
				}
				if step == "policy" {
					// The PFC interface keeps its settings; only its watchdog's priorities and its
					// headroom's PG keys follow the restored no-drop priorities.
					checkPFC(t, d, pfc)
					for i, f := range current(d, prior) {
						if f.Field != fPFCWDSwEnable && f.Table != tBufferPG && !cmp.Equal(f, pfcFields[i]) {
							t.Errorf("deleting the policy changed the PFC interface's %s|%s.%s", f.Table, f.Key, f.Field)
						}
					}
					if _, ok := d[tBufferProf][bufferProfileName("Ethernet0", 122880, 61440)]; !ok {
						t.Error("deleting the policy removed the PFC interface's buffer profile")
					}
				} else if got, _ := d.dbOf(t).Policy(p.Name); !cmp.Equal(policyRead, got) {
					t.Errorf("deleting the PFC interface changed the policy: %s", cmp.Diff(policyRead, got))
				}
			}
			if diff := cmp.Diff(base, d); diff != "" {
				t.Errorf("both deleted (-before +after):\n%s", diff)
			}
		})
	}
}

// current reads the fields a PFCPrior lists, as the device has them now.
func current(d fakeDB, p PFCPrior) []PriorField {
	var out []PriorField
	for _, f := range p.Fields {
		c := PriorField{Table: f.Table, Key: f.Key, Field: f.Field}
		if v, ok := d[f.Table][f.Key][f.Field]; ok {
			c.Value = &v
		}
		out = append(out, c)
	}
	return out
}

func TestCheckPFC(t *testing.T) {
	p := *examplePFC()
	if got := CheckPFC(p); len(got) != 0 {
		t.Errorf("example: %+v", got)
	}
	p.Mode, p.LinkPause = fabric.PFCModeAuto, true
	p.Buffer = &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(1))}
	var attrs []string
	for _, u := range CheckPFC(p) {
		attrs = append(attrs, fabric.AttrString(u.Attr)+": "+u.Reason)
	}
	for i, want := range []string{"mode: SONiC has no DCBX", "link_pause: SONiC CONFIG_DB has no 802.3x", "buffer.xon_bytes: SONiC BUFFER_PROFILE takes xon and xoff together"} {
		if i >= len(attrs) || !strings.HasPrefix(attrs[i], want) {
			t.Errorf("CheckPFC[%d] = %v, want %q", i, attrs, want)
		}
	}
	p = *examplePFC()
	p.Mode = fabric.PFCModeOff
	if u := CheckPFC(p); len(u) != 1 || !strings.Contains(u[0].Reason, "unbind the port from the policy") {
		t.Errorf("mode off: %+v", u)
	}
	p = *examplePFC()
	p.Watchdog = &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}
	u := CheckPFC(p)
	if len(u) != 2 || fabric.AttrString(u[0].Attr) != "watchdog.detection_time_ms" || fabric.AttrString(u[1].Attr) != "watchdog.restoration_time_ms" ||
		!strings.Contains(u[0].Reason, "PFC_WD") {
		t.Errorf("watchdog without times on sonic: %+v", u)
	}
}

func TestCheckPFCAgainst(t *testing.T) {
	db := baseDB(t).dbOf(t)
	mod, _ := fabrictest.PFCEdits(examplePFC)
	for name, tc := range map[string]struct {
		p    fabric.PFCInterface
		want string
	}{
		"below poll": {mod(func(p *fabric.PFCInterface) { p.Watchdog.DetectionTimeMs = 200 }),
			`watchdog.detection_time_ms 200 is below the device's PFC watchdog poll interval (PFC_WD|GLOBAL.POLL_INTERVAL = "600" ms)`},
		"restoration below poll": {mod(func(p *fabric.PFCInterface) { p.Watchdog.RestorationTimeMs = 500 }), "watchdog.restoration_time_ms 500"},
		"no port":                {mod(func(p *fabric.PFCInterface) { p.Interface = "Ethernet99" }), "no PORT|Ethernet99"},
		"no lossless":            {mod(func(p *fabric.PFCInterface) { p.Interface = "Ethernet8" }), "bind a roce_qos_policy with a lossless class"},
		"mode off":               {mod(func(p *fabric.PFCInterface) { p.Mode = fabric.PFCModeOff }), "mode: SONiC has no PFC switch"},
	} {
		if err := CheckPFCAgainst(tc.p, db); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, tc.want)
		}
	}
	if err := CheckPFCAgainst(*examplePFC(), db); err != nil {
		t.Errorf("example on the stock switch: %v", err)
	}
	if _, err := BuildPFCSet("Ethernet4", nil, examplePFC(), db, PFCPrior{}); err == nil {
		t.Error("BuildPFCSet accepted an interface built for another port")
	}
	if _, err := BuildPFCSet("Ethernet0", nil, nil, db, PFCPrior{}); err == nil {
		t.Error("BuildPFCSet(nil, nil) succeeded")
	}
}

// Drift the PFC read shows: a buffer profile not as written reads an Unknown xoff; a watchdog
// whose pfcwd_sw_enable misses a no-drop priority reads no action.
func TestPFCReadDrift(t *testing.T) {
	d := withPolicy(t)
	next := examplePFC()
	d.set(t)(BuildPFCSet("Ethernet0", nil, next, d.dbOf(t), d.dbOf(t).PFCPrior("Ethernet0", *next)))
	d.setField(tBufferProf, bufferProfileName("Ethernet0", 122880, 61440), "size", "1")
	d.setField(tPortQoSMap, "Ethernet0", fPFCWDSwEnable, "4")
	got, _ := d.dbOf(t).PFC("Ethernet0")
	if *got.Buffer.XoffBytes != Unknown || got.Watchdog.Action != "" {
		t.Errorf("drifted PFC read = %+v %+v", got.Buffer, got.Watchdog)
	}
}

// On the traditional buffer model buffermgrd owns the lossless PGs' profile: an explicit
// headroom is refused before anything is written, the cable length alone is built; a switch
// without buffer_model is traditional (buffermgrd.sh runs the dynamic manager only for
// "dynamic").
func TestTraditionalBufferModelRefusesHeadroom(t *testing.T) {
	d := withPolicy(t)
	for _, model := range []string{"traditional", ""} {
		if model == "" {
			delete(d["DEVICE_METADATA"]["localhost"], "buffer_model")
		} else {
			d.setField("DEVICE_METADATA", "localhost", "buffer_model", model)
		}
		db := d.dbOf(t)
		if got := db.BufferModel(); got != "traditional" {
			t.Errorf("buffer_model %q reads as %q", model, got)
		}
		if _, err := BuildPFCSet("Ethernet0", nil, examplePFC(), db, PFCPrior{}); err == nil || !strings.Contains(err.Error(), "traditional buffer model") {
			t.Errorf("buffer_model %q: a headroom is built: %v", model, err)
		}
		cableOnly := &fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn, Buffer: &fabric.PFCBuffer{CableLengthM: fabric.Ptr(40)}}
		if _, err := BuildPFCSet("Ethernet0", nil, cableOnly, db, PFCPrior{}); err != nil {
			t.Errorf("buffer_model %q: the cable length alone is refused: %v", model, err)
		}
	}
	// Dynamic with a shared headroom pool (the lossless pool carries the xoff): not exact.
	d.setField("DEVICE_METADATA", "localhost", "buffer_model", "dynamic")
	d.setField("BUFFER_POOL", losslessPool, "xoff", "4194112")
	if _, err := BuildPFCSet("Ethernet0", nil, examplePFC(), d.dbOf(t), PFCPrior{}); err == nil || !strings.Contains(err.Error(), "shared headroom pool") {
		t.Errorf("a headroom on a shared headroom pool is built: %v", err)
	}
}

// A new headroom is a new profile the PGs move to, the old one deleted in the same request: a
// real switch's GCU refuses a change of an existing profile's xon or size
// (buffer_profile_config_update_validator takes only dynamic_th and xoff field changes). A
// profile of the older name (roce-<port>-lossless) is ours too and goes the same way.
func TestPFCHeadroomUpdateIsANewProfile(t *testing.T) {
	d := withPolicy(t)
	next, upd := examplePFC(), updatedPFC()
	prior := d.dbOf(t).PFCPrior("Ethernet0", *next)
	d.set(t)(BuildPFCSet("Ethernet0", nil, next, d.dbOf(t), prior))
	before := d.dbOf(t)
	req, err := BuildPFCSet("Ethernet0", next, upd, before, prior)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range req.Update {
		if table, key, field, _ := split(u.Path); table == tBufferProf && (len(field) > 0 || key == bufferProfileName("Ethernet0", 122880, 61440)) {
			t.Errorf("the update changes the existing profile: %s", pathKey(u.Path))
		}
	}
	d.set(t)(req, nil)
	if _, ok := d[tBufferProf][bufferProfileName("Ethernet0", 122880, 61440)]; ok {
		t.Error("the old headroom's profile is left")
	}
	checkPFC(t, d, &fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn,
		Buffer:   &fabric.PFCBuffer{XoffBytes: upd.Buffer.XoffBytes, XonBytes: upd.Buffer.XonBytes, CableLengthM: fabric.Ptr(40)},
		Watchdog: upd.Watchdog})
	// A profile under the older name is ours: read, and replaced on the next write.
	d.remove(tBufferProf, bufferProfileName("Ethernet0", 150000, 1))
	d.setField(tBufferProf, "roce-Ethernet0-lossless", "pool", losslessPool)
	for f, v := range map[string]string{"xoff": "150000", "xon": "1", "size": "150001", "dynamic_th": "0"} {
		d.setField(tBufferProf, "roce-Ethernet0-lossless", f, v)
	}
	d.setField(tBufferPG, "Ethernet0|3", fProfile, "roce-Ethernet0-lossless")
	if got, _ := d.dbOf(t).PFC("Ethernet0"); got.Buffer == nil || *got.Buffer.XoffBytes != 150000 {
		t.Errorf("a profile of the older name reads %+v", got.Buffer)
	}
	d.set(t)(BuildPFCSet("Ethernet0", upd, next, d.dbOf(t), prior))
	if _, ok := d[tBufferProf]["roce-Ethernet0-lossless"]; ok {
		t.Error("the profile of the older name is left after a new headroom")
	}
}
