package sonic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// sampleDB is the shared sample as one CONFIG_DB: part (A) (rendered config_db.json) with
// part (B) (the sonic-utilities Redis mock) merged in field by field.
func sampleDB(t *testing.T) fakeDB {
	t.Helper()
	nested, flat := sampleParts(t)
	d := fakeDB{}
	d.merge(nested)
	d.merge(flat)
	return d
}

// baseDB is the sample completed into a switch the test applier accepts: the excerpt has no
// PORT and no CABLE_LENGTH table (every switch has both), and (B) names a port scheduler and
// an ingress_lossy_pool its excerpt does not show. Ethernet4 repeats Ethernet0's stock QoS,
// as the rendered file does for every port; Ethernet8 has none.
func baseDB(t *testing.T) fakeDB {
	t.Helper()
	d := sampleDB(t)
	for _, port := range []string{"Ethernet0", "Ethernet4", "Ethernet8"} {
		d.setField(tPort, port, "speed", "100000")
		d.setField(tCableLength, "AZURE", port, "40m")
	}
	d.setField(tScheduler, "port_scheduler", "type", "STRICT")
	// The sample's lossless PGs (3-4, profile NULL) are the dynamic buffer model's.
	d.setField("DEVICE_METADATA", "localhost", "buffer_model", "dynamic")
	d.setField("BUFFER_POOL", "ingress_lossy_pool", "type", "ingress")
	for f, v := range d[tPortQoSMap]["Ethernet0"] {
		if f != "scheduler" {
			d.setField(tPortQoSMap, "Ethernet4", f, v)
		}
	}
	for f, v := range d[tQueue]["Ethernet0|3"] {
		d.setField(tQueue, "Ethernet4|3", f, v)
	}
	if err := d.validate(); err != nil {
		t.Fatalf("base database: %v", err)
	}
	return d
}

var azureEthernet0 = PortBinding{
	QoSMap:      map[string]string{fDSCPToTC: "AZURE", fTCToQueue: "AZURE", fTCToPG: "AZURE", fPFCToQueue: "AZURE", fPFCEnable: "3,4"},
	Queues:      map[string]map[string]string{"3": {fScheduler: "[SCHEDULER|scheduler.1]", fWRED: "AZURE_LOSSLESS"}},
	PGs:         map[string]string{"0": "ingress_lossy_profile", "3-4": "NULL"},
	PGsRecorded: true,
	// The sample's egress buffers: queues 3-4 on the lossless egress profile.
	QueueBuffers:         map[string]string{"3-4": "egress_lossless_profile"},
	QueueBuffersRecorded: true,
}

// azureEthernet4 is Ethernet4 of the sample switch: Ethernet0's QoS fields, no single-PG key,
// no egress buffer key.
var azureEthernet4 = PortBinding{QoSMap: azureEthernet0.QoSMap, Queues: azureEthernet0.Queues, PGsRecorded: true,
	QueueBuffersRecorded: true} // and no BUFFER_QUEUE key

// testdata/sonic-config_db-qos-1.json.txt is a real CONFIG_DB sample as is: its '#' lines name
// the sources (sonic-cfggen output of a real platform template, and
// the sonic-utilities CONFIG_DB mock).
func TestParseSample(t *testing.T) {
	d := sampleDB(t)
	db := d.dbOf(t)
	if diff := cmp.Diff(azureEthernet0, db.PortFields("Ethernet0")); diff != "" {
		t.Errorf("PortFields(Ethernet0) (-want +got):\n%s", diff)
	}
	if got := db.PortFields("Ethernet99"); got.QoSMap != nil || got.Queues != nil {
		t.Errorf("PortFields of a port without QoS = %+v", got)
	}
	// AZURE's objects do not follow our naming: no SCHEDULER|AZURE-<class>.
	for _, name := range []string{"AZURE", "scheduler", "ROCE", ""} {
		if p, ok := db.Policy(name); ok {
			t.Errorf("Policy(%q) = %+v, want not found", name, p)
		}
	}
	// Ethernet0's stock lossless PGs 3 and 4 (pfc_enable through the AZURE TC->PG map) sit in
	// the range key BUFFER_PG|Ethernet0|3-4.
	if got := db.losslessPGs("Ethernet0"); !cmp.Equal(got, []int{3, 4}) {
		t.Errorf("losslessPGs(Ethernet0) = %v", got)
	}
	if got := db.pgKeys("Ethernet0", []int{3, 4}); !cmp.Equal(got, []string{"Ethernet0|3-4"}) {
		t.Errorf("pgKeys = %v", got)
	}
	if got, _ := db.field(tPFCWatchdog, keyPFCWDGlobl, fPollInterval); got != "600" {
		t.Errorf("POLL_INTERVAL = %q", got)
	}
	if _, ok := db.PFC("Ethernet0"); ok {
		t.Error("PFC(Ethernet0) found, but the excerpt has no PORT table")
	}
	w := baseDB(t).dbOf(t)
	pfc, ok := w.PFC("Ethernet0")
	if !ok || pfc.Mode != "on" || pfc.Watchdog == nil || pfc.Watchdog.Action != "drop" ||
		pfc.Watchdog.DetectionTimeMs != 600 || pfc.Buffer == nil || *pfc.Buffer.CableLengthM != 40 || pfc.Buffer.XoffBytes != nil {
		t.Errorf("PFC(Ethernet0) of the stock switch = %+v, %v", pfc, ok)
	}
}

// The same entries reach ParseDB in every form a target may answer: the root nested or flat,
// a table, a key, a field (JSON_IETF or a plain string), lists and numbers.
func TestParseForms(t *testing.T) {
	_, flat := sampleParts(t)
	fromFlat := mustParse(t, rootUpdate(t, flat))
	if v, _ := fromFlat.ref(tQueue, "Ethernet0|3", fScheduler); v != "scheduler.1" {
		t.Errorf("flat form: QUEUE|Ethernet0|3.scheduler = %q", v)
	}
	path := func(names ...string) *gpb.Path {
		p := &gpb.Path{Origin: Origin}
		for _, n := range append([]string{"CONFIG_DB", "localhost"}, names...) {
			p.Elem = append(p.Elem, &gpb.PathElem{Name: n})
		}
		return p
	}
	js := func(s string) *gpb.TypedValue {
		return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(s)}}
	}
	db := mustParse(t,
		&gpb.Update{Path: path("PORT_QOS_MAP"), Val: js(`{"Ethernet0": {"pfc_enable": "3", "NULL": "NULL"}}`)},
		&gpb.Update{Path: path("QUEUE", "Ethernet0|3"), Val: js(`{"scheduler": "S", "wred_profile": null}`)},
		&gpb.Update{Path: path("PORT", "Ethernet0", "lanes"), Val: js(`["0", "1"]`)},
		&gpb.Update{Path: path("PORT", "Ethernet0", "mtu"), Val: js(`9100`)},
		&gpb.Update{Path: path("PORT", "Ethernet0", "admin_status"), Val: &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: "up"}}},
		&gpb.Update{Path: path("PORT", "Ethernet4"), Val: js(`{}`)},
	)
	want := map[string]map[string]map[string]string{
		tPortQoSMap: {"Ethernet0": {"pfc_enable": "3"}},
		tQueue:      {"Ethernet0|3": {"scheduler": "S"}},
		tPort:       {"Ethernet0": {"lanes": "0,1", "mtu": "9100", "admin_status": "up"}},
	}
	if diff := cmp.Diff(want, db.tables); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	for name, u := range map[string]*gpb.Update{
		"not json":         {Path: path(), Val: js(`{`)},
		"root not object":  {Path: path(), Val: js(`[1]`)},
		"entry not object": {Path: path("PORT", "Ethernet0"), Val: js(`"x"`)},
		"nested field":     {Path: path("PORT"), Val: js(`{"Ethernet0": {"a": {"b": "c"}}}`)},
		"other database":   {Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "APPL_DB"}, {Name: "localhost"}}}, Val: js(`{}`)},
		"too deep":         {Path: path("PORT", "Ethernet0", "mtu", "x"), Val: js(`"1"`)},
		"proto bytes":      {Path: path(), Val: &gpb.TypedValue{Value: &gpb.TypedValue_ProtoBytes{ProtoBytes: []byte{1}}}},
	} {
		if _, err := ParseDB([]*gpb.Update{u}); err == nil || !strings.HasPrefix(err.Error(), "sonic: parse CONFIG_DB") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestNormRef(t *testing.T) {
	for in, want := range map[string]string{
		"[SCHEDULER|scheduler.1]": "scheduler.1", "scheduler.1": "scheduler.1", "[AZURE]": "AZURE", "": "",
	} {
		if got := normRef(in); got != want {
			t.Errorf("normRef(%q) = %q, want %q", in, got, want)
		}
	}
}
