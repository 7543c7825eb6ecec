// Command rocelab runs the simulated RoCE fabric of package lab until it is
// interrupted, for `make demo`, `make lab` and manual exploration.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// version is set at release time with -ldflags "-X main.version=...".
var version = ""

// PIDFile is written into --dir while the lab runs, so a Makefile can stop it.
const PIDFile = "rocelab.pid"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

const usageText = `usage:
  rocelab up --dir DIR [--switches openconfig=1] [--hosts PLATFORM=N] [--model PLATFORM=MODEL]...
             [--ports 8] [--nic-ports 2] [--latency 0ms] [--wiring FILE]
      start the lab, write DIR/inventory.json once every device listens,
      serve until SIGINT or SIGTERM. The lab is cabled: each switch's last
      free port to the next switch's, host NIC j of host h to the first free
      port of switch (h+j) mod the number of switches; --wiring FILE (a JSON
      list of {"a_device", "a_interface", "b_device", "b_interface"}, the
      shape of the inventory's "links") cables it instead. Every device
      answers its platform's LLDP read with its cables.
  rocelab cable --dir DIR DEVICE INTERFACE PEER PEER_INTERFACE
      move the cable of DEVICE's INTERFACE to PEER's PEER_INTERFACE (the
      ports' old cables are unplugged; inventory.json's links follow), e.g.
      a NIC cabled to the wrong leaf:
      rocelab cable --dir .lab mlx5-1 eth0 eos-2 Ethernet3
  rocelab down --dir DIR
      stop the lab running in DIR (SIGTERM to DIR/rocelab.pid) and wait for it
  rocelab get --dir DIR [--type all] DEVICE PATH
      print the JSON_IETF value at PATH on DEVICE, e.g.
      rocelab get --dir .lab openconfig-1 /qos/queue-management-profiles
  rocelab set --dir DIR DEVICE PATH JSON
      one gNMI Update of PATH with the JSON_IETF value JSON (an out-of-band
      change), e.g. rocelab set --dir .lab openconfig-1 \
        '/qos/queue-management-profiles/queue-management-profile[name=ROCE-roce]/wred/uniform/config/min-threshold' '"100000"'
  rocelab reboot --dir DIR [--warm] DEVICE
      reset NIC host DEVICE's settings to the driver defaults, as a real
      reboot loses what mlnx_qos, sysfs and debugfs were told, then start
      the systemd units enabled there (a persisted roce_nic_qos); a cold
      reboot (the default) also loads the NIC firmware's pending
      configuration (mstconfig set), --warm leaves it pending, e.g.
      rocelab reboot --dir .lab mlx5-1
  rocelab storm --dir DIR DEVICE INTERFACE [--off]
      start (or, with --off, stop) a congestion storm on a port of a NIC host
      or switch: its counters then show PFC pauses received (hosts, on the
      priorities with PFC enabled; cumulus switches, on the switch priorities
      of the port's PFC profile; sonic switches, on the port's pfc_enable
      priorities, and their PFC watchdog counts the storm; nxos switches, on
      the CoS values of the system network-qos policy's pause pfc-cos),
      drops, ECN marks (eos switches: on the tx-queues that count them) and
      CNPs growing fast, e.g. rocelab storm --dir .lab mlx5-1 eth0
  rocelab congest --dir DIR [--queue N] DEVICE INTERFACE [--off]
      congest (or, with --off, drain) egress queue N (default 3) of a sonic
      switch's port: the queue marks ECN fast and its watermark (and, for a
      lossless queue, its priority group's) rises to 90 % of its pool, and
      the port sends PFC pauses on the priority; a lossy queue drops,
      e.g. rocelab congest --dir .lab sonic-1 Ethernet0 --queue 3
  rocelab fault --dir DIR DEVICE KIND [--by 2s]
  rocelab fault --dir DIR DEVICE clear
      make DEVICE misbehave until cleared (internal/lab/faults.md): refuse
      (connections are reset, open ones closed), drop (the connection closes
      in the middle of the next write, before it applies), stall (every
      operation hangs), reject (the next write fails with the device's own
      error), slow (every answer comes --by later, default 2s), reboot (NIC
      hosts: as rocelab reboot), driver-reload (NIC hosts: the driver's
      defaults, then the units the netdevs want run again); drop, reject,
      reboot and driver-reload act once; clear
      removes every fault of DEVICE and lets stalled operations go on, e.g.
      rocelab fault --dir .lab eos-1 drop
      rocelab fault --dir .lab mlx5-1 slow --by 500ms
  rocelab cli --dir DIR DEVICE LINE...
      log in to CLI switch DEVICE (eos, nxos) over SSH with the inventory's
      credentials and pinned host key, type each LINE at its prompt (after
      "enable" at an exec prompt), print the transcript; exit 1 when the
      switch refuses a line, e.g.
      rocelab cli --dir .lab nxos-1 'show running-config ipqos'
      rocelab cli --dir .lab eos-1 'configure' 'interface Ethernet1' \
        'no priority-flow-control on' 'end'
  rocelab version
  rocelab help

Paths are /a/b[key=value]/c with origin openconfig, or, on sonic switches,
/CONFIG_DB/localhost/TABLE/KEY/FIELD (also written /sonic-db:CONFIG_DB/...)
with origin sonic-db: a key containing | is one element, e.g.
  rocelab get --dir .lab sonic-1 /CONFIG_DB/localhost/QUEUE/Ethernet0|3
  rocelab set --dir .lab sonic-1 /CONFIG_DB/localhost/SCHEDULER/ROCE-roce \
    '{"type":"DWRR","weight":"50"}'
and every CONFIG_DB value is a JSON string. get and set use the device's
address, CA and credentials from DIR/inventory.json. get reads configuration
and state (--type config|state|operational|all, default all).
reboot, storm and fault ask the lab running in DIR over its control socket
DIR/rocelab.sock.

Switch platforms: openconfig, sonic (ports Ethernet0, Ethernet4, ...), eos
(Arista EOS CLI over SSH as user admin, ports Ethernet1, Ethernet2, ...; e.g.
ssh -p PORT admin@127.0.0.1 with the inventory's password), nxos (Cisco
NX-OS CLI over SSH as user admin, ports Ethernet1/1, Ethernet1/2, ...).
Host platforms: mlx5 (SSH as user roce with sudo; --nic-ports netdevs eth0,
eth1, ..., RDMA devices mlx5_0, mlx5_1, ..., two per ConnectX adapter).
`

// run is main without the process: it returns the exit status, and ctx
// cancellation plays the role of SIGINT/SIGTERM.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return 2
	}
	switch args[0] {
	case "up":
		return up(ctx, args[1:], stdout, stderr)
	case "down":
		return down(args[1:], stdout, stderr)
	case "get":
		return get(ctx, args[1:], stdout, stderr)
	case "set":
		return set(ctx, args[1:], stdout, stderr)
	case "reboot":
		return reboot(args[1:], stdout, stderr)
	case "storm":
		return storm(args[1:], stdout, stderr)
	case "congest":
		return congest(args[1:], stdout, stderr)
	case "fault":
		return faultCommand(args[1:], stdout, stderr)
	case "cli":
		return cliCommand(args[1:], stdout, stderr)
	case "cable":
		return cableCommand(args[1:], stdout, stderr)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "rocelab", buildVersion())
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usageText)
		return 0
	default:
		fmt.Fprintf(stderr, "rocelab: unknown command %q\n\n%s", args[0], usageText)
		return 2
	}
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func up(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("up", stderr)
	dir := fs.String("dir", "", "directory for inventory.json, ca.pem, "+PIDFile+" and logs (required)")
	switches := platformCounts{"openconfig": 1}
	hosts := platformCounts{}
	fs.Var(&switches, "switches", "switches to start, as `PLATFORM=N,...`")
	fs.Var(&hosts, "hosts", "hosts to start, as `PLATFORM=N,...`")
	models := platformModels{}
	var known []string
	all := lab.Models()
	for _, p := range slices.Sorted(maps.Keys(all)) {
		known = append(known, p+": "+strings.Join(all[p], ", "))
	}
	fs.Var(&models, "model", "the model of a platform's devices, as `PLATFORM=MODEL` (repeatable; the first is the default; "+strings.Join(known, "; ")+")")
	ports := fs.Int("ports", lab.DefaultPorts, "interfaces per switch")
	nicPorts := fs.Int("nic-ports", lab.DefaultNICPorts, "netdevs per NIC host (dual-port adapters: eth0, eth1 on the first, eth2, eth3 on the next...)")
	wiring := fs.String("wiring", "", "a JSON file listing the lab's cables, instead of the default cabling")
	latency := fs.Duration("latency", 0, "delay added to every RPC, e.g. 5ms")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if !dirOnly(fs, *dir, stderr) {
		return 2
	}
	opts := lab.Options{Switches: switches, Hosts: hosts, Models: models, Ports: *ports, NICPorts: *nicPorts, Latency: *latency, Dir: *dir}
	if *wiring != "" {
		b, err := os.ReadFile(filepath.Clean(*wiring))
		if err == nil {
			opts.Cables = []lab.Cable{}
			err = json.Unmarshal(b, &opts.Cables)
		}
		if err != nil {
			fmt.Fprintf(stderr, "rocelab up: --wiring %s: %v\n", *wiring, err)
			return 2
		}
	}
	if err := serve(ctx, *dir, opts, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "rocelab up:", err)
		return 1
	}
	return 0
}

func serve(ctx context.Context, dir string, opts lab.Options, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	pidPath := filepath.Join(dir, PIDFile)
	if pid, ok := runningPID(pidPath); ok {
		return fmt.Errorf("a lab is already running in %s (pid %d)", dir, pid)
	}
	// A waiter polls for inventory.json; one left by an earlier run would
	// hand it stale addresses and passwords.
	if err := os.Remove(filepath.Join(dir, lab.InventoryFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	// Route the datastore's glog output into the lab dir instead of /tmp.
	_ = flag.Set("log_dir", dir)

	if err := os.WriteFile(pidPath, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		return err
	}
	defer func() { _ = os.Remove(pidPath) }()

	start := time.Now()
	l, err := lab.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer l.Stop()
	if stopControl, err := serveControl(dir, l); err != nil {
		fmt.Fprintf(stderr, "rocelab up: no control socket, so `rocelab reboot`, `rocelab storm` and `rocelab fault` will not work: %v\n", err)
	} else {
		defer stopControl()
	}
	inv := l.Inventory()
	for _, name := range l.Devices() {
		d := inv.Devices[name]
		fmt.Fprintf(stdout, "%-14s %-10s %-21s %d interfaces\n", name, d.Platform, d.Address, len(inv.Interfaces[name]))
	}
	fmt.Fprintf(stdout, "inventory %s (ready in %s); stop with kill %d\n",
		filepath.Join(dir, lab.InventoryFile), time.Since(start).Round(time.Millisecond), os.Getpid())
	<-ctx.Done()
	fmt.Fprintln(stdout, "rocelab: stopping")
	return nil
}

// runningPID reports a live process recorded in the pid file: two labs in one
// directory would overwrite each other's inventory.
func runningPID(path string) (int, bool) {
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return 0, false
	}
	return pid, syscall.Kill(pid, 0) == nil
}

// platformModels is a repeatable flag.Value of PLATFORM=MODEL.
type platformModels map[string]string

func (p *platformModels) String() string {
	if p == nil {
		return ""
	}
	return joinPairs(*p)
}

func (p *platformModels) Set(s string) error {
	name, model, ok := strings.Cut(s, "=")
	if !ok || name == "" || model == "" {
		return fmt.Errorf("want PLATFORM=MODEL, got %q", s)
	}
	(*p)[name] = model
	return nil
}

// platformCounts is a flag.Value of PLATFORM=N pairs. Setting the flag
// replaces the default rather than adding to it.
type platformCounts map[string]int

func (p *platformCounts) String() string {
	if p == nil {
		return ""
	}
	return joinPairs(*p)
}

// joinPairs is a PLATFORM=VALUE flag's value as it is written: its pairs by platform, joined
// with commas.
func joinPairs[V string | int](m map[string]V) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, m[k]))
	}
	return strings.Join(parts, ",")
}

func (p *platformCounts) Set(s string) error {
	out := platformCounts{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, count, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(count)
		if !ok || name == "" || err != nil || n < 0 {
			return fmt.Errorf("want PLATFORM=N, got %q", part)
		}
		out[name] = n
	}
	*p = out
	return nil
}
