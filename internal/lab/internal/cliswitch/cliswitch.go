// Package cliswitch is what every CLI switch of the lab (`eos`, `nxos`) shares whatever its
// dialect: an identity (name, ports, the inventory entry), the SSH server (internal/sshd, with
// the sessions of ssh.go), the pty line discipline (line.go), the command parser (args.go), the
// counters, the RejectLines knob, injected faults (fault.go) and each port's storm clock
// (Storm; the dialects render their own traffic counters from it). A dialect embeds *Switch
// and gives it terminals (Dialect); the exported methods here are promoted to the dialect's
// switch (lab.EOSSwitch, lab.NXOSSwitch).
package cliswitch

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sshd"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Counters are the SSH connections a CLI switch accepted and the command lines it ran.
type Counters struct {
	Connections int64
	Commands    int64
	Reads       int64 // `show running-config ...` lines among Commands
}

// Dialect is what a platform gives the shared SSH server: a terminal per shell or exec
// request. exec terminals run one command non-interactively, with the privileges an
// interactive user would first have to ask for (EOS's `enable`).
type Dialect interface {
	OpenTerm(user string, exec bool) Term
}

// Term is one CLI session of a dialect, as the line discipline drives it.
type Term interface {
	// prompt is printed before each line, exactly (NX-OS ends it with a space, EOS does not).
	Prompt() string
	// enter runs a typed line: its output ("\n" line ends), the prompt after it, and whether
	// the terminal logged out.
	Enter(line string) (out, prompt string, closed bool)
	// inConfig says whether the terminal is in a configuration mode, where Ctrl-D is ignored.
	InConfig() bool
	// ctrlZ is Ctrl-Z: ok says the dialect leaves configuration on it (NX-OS), prompt is the
	// prompt after it.
	CtrlZ() (prompt string, ok bool)
	// leave is called once the connection ends.
	Leave()
}

// Switch is the dialect-neutral part of a CLI switch.
type Switch struct {
	name    string
	addr    string
	inv     device.Entry
	ports   []string
	latency time.Duration
	users   map[string]string // login -> password
	dialect Dialect
	Wires   *cabling.Panel // what each port hears over LLDP

	// rejectMu guards the RejectLines knob only; dialects read it while holding their own
	// configuration lock, so it is always taken last.
	rejectMu     sync.Mutex
	rejectSubstr string
	rejectMsg    string
	warnSubstr   string
	warnMsg      string
	txReject     string // fault.Reject's message for the line runMu's holder runs, or ""

	// runMu is held around each line a terminal runs, so that txReject applies to that
	// terminal's line only; it is taken before the dialect's lock.
	runMu  sync.Mutex
	faults fault.Set

	srv   *sshd.Server
	tally device.Tally // requests are command lines, reads `show running-config ...` lines

	// stormMu guards storms; it is taken last, under a dialect's lock when a show renders
	// counters.
	stormMu sync.Mutex
	clock   func() time.Time
	boot    time.Time                 // the traffic counters count from here
	storms  map[string]*traffic.Storm // by port
}

// Serve makes the host key, listens on 127.0.0.1, sets *held (the dialect's embedded
// *Switch) to the new switch and only then serves SSH with the dialect's terminals: a
// terminal reaches the switch through the dialect, which must hold it before the first one
// opens.
func Serve(spec device.Spec, ports []string, d Dialect, held **Switch) error {
	sw := &Switch{
		name:    spec.Name,
		ports:   ports,
		latency: spec.Latency,
		Wires:   spec.Wires,
		users:   map[string]string{spec.Username: spec.Password, "admin": spec.Password},
		dialect: d,
		clock:   time.Now,
		storms:  map[string]*traffic.Storm{},
	}
	sw.boot = sw.clock()
	for _, p := range ports {
		sw.storms[p] = &traffic.Storm{}
	}
	srv, err := sshd.Listen(sw.sshConfig())
	if err != nil {
		return err
	}
	sw.srv, sw.addr, sw.inv = srv, srv.Addr(), srv.Entry(spec, spec.Username)
	*held = sw
	srv.Start()
	return nil
}

// Stop closes the listener and every connection, and waits for every shell to end.
func (sw *Switch) Stop() { sw.srv.Stop() }

func (sw *Switch) Entry() device.Entry { return sw.inv }

// Name is the device name, e.g. "eos-1" or "nxos-1".
func (sw *Switch) Name() string { return sw.name }

// Address is the host:port of the SSH server.
func (sw *Switch) Address() string { return sw.addr }

// Heard is what each port hears over LLDP (its cables' far ends), by port.
func (sw *Switch) Heard() map[string]cabling.Ad { return sw.Wires.Heard(sw.name) }

// SetClock makes the traffic counters run on now and count from its current time (tests move
// it).
func (sw *Switch) SetClock(now func() time.Time) {
	sw.stormMu.Lock()
	defer sw.stormMu.Unlock()
	sw.clock, sw.boot = now, now()
}

// Interfaces are the front-panel ports (Ethernet1.. on eos, Ethernet1/1.. on nxos).
func (sw *Switch) Interfaces() []string { return slices.Clone(sw.ports) }

// HostKey is the SSH host key in authorized_keys form, as the inventory's host_key.
func (sw *Switch) HostKey() string { return sw.inv.HostKey }

// RejectLines makes every configuration line containing substr fail with msg and change
// nothing, until RejectLines("", ""). EOS answers `% msg`, NX-OS prints msg verbatim.
func (sw *Switch) RejectLines(substr, msg string) {
	sw.rejectMu.Lock()
	defer sw.rejectMu.Unlock()
	sw.rejectSubstr, sw.rejectMsg = substr, msg
}

// WarnLines makes every configuration line containing substr take effect and answer msg, as a
// device answers a line it applies with a warning (EOS `! Interface does not exist. ...`,
// NX-OS `Warning: ...`: the dialect files cite them), until WarnLines("", "").
func (sw *Switch) WarnLines(substr, msg string) {
	sw.rejectMu.Lock()
	defer sw.rejectMu.Unlock()
	sw.warnSubstr, sw.warnMsg = substr, msg
}

// Warned is the warning WarnLines gives line, or "".
func (sw *Switch) Warned(line string) string {
	sw.rejectMu.Lock()
	defer sw.rejectMu.Unlock()
	if sw.warnSubstr == "" || !strings.Contains(line, sw.warnSubstr) {
		return ""
	}
	return sw.warnMsg + "\n"
}

// Rejected says whether RejectLines refuses line, and with which message.
func (sw *Switch) Rejected(line string) (string, bool) {
	sw.rejectMu.Lock()
	defer sw.rejectMu.Unlock()
	if sw.txReject != "" {
		return sw.txReject, true
	}
	if sw.rejectSubstr == "" || !strings.Contains(line, sw.rejectSubstr) {
		return "", false
	}
	return sw.rejectMsg, true
}

// Counters returns the SSH connections accepted and the command lines executed.
func (sw *Switch) Counters() Counters {
	c := sw.tally.Counters()
	return Counters{Connections: c.Connections, Commands: c.Requests, Reads: c.Reads}
}

// DeviceCounters: requests are command lines, reads `show running-config ...` lines.
func (sw *Switch) DeviceCounters() device.Counters { return sw.tally.Counters() }

// ResetCounters sets every counter back to zero.
func (sw *Switch) ResetCounters() { sw.tally.Reset() }

// Command says whether a typed line's words are a command, not an empty line or a comment (a
// line starting with `!`, so that a pasted running-config goes through), and counts it.
func (sw *Switch) Command(words []string) bool {
	if len(words) == 0 || strings.HasPrefix(words[0], "!") {
		return false
	}
	sw.CountCommand(words)
	return true
}

// CountCommand counts one command line (not an empty line or a comment), and among them the
// configuration reads: `show running-config ...` however abbreviated (`sh run`).
func (sw *Switch) CountCommand(words []string) {
	sw.tally.Requests.Add(1)
	if len(words) >= 2 && len(words[0]) >= 2 && strings.HasPrefix("show", words[0]) &&
		len(words[1]) >= 3 && strings.HasPrefix("running-config", words[1]) {
		sw.tally.Reads.Add(1)
	}
}

// pause is the --latency a remote switch adds before an answer, and FaultSlow's delay.
func (sw *Switch) pause() {
	sw.faults.Pause(sw.latency)
}

// Storm starts or stops a congestion storm on a port (`rocelab storm`): while on, the port's
// link partner pauses its lossless priorities and its other queues drop and mark, as each
// dialect's counters show (eos/counters.go, nxos/counters.go).
func (sw *Switch) Storm(ifname string, on bool) error {
	sw.stormMu.Lock()
	defer sw.stormMu.Unlock()
	return traffic.SetPort(sw.storms, sw.name, sw.ports, ifname, on, sw.clock())
}

// Traffic is the time since boot and the port's storm time, now.
func (sw *Switch) Traffic(port string) (up, storm time.Duration) {
	sw.stormMu.Lock()
	defer sw.stormMu.Unlock()
	now := sw.clock()
	if st := sw.storms[port]; st != nil {
		storm = st.Elapsed(now)
	}
	return now.Sub(sw.boot), storm
}

// Storming says whether the port's storm is on.
func (sw *Switch) Storming(port string) bool {
	sw.stormMu.Lock()
	defer sw.stormMu.Unlock()
	st := sw.storms[port]
	return st != nil && st.On
}
