package driver

import (
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
)

// The platforms' own bookkeeping: EOS keeps the global maps and the bound ports'
// service-profiles; NX-OS takes system qos's queuing policy over once (after an import) unless
// it is the policy's own, and keeps the network-qos policy it replaced.
func TestCLIPlatformsKeepWhatTheyReplaced(t *testing.T) {
	e := eosDialect{}
	ep := eos.PolicyPrior{TCToQueue: [8]int{7}, ServiceProfiles: map[string]string{"Ethernet1": "OLD"}}
	e.adoptPolicy(&ep, eos.PolicyPrior{ServiceProfiles: map[string]string{"Ethernet1": "ROCE", "Ethernet2": "B"}},
		fabric.QoSPolicy{}, fabric.QoSPolicy{Interfaces: []string{"Ethernet1", "Ethernet2"}})
	kept := e.keepPolicy(ep, []string{"Ethernet2"})
	if diff := cmp.Diff(eos.PolicyPrior{TCToQueue: [8]int{7}, ServiceProfiles: map[string]string{"Ethernet2": "B"}}, kept); diff != "" {
		t.Errorf("eos (-want +got):\n%s", diff)
	}
	if ep.ServiceProfiles["Ethernet1"] != "OLD" {
		t.Errorf("eos adopt overwrote a recorded port: %v", ep.ServiceProfiles)
	}

	n := nxosDialect{}
	old, next := fabric.QoSPolicy{Name: "A"}, fabric.QoSPolicy{Name: "B", Interfaces: []string{"Ethernet1/1"}}
	np := nxos.PolicyPrior{NetworkQoS: "custom-nq", Ports: map[string]nxos.PortPolicies{}}
	n.adoptPolicy(&np, nxos.PolicyPrior{QueuingOutput: nxos.QueuingName("A"), Ports: map[string]nxos.PortPolicies{"Ethernet1/1": {QoSInput: "X"}}}, old, next)
	if np.QueuingOutput != "" {
		t.Errorf("nxos took over its own queuing policy %q as the one to restore", np.QueuingOutput)
	}
	n.adoptPolicy(&np, nxos.PolicyPrior{QueuingOutput: "site-out", Ports: map[string]nxos.PortPolicies{}}, old, next)
	kept2 := n.keepPolicy(np, next.Interfaces)
	want := nxos.PolicyPrior{NetworkQoS: "custom-nq", QueuingOutput: "site-out", Ports: map[string]nxos.PortPolicies{"Ethernet1/1": {QoSInput: "X"}}}
	if diff := cmp.Diff(want, kept2); diff != "" {
		t.Errorf("nxos (-want +got):\n%s", diff)
	}
}

// cliTest is the QoS policy and PFC drivers of platform's dialect d on the fake switch f.
func cliTest[C cliConfig[QP, FP], QP, FP any](f *fakeCLI, platform string, dev devices.Device, d cliDialect[C, QP, FP]) (cliQoS[C, QP, FP], cliPFC[C, QP, FP]) {
	s := cliSwitch[C, QP, FP]{f, newReads(testRegistry(platform, dev), "sw"), d}
	return cliQoS[C, QP, FP]{s}, cliPFC[C, QP, FP]{s}
}

// mustPrior decodes a policy's private state, which must be there.
func mustPrior[P any](t *testing.T, raw Prior) P {
	t.Helper()
	p, err := decodePrior[P](raw)
	if err != nil || p == nil {
		t.Fatalf("private state %q: %v", raw, err)
	}
	return *p
}
