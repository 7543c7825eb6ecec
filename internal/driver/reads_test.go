package driver

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// SONiC's LLDP read: hostname and ports from CONFIG_DB, neighbours from APPL_DB; a switch that
// heard no neighbour has no table (NotFound), which is no neighbour, not an error.
func TestSONiCLLDP(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	r := newReads(testRegistry("sonic", devices.Device{}), "sw")
	got, err := readSONiCLLDP(ctx, db, r)
	if err != nil {
		t.Fatal(err)
	}
	want := fabric.DeviceNeighbors{Hostname: "sonic-1", Interfaces: []string{"Ethernet0", "Ethernet4", "Ethernet8"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("no neighbours (-want +got):\n%s", diff)
	}
	db.other = map[string][]byte{"sonic-db:/APPL_DB/localhost/LLDP_ENTRY_TABLE": []byte(
		`{"Ethernet4": {"lldp_rem_sys_name": "host-1", "lldp_rem_port_id": "ens1f0", "lldp_rem_chassis_id": "aa:bb"}}`)}
	if got, err = readSONiCLLDP(ctx, db, r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]fabric.Neighbor{{Interface: "Ethernet4", SystemName: "host-1", PortID: "ens1f0", ChassisID: "aa:bb"}}, got.Neighbors); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	db.other["sonic-db:/APPL_DB/localhost/LLDP_ENTRY_TABLE"] = []byte(`[`)
	if _, err := readSONiCLLDP(ctx, db, r); err == nil {
		t.Error("an unreadable LLDP table must be an error")
	}
}

// OpenConfig's LLDP read: neither LLDP state nor a hostname is an empty read.
func TestOpenConfigLLDPWithoutState(t *testing.T) {
	got, err := readOpenConfigLLDP(context.Background(), &fakeConfigDB{}, newReads(testRegistry("openconfig", devices.Device{}), "sw"))
	if err != nil || got.Hostname != "" || len(got.Neighbors) != 0 {
		t.Errorf("got %+v %v", got, err)
	}
}

// The audit of a CLI switch is its effective policy per bound port, from the snapshot the
// refreshes share.
func TestCLIAudit(t *testing.T) {
	ctx := context.Background()
	sw := eosSwitchFake(eosWithROCE)
	qos, _ := eosTest(sw, devices.Device{})
	f, err := qos.audit(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	bound := map[string]string{}
	for _, p := range f.Policies {
		if p.Device != "sw" {
			t.Errorf("policy of device %q", p.Device)
		}
		for _, port := range p.Policy.Interfaces {
			bound[port] = p.Policy.Name
		}
	}
	if bound["Ethernet1"] != "ROCE" || bound["Ethernet2"] != "ROCE" {
		t.Errorf("effective bindings %v: want ROCE on Ethernet1 and Ethernet2", bound)
	}
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	if len(sw.shown) != 1 {
		t.Errorf("the audit and a refresh read the switch %d times, want once", len(sw.shown))
	}

	nx := nxosSwitchFake(nxosIPQoS)
	nqos, _ := nxosTest(nx, devices.Device{})
	// NX-OS prints only ports with QoS lines: Ethernet1/1 is covered because it is asked for.
	nf, err := nqos.audit(ctx, []string{"Ethernet1/1"})
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]string{}
	for _, p := range nf.PFC {
		modes[p.PFC.Interface] = p.PFC.Mode
	}
	if _, ok := modes["Ethernet1/1"]; !ok || modes["Ethernet1/3"] != fabric.PFCModeOn {
		t.Errorf("nxos effective PFC %v: want Ethernet1/1 (asked for) and Ethernet1/3 on", modes)
	}
}

// The dispatch table: a platform's plan-time check and its driver come from one row.
func TestDispatchTableRows(t *testing.T) {
	for _, platform := range devices.Platforms {
		d := platforms[platform]
		if (d.qos == nil) != (d.checkQoS == nil) {
			t.Errorf("%s: roce_qos_policy driver and check disagree", platform)
		}
		if (d.pfc == nil) != (d.checkPFC == nil) {
			t.Errorf("%s: roce_pfc_interface driver and check disagree", platform)
		}
		if d.qos == nil && d.whyNoQoS == "" && platform != "mlx5" {
			t.Logf("%s has no roce_qos_policy and says no why", platform)
		}
	}
	reg := testRegistry("sonic", devices.Device{})
	if got := AuditDevices(reg); len(got) != 1 || got[0] != "sw" {
		t.Errorf("AuditDevices = %v", got)
	}
	if got := LLDPDevices(reg); len(got) != 1 {
		t.Errorf("LLDPDevices = %v", got)
	}
	if _, err := ForCounters(reg, "sw"); err != nil {
		t.Errorf("sonic's counters read: %v", err)
	}
	if _, err := ForCounters(testRegistry("junos", devices.Device{}), "sw"); err == nil ||
		err.Error() != `device "sw" has platform junos, whose counters this provider version cannot read yet` {
		t.Errorf("counters of a platform without a read: %v", err)
	}
	if _, err := Audit(context.Background(), testRegistry("none", devices.Device{}), "sw", nil); err == nil ||
		err.Error() != `device "sw" has platform none, whose configuration this provider version cannot audit yet (it can: cumulus, eos, mlx5, nxos, openconfig, sonic)` {
		t.Errorf("audit of an unknown platform: %v", err)
	}
	if probs := CheckHostDevice(devices.Device{Name: "sw", Platform: "eos"}, "roce_nic_qos"); len(probs) != 1 {
		t.Errorf("a host resource on a switch: %v", probs)
	}
	if _, err := ForNICQoS(reg, "sw"); err == nil {
		t.Error("roce_nic_qos on a switch must fail")
	}
}
