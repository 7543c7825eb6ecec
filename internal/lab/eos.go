package lab

// The `eos` switch: a simulated Arista EOS switch over SSH with an interactive CLI
// (eos-switch.md). It imitates the switch, not the provider: nothing here comes from
// internal/platform.

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"hash/fnv"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"
)

// EOSSwitch is an `eos` switch: an SSH server (password or keyboard-interactive login, an
// ed25519 host key) whose shell is EOS's CLI over the QoS/PFC subset of eos-switch.md.
type EOSSwitch struct {
	name     string
	addr     string
	inv      DeviceEntry
	ports    []string
	latency  time.Duration
	users    map[string]string // login -> password
	userLine []string          // the running-config's username lines
	serial   string
	mac      string
	started  time.Time
	config   *ssh.ServerConfig

	// mu guards the configuration, the sessions and the knobs: a command runs whole under it.
	mu           sync.Mutex
	running      *eosConfig
	startup      string
	sessions     []*eosSession
	autoSessions int
	vtys         int
	rejectSubstr string
	rejectMsg    string

	lis      net.Listener
	wg       sync.WaitGroup
	connMu   sync.Mutex
	conns    map[net.Conn]struct{}
	closing  bool
	counters struct{ connections, commands atomic.Int64 }
}

// CLICounters are the SSH connections a CLI switch accepted and the command lines it ran.
type CLICounters struct {
	Connections int64
	Commands    int64
}

func startEOSSwitch(spec deviceSpec) (device, error) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	signer, err := ssh.NewSignerFromKey(key)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	sw := &EOSSwitch{
		name:    spec.name,
		ports:   ethernetNames(spec.ports),
		latency: spec.latency,
		users:   map[string]string{spec.username: spec.password, "admin": spec.password},
		started: time.Now(),
		conns:   map[net.Conn]struct{}{},
		running: newEOSConfig(spec.name, spec.ports),
	}
	for _, u := range slices.Sorted(maps.Keys(sw.users)) {
		sw.userLine = append(sw.userLine, fmt.Sprintf("username %s privilege 15 role network-admin secret sha512 %s",
			u, sha512Crypt(sw.users[u], newCryptSalt())))
	}
	sw.serial, sw.mac = eosIdentity(spec.name)
	sw.config = sw.sshConfig()
	sw.config.AddHostKey(signer)

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	sw.lis, sw.addr = lis, lis.Addr().String()
	sw.inv = DeviceEntry{
		Address:  sw.addr,
		Platform: spec.platform,
		Username: spec.username,
		Password: spec.password,
		HostKey:  strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey()))),
	}
	sw.wg.Add(1)
	go sw.serve()
	return sw, nil
}

// eosIdentity derives a stable serial number and MAC address from the device name.
func eosIdentity(name string) (serial, mac string) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	v := h.Sum32()
	return fmt.Sprintf("SN%08X", v), fmt.Sprintf("5254.00%02x.%04x", v>>24, v&0xffff)
}

func (sw *EOSSwitch) entry() DeviceEntry { return sw.inv }

func (sw *EOSSwitch) interfaces() []string { return slices.Clone(sw.ports) }

// Name is the device name, e.g. "eos-1".
func (sw *EOSSwitch) Name() string { return sw.name }

// Address is the host:port of the SSH server.
func (sw *EOSSwitch) Address() string { return sw.addr }

// Interfaces are the front-panel ports, Ethernet1..EthernetN.
func (sw *EOSSwitch) Interfaces() []string { return sw.interfaces() }

// HostKey is the SSH host key in authorized_keys form, as the inventory's host_key.
func (sw *EOSSwitch) HostKey() string { return sw.inv.HostKey }

// RunningConfig is exactly what `show running-config` prints in privileged exec mode.
func (sw *EOSSwitch) RunningConfig() string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.renderRunning(sw.running)
}

// StartupConfig is the running-config text the last `write memory` saved, "" before any.
func (sw *EOSSwitch) StartupConfig() string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.startup
}

// RejectLines makes every configuration line containing substr answer `% msg` and change
// nothing, in configure terminal and in sessions, until RejectLines("", "").
func (sw *EOSSwitch) RejectLines(substr, msg string) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.rejectSubstr, sw.rejectMsg = substr, msg
}

// rejected says whether RejectLines refuses line; callers hold mu.
func (sw *EOSSwitch) rejected(line string) (string, bool) {
	if sw.rejectSubstr == "" || !strings.Contains(line, sw.rejectSubstr) {
		return "", false
	}
	return sw.rejectMsg, true
}

// Counters returns the SSH connections accepted and the command lines executed.
func (sw *EOSSwitch) Counters() CLICounters {
	return CLICounters{Connections: sw.counters.connections.Load(), Commands: sw.counters.commands.Load()}
}

// ResetCounters sets every counter back to zero.
func (sw *EOSSwitch) ResetCounters() {
	sw.counters.connections.Store(0)
	sw.counters.commands.Store(0)
}

// newTerm opens a terminal (vty1, vty2, ... in order) in exec mode.
func (sw *EOSSwitch) newTerm(user string) *eosTerm {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.vtys++
	return &eosTerm{sw: sw, user: user, vty: fmt.Sprintf("vty%d", sw.vtys), mode: eosMode{kind: modeExec}}
}
