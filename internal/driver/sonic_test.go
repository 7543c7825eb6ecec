package driver

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// sonicBase is a SONiC switch before the provider: Ethernet0 uses the AZURE maps and a
// scheduler on queue 3; Ethernet4 and Ethernet8 have nothing.
func sonicBase() *fakeConfigDB {
	return &fakeConfigDB{tables: map[string]map[string]map[string]string{
		"DEVICE_METADATA": {"localhost": {"hostname": "sonic-1"}},
		"PORT":            {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
		"DSCP_TO_TC_MAP":  {"AZURE": {"0": "0", "46": "5"}},
		"SCHEDULER":       {"scheduler.0": {"type": "DWRR", "weight": "14"}},
		"PORT_QOS_MAP":    {"Ethernet0": {"dscp_to_tc_map": "AZURE"}},
		"QUEUE":           {"Ethernet0|3": {"scheduler": "scheduler.0"}},
	}}
}

func sonicTest(db *fakeConfigDB, dev devices.Device) (*sonicQoS, sonicPFC) {
	s := sonicDB{db, newReads(testRegistry("sonic", dev), "sw")}
	return &sonicQoS{s}, sonicPFC{s}
}

func decodeSONiC(t *testing.T, raw Prior) sonicPrior {
	t.Helper()
	p, err := decodeSONiCPrior(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A policy's whole life on SONiC, against a CONFIG_DB that applies what it is sent: the
// policy reads back as written, each port's own maps and queues are recorded and come back
// when the policy lets the port go or is destroyed.
func TestSONiCPolicyLifecycle(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, _ := sonicTest(db, devices.Device{})
	v1 := rocePolicy("Ethernet0", "Ethernet4")
	raw, err := qos.Create(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	if len(db.sets) != 1 {
		t.Fatalf("create sent %d SetRequests, want one", len(db.sets))
	}
	prior := decodeSONiC(t, raw)
	if got := prior.Ports["Ethernet0"]; got.QoSMap["dscp_to_tc_map"] != "AZURE" || got.Queues["3"]["scheduler"] != "scheduler.0" {
		t.Errorf("Ethernet0's record %+v lacks its AZURE map or queue 3 scheduler", got)
	}
	got, err := qos.Read(ctx, "ROCE", nil)
	if err != nil || got == nil {
		t.Fatalf("read after create: %v %v", got, err)
	}
	if diff := cmp.Diff([]string{"Ethernet0", "Ethernet4"}, got.Interfaces); diff != "" {
		t.Errorf("bound ports (-want +got):\n%s", diff)
	}
	if again, err := qos.Read(ctx, "ROCE", &v1); err != nil || again == nil || !again.Equal(v1) {
		t.Errorf("the recorded policy reads back in its own form: %+v %v", again, err)
	}
	if _, err := qos.Create(ctx, v1); !errors.Is(err, ErrExists) {
		t.Errorf("a second create: %v, want ErrExists", err)
	}

	v2 := rocePolicy("Ethernet4", "Ethernet8")
	if raw, err = qos.Update(ctx, v1, v2, raw); err != nil {
		t.Fatal(err)
	}
	if m := db.tables["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"]; m != "AZURE" {
		t.Errorf("the port the update let go has map %q, want its AZURE back", m)
	}
	prior = decodeSONiC(t, raw)
	if _, ok := prior.Ports["Ethernet0"]; ok || len(prior.Ports) != 2 {
		t.Errorf("update's record %v: want Ethernet4 and Ethernet8 only", prior.Ports)
	}

	if err := qos.Delete(ctx, v2, raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.tables["DSCP_TO_TC_MAP"]["ROCE"]; ok {
		t.Error("delete left the policy's DSCP map")
	}
	for _, port := range []string{"Ethernet4", "Ethernet8"} {
		if m := db.tables["PORT_QOS_MAP"][port]["dscp_to_tc_map"]; m != "" {
			t.Errorf("delete left %s with map %q", port, m)
		}
	}
	if gone, err := qos.Read(ctx, "ROCE", nil); err != nil || gone != nil {
		t.Errorf("read after delete: %v %v", gone, err)
	}
}

// A refused Set records nothing and the next refresh reads the switch again.
func TestSONiCRefusedSet(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, _ := sonicTest(db, devices.Device{})
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	db.setErr = errors.New("set refused: invalid value")
	if raw, err := qos.Create(ctx, rocePolicy("Ethernet0")); !errors.Is(err, db.setErr) || raw != nil {
		t.Fatalf("refused create: %s %v", raw, err)
	}
	gets := db.gets
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	if db.gets != gets+1 {
		t.Error("the refresh after a write did not read the switch again")
	}
}

// An update that changes nothing sends nothing.
func TestSONiCNoOpUpdateSendsNothing(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, _ := sonicTest(db, devices.Device{})
	p := rocePolicy("Ethernet0")
	raw, err := qos.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := qos.Update(ctx, p, p, raw); err != nil {
		t.Fatal(err)
	}
	if len(db.sets) != 1 {
		t.Errorf("a no-op update sent %d more SetRequests", len(db.sets)-1)
	}
}

// PFC on a SONiC port: create records the port's fields and writes the mode; delete puts them
// back.
func TestSONiCPFCLifecycle(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, pfc := sonicTest(db, devices.Device{})
	if _, err := qos.Create(ctx, rocePolicy("Ethernet0")); err != nil {
		t.Fatal(err)
	}
	on := fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}}
	raw, err := pfc.Create(ctx, on)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pfc.Read(ctx, "Ethernet0", nil)
	if err != nil || got == nil || got.Watchdog == nil || got.Watchdog.Action != "drop" {
		t.Fatalf("read after create: %+v %v", got, err)
	}
	if _, err := decodePFCPrior(raw); err != nil || len(raw) == 0 {
		t.Fatalf("create recorded %s (%v)", raw, err)
	}
	if err := pfc.Delete(ctx, on, raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.tables["PFC_WD"]["Ethernet0"]; ok {
		t.Errorf("delete left the port's watchdog: %v", db.tables["PFC_WD"])
	}
	if gone, err := pfc.Read(ctx, "Ethernet9", nil); err != nil || gone != nil {
		t.Errorf("a port the switch lacks: %+v %v", gone, err)
	}
	if err := pfc.CheckIntent(ctx, on); err != nil {
		t.Errorf("no headroom: nothing to check, got %v", err)
	}
}
