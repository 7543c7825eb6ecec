// Package nxos is the `nxos` switch: a simulated Cisco Nexus 9000 (NX-OS 10.x) over SSH with
// an interactive CLI (internal/lab/nxos-switch.md). It imitates the switch, not the provider:
// nothing here comes from internal/platform. The SSH server, the line discipline, the parser,
// the counters and RejectLines are the CLI switches' shared machinery (room cliswitch); this
// is the NX-OS dialect. Package lab names its switch lab.NXOSSwitch.
package nxos

import (
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

const (
	nxosVersion = "10.3(4a)"
	nxosBIOS    = "05.47"
)

// nxosModels are the models the lab simulates (the default first) and the chassis `show
// version` names for each: a Nexus 9000 cloud-scale leaf, and a Nexus 3200 (its chassis line
// as networktocode/ntc-templates' cisco_nxos_show_version7.raw captures it; the lab runs its
// one NX-OS version on it: assumed). Both take the same CLI here: the provider refuses the
// Nexus 3000 before writing, and the lab does not emulate its own QoS model.
var nxosModels = []nxosModel{
	{"N9K-C93180YC-FX", "Nexus9000 C93180YC-FX Chassis"},
	{"N3K-C3232C", "Nexus3000 C3232C Chassis (Nexus 9000 Series)"},
}

type nxosModel struct{ name, chassis string }

func (m nxosModel) modelName() string { return m.name }

func ModelNames() []string { return device.ModelNames(nxosModels, nxosModel.modelName) }

// nxosChassisOf is the chassis line's text (after "cisco ") of model ("": the default).
func nxosChassisOf(model string) string {
	return device.ModelOf(nxosModels, nxosModel.modelName, model).chassis
}

// Switch is an `nxos` switch: an SSH server (password or keyboard-interactive login, an
// ed25519 host key) whose shell is NX-OS's CLI over the QoS/PFC subset of nxos-switch.md.
// Name, Address, Interfaces, HostKey, RejectLines (the message printed verbatim), Counters and
// ResetCounters come from the shared CLI switch (cliswitch.Switch).
type Switch struct {
	*cliswitch.Switch
	started time.Time
	chassis string

	// mu guards everything below: a command runs whole under it.
	mu          sync.Mutex
	running     *nxosConfig
	lastChange  time.Time   // `!Running configuration last done at:`
	startup     *nxosConfig // nil until copy running-config startup-config
	startupTime time.Time
	checkpoints []*nxosCheckpoint // creation order
}

func Start(spec device.Spec) (device.Device, error) {
	now := time.Now()
	sw := &Switch{started: now, lastChange: now, running: newNXOSConfig(spec.Name, spec.Ports), chassis: nxosChassisOf(spec.Model)}
	if err := cliswitch.Serve(spec, device.EthernetSlotNames(spec.Ports), sw, &sw.Switch); err != nil {
		return nil, err
	}
	return sw, nil
}

// RunningConfig is what `show running-config ipqos` prints, without the `!Time:` and
// `!Running configuration last done at:` lines, so that tests can compare texts.
func (sw *Switch) RunningConfig() string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.renderIPQoS(sw.running, false)
}

// StartupConfig is the saved configuration in RunningConfig's form (`show running-config
// ipqos` of what the last `copy running-config startup-config` saved), "" before any save.
func (sw *Switch) StartupConfig() string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.startup == nil {
		return ""
	}
	return sw.renderIPQoS(sw.startup, false)
}

// Checkpoints are the names of the user checkpoints, in creation order.
func (sw *Switch) Checkpoints() []string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	out := make([]string, len(sw.checkpoints))
	for i, c := range sw.checkpoints {
		out[i] = c.name
	}
	return out
}

// OpenTerm is a terminal for the SSH server. Login lands in privileged exec on NX-OS
// (network-admin has no `>` mode), so shells and exec requests start alike.
func (sw *Switch) OpenTerm(user string, _ bool) cliswitch.Term { return sw.newTerm(user) }

func (sw *Switch) newTerm(user string) *nxosTerm {
	return &nxosTerm{sw: sw, user: user, mode: nxosMode{kind: nxExec}}
}

// nxosTime is NX-OS's ctime-like time in `!Time:` lines and `show version`.
func nxosTime(t time.Time) string { return t.Format("Mon Jan _2 15:04:05 2006") }
