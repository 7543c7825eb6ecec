package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func policy() fabric.QoSPolicy {
	return fabric.QoSPolicy{Name: "ROCE", Trust: fabric.TrustDSCP, Classes: map[string]fabric.Class{
		"roce": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(100), Lossless: true},
	}}
}

func TestCheckQoSPolicyNamesDevicePlatformAndAttribute(t *testing.T) {
	probs := CheckQoSPolicy(devices.Device{Name: "leaf-1", Platform: "openconfig"}, policy())
	if len(probs) != 1 {
		t.Fatalf("want one problem (lossless), got %v", probs)
	}
	p := probs[0]
	if p.Path.String() != `classes["roce"].lossless` {
		t.Errorf("path = %s", p.Path)
	}
	for _, want := range []string{`"leaf-1"`, "openconfig", "PFC", "sonic, eos and nxos"} {
		if !strings.Contains(p.Detail, want) {
			t.Errorf("detail %q does not mention %s", p.Detail, want)
		}
	}
}

func TestCheckQoSPolicyOnPlatformsWithoutADriver(t *testing.T) {
	for platform, want := range map[string]string{
		"mlx5": "NIC host",
	} {
		probs := CheckQoSPolicy(devices.Device{Name: "d", Platform: platform}, policy())
		if len(probs) != 1 || probs[0].Path.String() != "device" {
			t.Fatalf("%s: want one problem on device, got %v", platform, probs)
		}
		if !strings.Contains(probs[0].Detail, want) || !strings.Contains(probs[0].Detail, "available on: openconfig, sonic, eos, nxos") {
			t.Errorf("%s: detail %q", platform, probs[0].Detail)
		}
	}
}

func TestForQoSPolicyUnknownDevice(t *testing.T) {
	reg := devices.NewRegistry(map[string]devices.Device{"leaf-1": {Name: "leaf-1", Platform: "openconfig", Address: "127.0.0.1:1"}}, nil)
	if _, err := ForQoSPolicy(reg, "leaf-2"); err == nil || !strings.Contains(err.Error(), "leaf-1") {
		t.Errorf("unknown device: %v", err)
	}
	if _, err := ForQoSPolicy(reg, "leaf-1"); err != nil {
		t.Errorf("openconfig device: %v", err)
	}
}

func TestDecodeOCPrior(t *testing.T) {
	p, err := decodeOCPrior(nil)
	if err != nil || p.Bindings == nil || len(p.Bindings) != 0 {
		t.Fatalf("no private state (import) must mean no bindings to restore: %+v %v", p, err)
	}
	p, err = decodeOCPrior(Prior(`{"bindings":{"Ethernet3":{"Classifier":"LEGACY"}}}`))
	if err != nil || p.Bindings["Ethernet3"].Classifier != "LEGACY" {
		t.Fatalf("got %+v %v", p, err)
	}
	if _, err := decodeOCPrior(Prior(`{`)); err == nil {
		t.Fatal("corrupt private state must be an error, not a silent reset")
	}
}

func TestCheckPFCInterfacePerPlatform(t *testing.T) {
	on := fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn}
	for platform, want := range map[string]string{
		"openconfig": "no PFC model",
		"mlx5":       "NIC host",
	} {
		probs := CheckPFCInterface(devices.Device{Name: "d", Platform: platform}, on)
		if len(probs) != 1 || probs[0].Path.String() != "device" || !strings.Contains(probs[0].Detail, want) {
			t.Errorf("%s: got %v, want one problem on device mentioning %q", platform, probs, want)
		}
	}
	if probs := CheckPFCInterface(devices.Device{Name: "d", Platform: "sonic"}, on); len(probs) != 0 {
		t.Errorf("sonic, mode on: %v", probs)
	}
	off := on
	off.Mode = fabric.PFCModeOff
	if probs := CheckPFCInterface(devices.Device{Name: "leaf", Platform: "sonic"}, off); len(probs) != 1 || probs[0].Path.String() != "mode" || !strings.Contains(probs[0].Detail, `"leaf"`) {
		t.Errorf("sonic, mode off: %v", probs)
	}
}

func TestKeepKnownFormShowsOnlyRealChanges(t *testing.T) {
	known := fabric.QoSPolicy{Name: "ROCE", Trust: fabric.TrustDSCP, Classes: map[string]fabric.Class{
		"roce":    {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(50), ECN: &fabric.ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}},
		"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: fabric.Ptr(50)},
	}}
	// The device as SONiC reads it back: the default class holds every unlisted DSCP, and an
	// operator changed the ECN minimum.
	var rest []int
	for d := 0; d < 64; d++ {
		if d != 26 {
			rest = append(rest, d)
		}
	}
	got := fabric.QoSPolicy{Name: "ROCE", Trust: fabric.TrustDSCP, Classes: map[string]fabric.Class{
		"roce":    {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(50), ECN: &fabric.ECN{MinThresholdBytes: 100000, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}},
		"default": {TrafficClass: 0, DSCP: rest, BandwidthPercent: fabric.Ptr(50)},
	}}
	out := keepKnownForm(known, got)
	if d := out.Classes["default"].DSCP; len(d) != 1 || d[0] != 0 {
		t.Errorf("the default class must keep its recorded DSCP list when the whole map agrees, got %v", d)
	}
	if out.Classes["roce"].ECN.MinThresholdBytes != 100000 {
		t.Errorf("the real change must show: ECN min = %d", out.Classes["roce"].ECN.MinThresholdBytes)
	}
	// DSCP 10 moved to the roce class on the device: the lists come from the device.
	var rest2 []int
	for _, d := range rest {
		if d != 10 {
			rest2 = append(rest2, d)
		}
	}
	roce := got.Classes["roce"]
	roce.DSCP = []int{10, 26}
	got.Classes["roce"] = roce
	got.Classes["default"] = fabric.Class{TrafficClass: 0, DSCP: rest2, BandwidthPercent: fabric.Ptr(50)}
	out = keepKnownForm(known, got)
	if d := out.Classes["roce"].DSCP; len(d) != 2 || len(out.Classes["default"].DSCP) != 62 {
		t.Errorf("a changed map must read as the device has it, got roce %v and %d default DSCPs", d, len(out.Classes["default"].DSCP))
	}
}

// A switch resource's write waits for the device's write turn: while another write holds it,
// a create gives up with its context instead of reading the device under that write. For
// SONiC, a policy and a PFC interface built on one CONFIG_DB read would each undo part of the
// other's change.
func TestWritesTakeTheDeviceTurn(t *testing.T) {
	reg := devices.NewRegistry(map[string]devices.Device{
		"leaf-1":  {Name: "leaf-1", Platform: "openconfig", Address: "127.0.0.1:1"},
		"sonic-1": {Name: "sonic-1", Platform: "sonic", Address: "127.0.0.1:1"},
	}, nil)
	qos, err := ForQoSPolicy(reg, "leaf-1")
	if err != nil {
		t.Fatal(err)
	}
	pfc, err := ForPFCInterface(reg, "sonic-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		device string
		write  func(context.Context) error
	}{
		{"leaf-1", func(ctx context.Context) error { _, err := qos.Create(ctx, fabric.QoSPolicy{Name: "p"}); return err }},
		{"sonic-1", func(ctx context.Context) error {
			return pfc.Delete(ctx, fabric.PFCInterface{Interface: "Ethernet0"}, nil)
		}},
	} {
		release, err := reg.Exclusive(context.Background(), c.device)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		err = c.write(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "waiting for another write to the device to finish") {
			t.Errorf("%s: a write while another holds the device: %v", c.device, err)
		}
		release(false)
		if release, err := reg.Exclusive(context.Background(), c.device); err != nil {
			t.Errorf("%s: the turn was not given back: %v", c.device, err)
		} else {
			release(false)
		}
	}
}
