package driver

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// fakeCLI is a CLI switch for cliQoS: each port has a setting ("its service-profile"), and a
// policy records what it replaced per port, as eos.PolicyPrior does.
type fakeCLI struct {
	ports    map[string]string // port -> its setting now
	policies map[string]bool
	sent     [][]string // each transaction's lines
	warn     error      // what apply answers
}

type fakePrior struct {
	Ports map[string]string `json:"ports"`
}

func (f *fakeCLI) device() string { return "sw" }
func (f *fakeCLI) apply(_ context.Context, lines []string) (error, error) {
	f.sent = append(f.sent, lines)
	return f.warn, nil
}
func (f *fakeCLI) configure(_ context.Context, lines []string) error {
	f.sent = append(f.sent, lines)
	return nil
}
func (f *fakeCLI) refresh(context.Context) (*fakeCLI, error)           { return f, nil }
func (f *fakeCLI) readFor(context.Context, []string) (*fakeCLI, error) { return f, nil }
func (f *fakeCLI) policy(cfg *fakeCLI, name string, _ *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	return &fabric.QoSPolicy{Name: name}, cfg.policies[name]
}
func (f *fakeCLI) canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return p }
func (f *fakeCLI) checkWrite(cfg *fakeCLI, p fabric.QoSPolicy, create bool) error {
	if create && cfg.policies[p.Name] {
		return ErrExists
	}
	return nil
}
func (f *fakeCLI) priorOf(cfg *fakeCLI, ports []string) fakePrior {
	p := fakePrior{Ports: map[string]string{}}
	for _, port := range ports {
		p.Ports[port] = cfg.ports[port]
	}
	return p
}
func (f *fakeCLI) decode(raw Prior, _ []string) (fakePrior, error) {
	p := fakePrior{Ports: map[string]string{}}
	if len(raw) == 0 {
		return p, nil
	}
	err := json.Unmarshal(raw, &p)
	return p, err
}
func (f *fakeCLI) adopt(prior *fakePrior, now fakePrior, _, next fabric.QoSPolicy) {
	for _, port := range next.Interfaces {
		if _, ok := prior.Ports[port]; !ok {
			prior.Ports[port] = now.Ports[port]
		}
	}
}
func (f *fakeCLI) keep(prior fakePrior, ports []string) fakePrior {
	kept := fakePrior{Ports: map[string]string{}}
	for _, port := range ports {
		kept.Ports[port] = prior.Ports[port]
	}
	return kept
}

// lines binds next's ports to its name and gives unbound ports what prior recorded, as the
// platforms' PolicyLines do; the fake applies them to itself.
func (f *fakeCLI) lines(cfg *fakeCLI, old, next *fabric.QoSPolicy, prior fakePrior) ([]string, error) {
	var out []string
	if old != nil {
		for _, port := range old.Interfaces {
			if next == nil || !slices.Contains(next.Interfaces, port) {
				cfg.ports[port] = prior.Ports[port]
				out = append(out, port+" "+prior.Ports[port])
			}
		}
		delete(cfg.policies, old.Name)
	}
	if next != nil {
		for _, port := range next.Interfaces {
			cfg.ports[port] = next.Name
			out = append(out, port+" "+next.Name)
		}
		cfg.policies[next.Name] = true
	}
	return out, nil
}

func decodeFake(t *testing.T, raw Prior) map[string]string {
	t.Helper()
	var p fakePrior
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p.Ports
}

// The prior a CLI policy keeps: recorded at create, taken for the first time for a port an
// update binds (not overwritten for ports it already holds, whose setting is the policy's own
// by then), dropped for ports it lets go, and what delete restores.
func TestCLIPolicyPriorBookkeeping(t *testing.T) {
	sw := &fakeCLI{ports: map[string]string{"e1": "LEGACY", "e2": "", "e3": "OTHER"}, policies: map[string]bool{}}
	d := cliQoS[fakeCLI, fakePrior]{sw}
	ctx := context.Background()
	v1 := fabric.QoSPolicy{Name: "ROCE", Interfaces: []string{"e1", "e2"}}
	raw, err := d.Create(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"e1": "LEGACY", "e2": ""}, decodeFake(t, raw)); diff != "" {
		t.Errorf("create's prior (-want +got):\n%s", diff)
	}
	if _, err := d.Create(ctx, v1); !errors.Is(err, ErrExists) {
		t.Errorf("a second create: %v, want ErrExists", err)
	}
	v2 := fabric.QoSPolicy{Name: "ROCE", Interfaces: []string{"e1", "e3"}}
	raw, err = d.Update(ctx, v1, v2, raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"e1": "LEGACY", "e3": "OTHER"}, decodeFake(t, raw)); diff != "" {
		t.Errorf("update's prior (-want +got):\n%s", diff)
	}
	if sw.ports["e2"] != "" {
		t.Errorf("the port the update let go has %q, want its own setting back", sw.ports["e2"])
	}
	if err := d.Delete(ctx, v2, raw); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"e1": "LEGACY", "e2": "", "e3": "OTHER"}, sw.ports); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
	if got, err := d.Read(ctx, "ROCE", nil); err != nil || got != nil {
		t.Errorf("read after delete: %v, %v", got, err)
	}
}

// A change the switch committed with a warning is recorded with its prior: the warning comes
// back beside it, not instead of it.
func TestCLIPolicyWarningKeepsPrior(t *testing.T) {
	sw := &fakeCLI{ports: map[string]string{"e1": "LEGACY"}, policies: map[string]bool{},
		warn: &cli.Error{NotSaved: true}}
	raw, err := cliQoS[fakeCLI, fakePrior]{sw}.Create(context.Background(), fabric.QoSPolicy{Name: "ROCE", Interfaces: []string{"e1"}})
	if _, ok := Applied(err); !ok {
		t.Fatalf("want the not-saved warning, got %v", err)
	}
	if decodeFake(t, raw)["e1"] != "LEGACY" {
		t.Errorf("the warned create recorded %s", raw)
	}
}

// The platforms' own bookkeeping: EOS keeps the global maps and the bound ports'
// service-profiles; NX-OS takes system qos's queuing policy over once (after an import) unless
// it is the policy's own, and keeps the network-qos policy it replaced.
func TestCLIPlatformsKeepWhatTheyReplaced(t *testing.T) {
	e := eosQoS{}
	ep := eos.PolicyPrior{TCToQueue: [8]int{7}, ServiceProfiles: map[string]string{"Ethernet1": "OLD"}}
	e.adopt(&ep, eos.PolicyPrior{ServiceProfiles: map[string]string{"Ethernet1": "ROCE", "Ethernet2": "B"}},
		fabric.QoSPolicy{}, fabric.QoSPolicy{Interfaces: []string{"Ethernet1", "Ethernet2"}})
	kept := e.keep(ep, []string{"Ethernet2"})
	if diff := cmp.Diff(eos.PolicyPrior{TCToQueue: [8]int{7}, ServiceProfiles: map[string]string{"Ethernet2": "B"}}, kept); diff != "" {
		t.Errorf("eos (-want +got):\n%s", diff)
	}
	if ep.ServiceProfiles["Ethernet1"] != "OLD" {
		t.Errorf("eos adopt overwrote a recorded port: %v", ep.ServiceProfiles)
	}

	n := nxosQoS{}
	old, next := fabric.QoSPolicy{Name: "A"}, fabric.QoSPolicy{Name: "B", Interfaces: []string{"Ethernet1/1"}}
	np := nxos.PolicyPrior{NetworkQoS: "custom-nq", Ports: map[string]nxos.PortPolicies{}}
	n.adopt(&np, nxos.PolicyPrior{QueuingOutput: nxos.QueuingName("A"), Ports: map[string]nxos.PortPolicies{"Ethernet1/1": {QoSInput: "X"}}}, old, next)
	if np.QueuingOutput != "" {
		t.Errorf("nxos took over its own queuing policy %q as the one to restore", np.QueuingOutput)
	}
	n.adopt(&np, nxos.PolicyPrior{QueuingOutput: "site-out", Ports: map[string]nxos.PortPolicies{}}, old, next)
	kept2 := n.keep(np, next.Interfaces)
	want := nxos.PolicyPrior{NetworkQoS: "custom-nq", QueuingOutput: "site-out", Ports: map[string]nxos.PortPolicies{"Ethernet1/1": {QoSInput: "X"}}}
	if diff := cmp.Diff(want, kept2); diff != "" {
		t.Errorf("nxos (-want +got):\n%s", diff)
	}
}
