package driver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// eosBase is an EOS switch before the provider: Ethernet2 has the LEGACY profile, Ethernet3
// a profile of its own and a PFC watchdog, the maps a CoS 5 and a DSCP 46 entry.
const eosBase = `! Command: show running-config
hostname eos-1
!
qos profile LEGACY
   qos trust cos
!
qos profile OTHER
   qos trust dscp
!
interface Ethernet1
!
interface Ethernet2
   service-profile LEGACY
!
interface Ethernet3
   service-profile OTHER
   flowcontrol receive off
   priority-flow-control pause watchdog
   priority-flow-control pause watchdog port action notify-only
   priority-flow-control pause watchdog port timer timeout 0.50 polling-interval 0.10 recovery-time 2.00 forced
!
interface Ethernet4
!
qos map cos 5 to traffic-class 4
qos map dscp 46 to traffic-class 6
!
end
`

// eosWithROCE is eosBase after a create of policy ROCE on Ethernet1 and Ethernet2.
const eosWithROCE = `! Command: show running-config
hostname eos-1
!
qos profile LEGACY
   qos trust cos
!
qos profile OTHER
   qos trust dscp
!
qos profile ROCE
   qos trust dscp
   tx-queue 0
      bandwidth percent 50
      no priority
   tx-queue 3
      bandwidth percent 50
      no priority
   priority-flow-control priority 3 no-drop
!
interface Ethernet1
   service-profile ROCE
!
interface Ethernet2
   service-profile ROCE
!
interface Ethernet3
   service-profile OTHER
!
interface Ethernet4
!
qos map dscp 26 to traffic-class 3
!
end
`

const eosVersion = `{"modelName": "DCS-7050CX3-32S", "version": "4.31.2F", "imageOptimization": "None"}`

func eosSwitchFake(running string) *fakeCLI {
	return &fakeCLI{answers: map[string]string{"show running-config": running, "show version | json": eosVersion}}
}

func eosTest(f *fakeCLI, dev devices.Device) (cliQoS[*eos.Config, eos.PolicyPrior, eos.PFCPrior], cliPFC[*eos.Config, eos.PolicyPrior, eos.PFCPrior]) {
	return cliTest(f, "eos", dev, eosCLI())
}

func rocePolicy(ports ...string) fabric.QoSPolicy {
	return fabric.QoSPolicy{Name: "ROCE", Trust: fabric.TrustDSCP, Interfaces: ports, Classes: map[string]fabric.Class{
		"roce":    {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(50), Lossless: true},
		"default": {TrafficClass: 0, BandwidthPercent: fabric.Ptr(50)},
	}}
}

// A policy's whole life on EOS: create records each bound port's service-profile and the
// global maps, update keeps what it recorded and takes over a newly bound port's profile,
// delete puts every port's own profile back and removes the policy's.
func TestEOSPolicyLifecycle(t *testing.T) {
	ctx := context.Background()
	sw := eosSwitchFake(eosBase)
	qos, _ := eosTest(sw, devices.Device{})
	v1 := rocePolicy("Ethernet1", "Ethernet2")

	raw, err := qos.Create(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"show running-config", "show version | json"}}, sw.shown); diff != "" {
		t.Errorf("create read (-want +got):\n%s", diff)
	}
	lines := sw.lastSent(t)
	wantLines(t, "create", block(lines, "qos profile ROCE"), "qos trust dscp", "priority-flow-control priority 3 no-drop")
	wantLines(t, "create", block(lines, "interface Ethernet2"), "service-profile ROCE")
	wantLines(t, "create", block(lines, "interface Ethernet1"), "service-profile ROCE")
	// Strata (DCS-7050): uc-tx-queue, not tx-queue.
	wantLines(t, "create", block(lines, "qos profile ROCE"), "uc-tx-queue 3")
	prior := mustPrior[eos.PolicyPrior](t, raw)
	if diff := cmp.Diff(map[string]string{"Ethernet1": "", "Ethernet2": "LEGACY"}, prior.ServiceProfiles); diff != "" {
		t.Errorf("recorded service-profiles (-want +got):\n%s", diff)
	}
	if prior.COSToTC[5] != 4 || prior.DSCPToTC[46] != 6 {
		t.Errorf("the recorded maps lost the switch's own entries: cos %v dscp[46] %d", prior.COSToTC, prior.DSCPToTC[46])
	}

	// The switch now has ROCE on Ethernet1 and 2; the update moves it to Ethernet2 and 3.
	sw.answers["show running-config"] = eosWithROCE
	v2 := rocePolicy("Ethernet2", "Ethernet3")
	raw, err = qos.Update(ctx, v1, v2, raw)
	if err != nil {
		t.Fatal(err)
	}
	lines = sw.lastSent(t)
	wantLines(t, "update", block(lines, "interface Ethernet1"), "no service-profile")
	wantLines(t, "update", block(lines, "interface Ethernet3"), "service-profile ROCE")
	prior = mustPrior[eos.PolicyPrior](t, raw)
	// Ethernet2 reads ROCE now, but what destroy restores is what it had before create.
	if diff := cmp.Diff(map[string]string{"Ethernet2": "LEGACY", "Ethernet3": "OTHER"}, prior.ServiceProfiles); diff != "" {
		t.Errorf("update's record (-want +got):\n%s", diff)
	}

	// The switch now has ROCE on Ethernet2 and 3.
	sw.answers["show running-config"] = strings.NewReplacer("Ethernet1\n   service-profile ROCE", "Ethernet1",
		"service-profile OTHER", "service-profile ROCE").Replace(eosWithROCE)
	if err := qos.Delete(ctx, v2, raw); err != nil {
		t.Fatal(err)
	}
	lines = sw.lastSent(t)
	wantLines(t, "delete", block(lines, "interface Ethernet2"), "service-profile LEGACY")
	wantLines(t, "delete", block(lines, "interface Ethernet3"), "service-profile OTHER")
	wantLines(t, "delete", lines, "no qos profile ROCE", "qos map dscp 46 to traffic-class 6")
	if block(lines, "interface Ethernet1") != nil {
		t.Errorf("delete touched Ethernet1, which the policy no longer binds:\n%s", strings.Join(lines, "\n"))
	}
}

// An imported policy has nothing recorded: delete restores the EOS defaults (no profile, the
// default maps), not whatever the switch has now.
func TestEOSPolicyDeleteAfterImport(t *testing.T) {
	sw := eosSwitchFake(eosWithROCE)
	qos, _ := eosTest(sw, devices.Device{})
	if err := qos.Delete(context.Background(), rocePolicy("Ethernet1", "Ethernet2"), nil); err != nil {
		t.Fatal(err)
	}
	lines := sw.lastSent(t)
	wantLines(t, "delete", block(lines, "interface Ethernet1"), "no service-profile")
	wantLines(t, "delete", block(lines, "interface Ethernet2"), "no service-profile")
	noLines(t, "delete", lines, "qos map dscp 46 to traffic-class 6")
}

func TestEOSPolicyRead(t *testing.T) {
	ctx := context.Background()
	sw := eosSwitchFake(eosWithROCE)
	qos, _ := eosTest(sw, devices.Device{})
	got, err := qos.Read(ctx, "ROCE", nil)
	if err != nil || got == nil {
		t.Fatalf("read: %v %v", got, err)
	}
	if diff := cmp.Diff([]string{"Ethernet1", "Ethernet2"}, got.Interfaces); diff != "" {
		t.Errorf("bound ports (-want +got):\n%s", diff)
	}
	var lossless []int
	for _, c := range got.Classes {
		if c.Lossless {
			lossless = append(lossless, c.TrafficClass)
		}
	}
	if diff := cmp.Diff([]int{3}, lossless); diff != "" {
		t.Errorf("lossless traffic classes (-want +got):\n%s", diff)
	}
	// The recorded form comes back where the switch holds the same settings.
	if again, err := qos.Read(ctx, "ROCE", got); err != nil || again != got {
		t.Errorf("a read that matches the record returns it: %v %v", again, err)
	}
	if gone, err := qos.Read(ctx, "NOPE", nil); err != nil || gone != nil {
		t.Errorf("a policy the switch lacks reads as absent: %v %v", gone, err)
	}
	if len(sw.shown) != 1 {
		t.Errorf("three refreshes read the switch %d times, want once (the snapshot)", len(sw.shown))
	}
}

// A write drops the device's snapshot, refused or not, so the next refresh reads the switch.
func TestEOSWriteDropsTheSnapshot(t *testing.T) {
	ctx := context.Background()
	sw := eosSwitchFake(eosBase)
	qos, _ := eosTest(sw, devices.Device{})
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	refused := &cli.Error{Device: "sw", Op: "configure", Line: "qos profile ROCE", Rejected: true, RolledBack: true, Output: "% Invalid input"}
	sw.configErr = refused
	raw, err := qos.Create(ctx, rocePolicy("Ethernet1"))
	if !errors.Is(err, refused) || raw != nil {
		t.Fatalf("a refused create: %s %v, want no record and the switch's refusal", raw, err)
	}
	if _, ok := Applied(err); ok {
		t.Error("a refusal is not a warning")
	}
	before := len(sw.shown)
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	if len(sw.shown) != before+1 {
		t.Errorf("the refresh after a write did not read the switch again")
	}
}

// A change committed but not saved is recorded (its prior) and comes back as a warning.
func TestEOSNotSavedKeepsThePrior(t *testing.T) {
	sw := eosSwitchFake(eosBase)
	sw.configErr = &cli.Error{Device: "sw", Op: "configure", Line: "write memory", NotSaved: true, Err: errors.New("disk full")}
	qos, _ := eosTest(sw, devices.Device{})
	raw, err := qos.Create(context.Background(), rocePolicy("Ethernet2"))
	if what, ok := Applied(err); !ok || what != "applied but not saved" {
		t.Fatalf("want the not-saved warning, got %v", err)
	}
	if got := mustPrior[eos.PolicyPrior](t, raw).ServiceProfiles["Ethernet2"]; got != "LEGACY" {
		t.Errorf("the warned create recorded %q for Ethernet2, want LEGACY", got)
	}
}

// What the switch cannot take is refused before anything is sent: a port it lacks (the error
// lists those it has), a name it already has, a model of another family than it reports.
func TestEOSRefusesBeforeSending(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		dev  devices.Device
		p    fabric.QoSPolicy
		want string
		is   error
	}{
		{"missing port", devices.Device{}, rocePolicy("Ethernet9"),
			`device "sw" has no interface Ethernet9 (it has Ethernet1, Ethernet2, Ethernet3, Ethernet4); nothing was changed`, nil},
		{"exists", devices.Device{}, fabric.QoSPolicy{Name: "LEGACY", Trust: fabric.TrustDSCP}, "", ErrExists},
		{"other family", devices.Device{Model: "DCS-7280SR3-48YC8"}, rocePolicy("Ethernet1"),
			`the configuration says model "DCS-7280SR3-48YC8" (sand), but the switch reports "DCS-7050CX3-32S" (strata)`, nil},
		{"unknown model", devices.Device{Model: "XYZ-1"}, rocePolicy("Ethernet1"), `model "XYZ-1" is not an EOS model`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw := eosSwitchFake(eosBase)
			qos, _ := eosTest(sw, tc.dev)
			_, err := qos.Create(ctx, tc.p)
			switch {
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Errorf("got %v, want %v", err, tc.is)
			case tc.is == nil && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
			if len(sw.sent) != 0 {
				t.Errorf("sent %v", sw.sent)
			}
		})
	}
}

// A switch whose model says no family takes the configured model's.
func TestEOSConfiguredModelPinsTheFamily(t *testing.T) {
	sw := eosSwitchFake(eosBase)
	sw.answers["show version | json"] = `{"modelName": "DCS-9999", "version": "4.33.1F", "imageOptimization": "Default"}`
	qos, _ := eosTest(sw, devices.Device{})
	if _, err := qos.Create(context.Background(), rocePolicy("Ethernet1")); err == nil || !strings.Contains(err.Error(), "set the device's model") {
		t.Fatalf("an unknown family without a configured model: %v", err)
	}
	qos, _ = eosTest(sw, devices.Device{Model: "DCS-7280SR3-48YC8"})
	if _, err := qos.Create(context.Background(), rocePolicy("Ethernet1")); err != nil {
		t.Fatal(err)
	}
	// Sand: tx-queue.
	wantLines(t, "create", block(sw.lastSent(t), "qos profile ROCE"), "tx-queue 3")
}

// PFC on an EOS port: create records the port's own lines (the watchdog it had), delete puts
// them back without reading the switch, and after an import puts back the EOS defaults.
func TestEOSPFCLifecycle(t *testing.T) {
	ctx := context.Background()
	sw := eosSwitchFake(eosBase)
	_, pfc := eosTest(sw, devices.Device{})
	on := fabric.PFCInterface{Interface: "Ethernet3", Mode: fabric.PFCModeOn,
		Watchdog: &fabric.PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}}
	raw, err := pfc.Create(ctx, on)
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, "create", block(sw.lastSent(t), "interface Ethernet3"), "priority-flow-control on",
		"priority-flow-control pause watchdog port action drop")
	var prior eos.PFCPrior
	if err := json.Unmarshal(raw, &prior); err != nil || prior.Watchdog == nil || prior.FlowReceive != "off" {
		t.Fatalf("create recorded %s (%v): want the port's flowcontrol and watchdog", raw, err)
	}

	reads := len(sw.shown)
	if err := pfc.Delete(ctx, on, raw); err != nil {
		t.Fatal(err)
	}
	if len(sw.shown) != reads {
		t.Errorf("delete read the switch: %v", sw.shown[reads:])
	}
	wantLines(t, "delete", block(sw.lastSent(t), "interface Ethernet3"), "no priority-flow-control on",
		"flowcontrol receive off", "priority-flow-control pause watchdog port action notify-only")

	if err := pfc.Delete(ctx, on, nil); err != nil {
		t.Fatal(err)
	}
	noLines(t, "delete after import", sw.lastSent(t), "flowcontrol receive off",
		"priority-flow-control pause watchdog port action notify-only")

	if _, err := pfc.Create(ctx, fabric.PFCInterface{Interface: "Ethernet9", Mode: fabric.PFCModeOn}); err == nil ||
		!strings.Contains(err.Error(), "has no interface Ethernet9") {
		t.Errorf("a port the switch lacks: %v", err)
	}
	if _, err := pfc.Update(ctx, on, on, Prior("{")); err == nil {
		t.Error("corrupt private state must be an error, not a silent reset")
	}
}

// An update that starts managing the watchdog records what the port has then (it had none at
// create).
func TestEOSPFCUpdateAdoptsTheWatchdog(t *testing.T) {
	ctx := context.Background()
	sw := eosSwitchFake(eosBase)
	_, pfc := eosTest(sw, devices.Device{})
	plain := fabric.PFCInterface{Interface: "Ethernet1", Mode: fabric.PFCModeOn}
	raw, err := pfc.Create(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	var prior eos.PFCPrior
	if err := json.Unmarshal(raw, &prior); err != nil || prior.Watchdog != nil {
		t.Fatalf("a create without a watchdog recorded one: %s %v", raw, err)
	}
	// Someone set a watchdog on the port since.
	sw.answers["show running-config"] = strings.Replace(eosBase, "interface Ethernet1\n",
		"interface Ethernet1\n   priority-flow-control pause watchdog\n", 1)
	dog := plain
	dog.Watchdog = &fabric.PFCWatchdog{Action: "drop"}
	if raw, err = pfc.Update(ctx, plain, dog, raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &prior); err != nil || prior.Watchdog == nil {
		t.Fatalf("the update that manages the watchdog did not record the port's: %s %v", raw, err)
	}
}

func TestEOSPFCRead(t *testing.T) {
	sw := eosSwitchFake(eosBase)
	_, pfc := eosTest(sw, devices.Device{PerResourceReads: true})
	got, err := pfc.Read(context.Background(), "Ethernet3", nil)
	if err != nil || got == nil || got.Watchdog == nil {
		t.Fatalf("read: %+v %v", got, err)
	}
	if _, err := pfc.Read(context.Background(), "Ethernet3", nil); err != nil {
		t.Fatal(err)
	}
	if len(sw.shown) != 2 {
		t.Errorf("with per_resource_reads each refresh reads the switch: %d reads", len(sw.shown))
	}
}
