package driver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
)

// nxosIPQoS is a Nexus before the provider: Ethernet1/2 has the LEGACY qos policy, Ethernet1/3
// PFC with an ingress queuing policy of its own.
const nxosIPQoS = `!Command: show running-config ipqos

version 10.3(4a) Bios:version 05.47

class-map type qos match-any LEGACY-voice
  match dscp 46
policy-map type qos LEGACY
  class LEGACY-voice
    set qos-group 5
policy-map type queuing LEGACY-in
  class type queuing c-in-q5
    pause buffer-size 100000 pause-threshold 60000 resume-threshold 40000

interface Ethernet1/2
  service-policy type qos input LEGACY

interface Ethernet1/3
  priority-flow-control mode on send-tlv
  flowcontrol receive off
  service-policy type queuing input LEGACY-in
`

const nxosVersion = "Cisco Nexus Operating System (NX-OS) Software\n  cisco Nexus9000 C93180YC-FX Chassis\n"

// nxosSwitchFake answers the show commands of a switch holding ipqos (for the running-config
// and the ports' own sections: a port's section is its block in ipqos, or the bare interface).
func nxosSwitchFake(ipqos string) *fakeCLI {
	f := &fakeCLI{answers: map[string]string{}}
	f.set(ipqos)
	return f
}

func (f *fakeCLI) set(ipqos string) {
	f.answers["show version"] = nxosVersion
	f.answers["show running-config ipqos"] = ipqos
	f.answers["show running-config"] = ipqos
	for _, port := range []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"} {
		section := "interface " + port + "\n"
		if i := strings.Index(ipqos, "\n"+section); i >= 0 {
			section = ipqos[i+1:]
			if j := strings.Index(section, "\n\n"); j >= 0 {
				section = section[:j+1]
			}
		}
		f.answers["show running-config interface "+port] = section
	}
}

func nxosTest(f *fakeCLI, dev devices.Device) (cliQoS[*nxos.Config, nxos.PolicyPrior, nxos.PFCPrior], cliPFC[*nxos.Config, nxos.PolicyPrior, nxos.PFCPrior]) {
	return cliTest(f, "nxos", dev, nxosCLI())
}

// A policy's whole life on NX-OS: create reads ipqos and the bound ports, records each port's
// service-policies; update keeps the record and takes over a newly bound port's; delete gives
// every port its own policy back.
func TestNXOSPolicyLifecycle(t *testing.T) {
	ctx := context.Background()
	sw := nxosSwitchFake(nxosIPQoS)
	qos, _ := nxosTest(sw, devices.Device{})
	v1 := rocePolicy("Ethernet1/1", "Ethernet1/2")
	raw, err := qos.Create(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"show version", "show running-config ipqos", "show running-config interface Ethernet1/1",
		"show running-config interface Ethernet1/2"}}
	if diff := cmp.Diff(want, sw.shown); diff != "" {
		t.Errorf("create read (-want +got):\n%s", diff)
	}
	lines := sw.lastSent(t)
	wantLines(t, "create", lines, "policy-map type qos ROCE", "policy-map type network-qos ROCE-nq", "system qos")
	wantLines(t, "create", block(lines, "interface Ethernet1/2"), "service-policy type qos input ROCE")
	prior := mustPrior[nxos.PolicyPrior](t, raw)
	if diff := cmp.Diff(map[string]nxos.PortPolicies{"Ethernet1/1": {}, "Ethernet1/2": {QoSInput: "LEGACY"}}, prior.Ports); diff != "" {
		t.Errorf("recorded ports (-want +got):\n%s", diff)
	}

	// The switch has ROCE on Ethernet1/1 and 1/2 now.
	created := strings.Replace(nxosIPQoS, "\ninterface Ethernet1/2\n  service-policy type qos input LEGACY\n",
		"\ninterface Ethernet1/1\n  service-policy type qos input ROCE\n\ninterface Ethernet1/2\n  service-policy type qos input ROCE\n", 1)
	sw.set(created)
	v2 := rocePolicy("Ethernet1/2", "Ethernet1/3")
	if raw, err = qos.Update(ctx, v1, v2, raw); err != nil {
		t.Fatal(err)
	}
	wantLines(t, "update", block(sw.lastSent(t), "interface Ethernet1/1"), "no service-policy type qos input ROCE")
	prior = mustPrior[nxos.PolicyPrior](t, raw)
	if diff := cmp.Diff(map[string]nxos.PortPolicies{"Ethernet1/2": {QoSInput: "LEGACY"}, "Ethernet1/3": {}}, prior.Ports); diff != "" {
		t.Errorf("update's record (-want +got):\n%s", diff)
	}

	if err := qos.Delete(ctx, v2, raw); err != nil {
		t.Fatal(err)
	}
	wantLines(t, "delete", block(sw.lastSent(t), "interface Ethernet1/2"), "service-policy type qos input LEGACY")
	sw.set(created + "policy-map type qos ROCE\n  class class-default\n    set qos-group 0\n")
	if err := qos.Delete(ctx, v2, raw); err != nil {
		t.Fatal(err)
	}
	wantLines(t, "delete", sw.lastSent(t), "no policy-map type qos ROCE")
}

// What the switch cannot take is refused before anything is sent: a port it lacks (with the
// switch's answer), a name it has, a Nexus 3000, a network-qos policy the provider did not
// write.
func TestNXOSRefusesBeforeSending(t *testing.T) {
	ctx := context.Background()
	foreign := nxosIPQoS + "policy-map type network-qos SITE-nq\n  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n" +
		"system qos\n  service-policy type network-qos SITE-nq\n"
	for _, tc := range []struct {
		name, ipqos, version string
		dev                  devices.Device
		p                    fabric.QoSPolicy
		want                 string
	}{
		{"missing port", nxosIPQoS, "", devices.Device{}, rocePolicy("Ethernet1/9"),
			`device "sw" has no interface Ethernet1/9 (the switch answered "% Invalid command at '^' marker."); nothing was changed`},
		{"exists", nxosIPQoS, "", devices.Device{}, fabric.QoSPolicy{Name: "LEGACY", Trust: fabric.TrustDSCP}, ErrExists.Error()},
		{"nexus 3000", nxosIPQoS, "  cisco Nexus 3064 Chassis\n", devices.Device{}, rocePolicy("Ethernet1/1"), `device "sw": `},
		{"configured nexus 3000", nxosIPQoS, "", devices.Device{Model: "N3K-C3064PQ-10GX"}, rocePolicy("Ethernet1/1"), `device "sw": `},
		{"foreign network-qos", foreign, "", devices.Device{}, rocePolicy("Ethernet1/1"), "system qos already binds network-qos policy SITE-nq"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw := nxosSwitchFake(tc.ipqos)
			if tc.version != "" {
				sw.answers["show version"] = tc.version
			}
			qos, _ := nxosTest(sw, tc.dev)
			if _, err := qos.Create(ctx, tc.p); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
			if len(sw.sent) != 0 {
				t.Errorf("sent %v", sw.sent)
			}
		})
	}
}

// An update after an import (nothing recorded) takes over system qos's queuing policy, unless
// it is the policy's own, so destroy puts the switch's back.
func TestNXOSUpdateAfterImportAdoptsSystemQueuing(t *testing.T) {
	sw := nxosSwitchFake(nxosIPQoS + "policy-map type queuing SITE-out\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 100\n" +
		"system qos\n  service-policy type queuing output SITE-out\n")
	qos, _ := nxosTest(sw, devices.Device{})
	p := rocePolicy("Ethernet1/1")
	raw, err := qos.Update(context.Background(), p, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustPrior[nxos.PolicyPrior](t, raw).QueuingOutput; got != "SITE-out" {
		t.Errorf("recorded system queuing %q, want SITE-out", got)
	}
}

// nxosLossless binds a network-qos policy that pauses traffic class 3.
const nxosLossless = "policy-map type network-qos ROCE-nq\n  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216\n" +
	"system qos\n  service-policy type network-qos ROCE-nq\n"

// PFC on an NX-OS port: the ingress queuing policy is the port's own, and delete (which reads
// the port) gives the port the one it had.
func TestNXOSPFCLifecycle(t *testing.T) {
	ctx := context.Background()
	sw := nxosSwitchFake(nxosIPQoS)
	_, pfc := nxosTest(sw, devices.Device{})
	on := fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: "drop"},
		Buffer: &fabric.PFCBuffer{XoffBytes: fabric.Ptr[int64](122880), XonBytes: fabric.Ptr[int64](61440)}}
	// A headroom needs a lossless class: without one nothing is sent, and the refusal says so
	// (fabric.NeedsLossless: the write waits for the policy beside it).
	if _, err := pfc.Create(ctx, on); !isNeedsLossless(err) || len(sw.sent) != 0 {
		t.Fatalf("a buffer without a lossless class: %v, sent %v", err, sw.sent)
	}
	sw.set(nxosIPQoS + nxosLossless)
	raw, err := pfc.Create(ctx, on)
	if err != nil {
		t.Fatal(err)
	}
	lines := sw.lastSent(t)
	wantLines(t, "create", block(lines, "interface Ethernet1/3"), "priority-flow-control mode on send-tlv",
		"no service-policy type queuing input LEGACY-in", "service-policy type queuing input roce-in-Ethernet1_3")
	var prior nxos.PFCPrior
	if err := json.Unmarshal(raw, &prior); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(nxos.PFCPrior{Mode: "on send-tlv", FlowReceive: "off", QueuingInput: "LEGACY-in"}, prior); diff != "" {
		t.Errorf("recorded (-want +got):\n%s", diff)
	}

	sw.set(strings.Replace(nxosIPQoS, "service-policy type queuing input LEGACY-in", "service-policy type queuing input roce-in-Ethernet1_3", 1) +
		nxosLossless + "policy-map type queuing roce-in-Ethernet1_3\n  class type queuing c-in-q3\n    pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440\n")
	reads := len(sw.shown)
	if err := pfc.Delete(ctx, on, raw); err != nil {
		t.Fatal(err)
	}
	if len(sw.shown) != reads+1 {
		t.Errorf("delete read the switch %d times, want once", len(sw.shown)-reads)
	}
	lines = sw.lastSent(t)
	wantLines(t, "delete", block(lines, "interface Ethernet1/3"), "service-policy type queuing input LEGACY-in")
	wantLines(t, "delete", lines, "no policy-map type queuing roce-in-Ethernet1_3")

	if err := pfc.Delete(ctx, on, nil); err != nil {
		t.Fatal(err)
	}
	noLines(t, "delete after import", sw.lastSent(t), "service-policy type queuing input LEGACY-in")
}

// A port the switch does not have reads as absent (the resource is gone), with
// per_resource_reads too, where the switch refuses to show it.
func TestNXOSPFCReadMissingPort(t *testing.T) {
	for _, perResource := range []bool{false, true} {
		sw := nxosSwitchFake(nxosIPQoS)
		_, pfc := nxosTest(sw, devices.Device{PerResourceReads: perResource})
		got, err := pfc.Read(context.Background(), "Ethernet1/9", nil)
		if err != nil || got != nil {
			t.Errorf("per_resource_reads %v: %+v %v", perResource, got, err)
		}
		got, err = pfc.Read(context.Background(), "Ethernet1/3", nil)
		if err != nil || got == nil || got.Mode != fabric.PFCModeOn {
			t.Errorf("per_resource_reads %v: Ethernet1/3 reads %+v %v", perResource, got, err)
		}
	}
	sw := &fakeCLI{answers: map[string]string{}}
	_, pfc := nxosTest(sw, devices.Device{})
	if _, err := pfc.Read(context.Background(), "Ethernet1/3", nil); err == nil {
		t.Error("a switch that refuses show running-config must fail the read")
	}
}
