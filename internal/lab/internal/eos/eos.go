// Package eos is the `eos` switch: a simulated Arista EOS switch over SSH with an interactive
// CLI (internal/lab/eos-switch.md). It imitates the switch, not the provider: nothing here
// comes from internal/platform. The SSH server, the line discipline, the parser, the counters
// and RejectLines are the CLI switches' shared machinery (room cliswitch); this is the EOS
// dialect. Package lab names its switch lab.EOSSwitch.
package eos

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

// Switch is an `eos` switch: an SSH server (password or keyboard-interactive login, an
// ed25519 host key) whose shell is EOS's CLI over the QoS/PFC subset of eos-switch.md. Name,
// Address, Interfaces, HostKey, RejectLines (`% msg`, in configure terminal and in sessions
// alike), Counters and ResetCounters come from the shared CLI switch (cliswitch.Switch).
type Switch struct {
	*cliswitch.Switch
	userLine []string // the running-config's username lines
	model    eosModel
	serial   string
	mac      string
	started  time.Time

	// mu guards the configuration and the sessions: a command runs whole under it.
	mu           sync.Mutex
	running      *eosConfig
	startup      string
	sessions     []*eosSession
	autoSessions int
	vtys         int
}

func Start(spec device.Spec) (device.Device, error) {
	sw := &Switch{
		started: time.Now(),
		running: newEOSConfig(spec.Name, spec.Ports),
		model:   eosModelOf(spec.Model),
	}
	users := map[string]string{spec.Username: spec.Password, "admin": spec.Password}
	for _, u := range slices.Sorted(maps.Keys(users)) {
		sw.userLine = append(sw.userLine, fmt.Sprintf("username %s privilege 15 role network-admin secret sha512 %s",
			u, sha512Crypt(users[u], newCryptSalt())))
	}
	sw.serial, sw.mac = eosIdentity(spec.Name)
	if err := cliswitch.Serve(spec, device.EthernetNames(spec.Ports), sw, &sw.Switch); err != nil {
		return nil, err
	}
	return sw, nil
}

// eosIdentity derives a stable serial number and MAC address from the device name.
func eosIdentity(name string) (serial, mac string) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	v := h.Sum32()
	return fmt.Sprintf("SN%08X", v), fmt.Sprintf("5254.00%02x.%04x", v>>24, v&0xffff)
}

// RunningConfig is exactly what `show running-config` prints in privileged exec mode.
func (sw *Switch) RunningConfig() string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.renderRunning(sw.running)
}

// StartupConfig is the running-config text the last `write memory` saved, "" before any.
func (sw *Switch) StartupConfig() string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.startup
}

// newTerm opens a terminal (vty1, vty2, ... in order) in exec mode.
func (sw *Switch) newTerm(user string) *eosTerm {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.vtys++
	return &eosTerm{sw: sw, user: user, vty: fmt.Sprintf("vty%d", sw.vtys), mode: eosMode{kind: modeExec}}
}

// OpenTerm is a terminal for the SSH server: exec requests run in privileged mode (the lab's
// user has privilege 15).
func (sw *Switch) OpenTerm(user string, exec bool) cliswitch.Term {
	t := sw.newTerm(user)
	if exec {
		t.mode = eosMode{kind: modePriv}
	}
	return t
}
