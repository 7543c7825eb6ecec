package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

// priorOf records every port's settings before p binds them, as a driver does on create.
func priorOf(db *DB, p *fabric.QoSPolicy) map[string]PortBinding {
	out := map[string]PortBinding{}
	for _, port := range p.Interfaces {
		out[port] = db.PortFields(port)
	}
	return out
}

// checkRead asserts that the device reads back exactly Canonical(want).
func checkRead(t *testing.T, d fakeDB, want *fabric.QoSPolicy) {
	t.Helper()
	got, ok := d.dbOf(t).Policy(want.Name)
	if !ok {
		t.Fatalf("Policy(%q) not found after apply", want.Name)
	}
	if diff := cmp.Diff(Canonical(*want), *got); diff != "" {
		t.Errorf("Policy(%q) (-want canonical +got):\n%s", want.Name, diff)
	}
}

// Each policy is created on the sample switch, read back, and deleted; delete leaves the
// database exactly as it was (the ports' stock AZURE settings back).
func TestRoundTrip(t *testing.T) {
	allDSCP := examplePolicy()
	allDSCP.DefaultTrafficClass = 5 // no class has TC 5, but no DSCP is left for it
	roce := allDSCP.Classes["roce"]
	roce.DSCP = nil
	for d := 1; d < 64; d++ {
		if d != 48 {
			roce.DSCP = append(roce.DSCP, d)
		}
	}
	allDSCP.Classes["roce"] = roce
	pcp := examplePolicy()
	pcp.Trust = fabric.TrustPCP
	pcp.DefaultTrafficClass = 1 // no class has TC 1: unlisted DSCPs and PCPs go there
	noECN := examplePolicy()
	for n, c := range noECN.Classes {
		c.ECN, c.PCP, c.Lossless = nil, nil, false
		noECN.Classes[n] = c
	}
	noECN.Interfaces = []string{"Ethernet8"}
	for name, p := range map[string]*fabric.QoSPolicy{
		"contract example, lossless": examplePolicy(),
		"updated, dscp_pcp":          updatedPolicy(),
		"trust pcp":                  pcp,
		"classes without ECN":        noECN,
		"all 64 DSCPs":               allDSCP,
	} {
		t.Run(name, func(t *testing.T) {
			roundTrip(t, baseDB(t), p, func(d fakeDB) { checkRead(t, d, p) })
		})
	}
}

// roundTrip creates p on base, runs check on the result, deletes p, and requires base back
// byte for byte.
func roundTrip(t *testing.T, base fakeDB, p *fabric.QoSPolicy, check func(fakeDB)) {
	t.Helper()
	d := base.clone()
	restore := priorOf(d.dbOf(t), p)
	d.set(t)(BuildSet(nil, p, restore, d.dbOf(t)))
	check(d)
	deleteRestores(t, base, d, p, restore, "delete")
}

// deleteRestores deletes p from d and requires base back byte for byte; what names the
// delete in a failure.
func deleteRestores(t *testing.T, base, d fakeDB, p *fabric.QoSPolicy, restore map[string]PortBinding, what string) {
	t.Helper()
	d.set(t)(BuildSet(p, nil, restore, d.dbOf(t)))
	if diff := cmp.Diff(base, d); diff != "" {
		t.Errorf("%s does not restore the switch (-before +after):\n%s", what, diff)
	}
}

// An update reads back as the new policy; the port it unbinds gets its stock AZURE fields and
// queues back; the port it binds records its prior first.
func TestRoundTripUpdateUnbinds(t *testing.T) {
	base := baseDB(t)
	d := base.clone()
	old, next := examplePolicy(), updatedPolicy()
	restore := priorOf(d.dbOf(t), old)
	d.set(t)(BuildSet(nil, old, restore, d.dbOf(t)))
	restore["Ethernet8"] = d.dbOf(t).PortFields("Ethernet8")
	d.set(t)(BuildSet(old, next, restore, d.dbOf(t)))
	checkRead(t, d, next)
	db := d.dbOf(t)
	if diff := cmp.Diff(azureEthernet4, db.PortFields("Ethernet4")); diff != "" {
		t.Errorf("unbound Ethernet4 (-stock +now):\n%s", diff)
	}
	deleteRestores(t, base, d, next, restore, "delete after update")
}

// A rename moves every object and binding in one request; the old name is gone.
func TestRoundTripRename(t *testing.T) {
	base := baseDB(t)
	d := base.clone()
	old, next := examplePolicy(), fabrictest.Renamed(examplePolicy(), "AI")
	restore := priorOf(d.dbOf(t), old)
	d.set(t)(BuildSet(nil, old, restore, d.dbOf(t)))
	d.set(t)(BuildSet(old, next, restore, d.dbOf(t)))
	checkRead(t, d, next)
	if p, ok := d.dbOf(t).Policy("ROCE"); ok {
		t.Errorf("Policy(ROCE) after the rename = %+v", p)
	}
	deleteRestores(t, base, d, next, restore, "delete after rename")
}

// A policy bound to no port has no QUEUE entry telling its classes' traffic classes, and with
// DOT1P_TO_TC_MAP no trust either: they read Unknown unless the state supplies them.
func TestRoundTripUnbound(t *testing.T) {
	d := baseDB(t)
	p := examplePolicy()
	p.Interfaces = nil
	d.set(t)(BuildSet(nil, p, nil, d.dbOf(t)))
	db := d.dbOf(t)
	blind, ok := db.Policy("ROCE")
	if !ok || blind.Classes["roce"].TrafficClass != Unknown || blind.Trust != "" {
		t.Errorf("unbound Policy(ROCE) without state = %+v", blind)
	}
	got, _ := db.PolicyWith("ROCE", p)
	if diff := cmp.Diff(Canonical(*p), *got); diff != "" {
		t.Errorf("PolicyWith(state) (-want +got):\n%s", diff)
	}
	// The state cannot hide a change the device shows: a changed DSCP map reads as it is.
	d[tDSCPToTC]["ROCE"]["26"] = "0"
	got, _ = d.dbOf(t).PolicyWith("ROCE", p)
	if got.Classes["roce"].DSCP != nil {
		t.Errorf("roce DSCPs after the map changed = %v", got.Classes["roce"].DSCP)
	}
}

// Drift the device shows: a port whose binding is partial drops out of interfaces; a WRED
// profile that no longer marks every colour reads an Unknown probability; a partial DSCP map
// reads an Unknown default.
func TestReadDrift(t *testing.T) {
	d := baseDB(t)
	p := examplePolicy()
	d.set(t)(BuildSet(nil, p, priorOf(d.dbOf(t), p), d.dbOf(t)))
	d.setField(tQueue, "Ethernet4|3", fWRED, "AZURE_LOSSLESS")
	d.setField(tWRED, "ROCE-roce", "ecn", "ecn_green")
	delete(d[tDSCPToTC]["ROCE"], "63")
	got, _ := d.dbOf(t).Policy("ROCE")
	if !cmp.Equal(got.Interfaces, []string{"Ethernet0"}) || got.Classes["roce"].ECN.MarkProbabilityPercent != Unknown ||
		got.DefaultTrafficClass != Unknown {
		t.Errorf("drifted policy read = %+v, roce %+v", got, got.Classes["roce"])
	}
	d.setField(tTCToQueue, "ROCE", "7", "0")
	if got, _ := d.dbOf(t).Policy("ROCE"); got.Interfaces != nil {
		t.Errorf("with a non-identity TC_TO_QUEUE_MAP no port counts as bound: %v", got.Interfaces)
	}
}

func TestCanonical(t *testing.T) {
	got := Canonical(*examplePolicy())
	if got.DefaultTrafficClass != 0 || len(got.Classes["default"].DSCP) != 62 ||
		!cmp.Equal(got.Classes["default"].PCP, []int{0, 1, 2, 4, 5, 6, 7}) || !cmp.Equal(got.Classes["cnp"].PCP, []int{}) {
		t.Errorf("Canonical(example) = %+v", got)
	}
	if p := examplePolicy(); len(p.Classes["default"].DSCP) != 1 || p.Classes["cnp"].PCP != nil {
		t.Error("Canonical modified its input")
	}
}
