package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// ValidNetdev reports whether name is a netdev name the host drivers accept.
func ValidNetdev(name string) bool { return mlx5.ValidNetdev(name) }

// sshConn is a host's SSH connection as the drivers use it (*ssh.Client): one command a
// call. Tests put a fake host behind it.
type sshConn interface {
	Run(ctx context.Context, cmd string, stdin []byte) (ssh.Result, error)
}

// mlx5Host runs one host's reads and writes: each a single command over the shared SSH
// connection.
type mlx5Host struct {
	c    sshConn
	sudo bool
	// wait is how long a write waits for another run's lock on the netdev: half the operation
	// timeout, so the wait and the write both fit in it.
	wait   time.Duration
	device string
	reads
}

func openMLX5(reg *devices.Registry, device string) (*mlx5Host, error) {
	c, err := reg.SSH(device)
	if err != nil {
		return nil, err
	}
	dev, _ := reg.Device(device)
	return &mlx5Host{c: c, sudo: dev.Sudo, wait: c.Config().Timeout / 2, device: device, reads: newReads(reg, device)}, nil
}

// snap is ifname as this process first read the host, for refreshes and plan-time checks:
// one command reads every netdev of the host (HostReadScript), and serves both roce_nic_qos and
// roce_dcqcn_profile of every NIC. With per_resource_reads, each call reads ifname alone.
func (h *mlx5Host) snap(ctx context.Context, ifname string) (*mlx5.HostState, error) {
	if err := checkNetdev(ifname); err != nil {
		return nil, err
	}
	if d, _ := h.reg.Device(h.device); d.PerResourceReads {
		return h.read(ctx, ifname)
	}
	states, err := devices.Snapshot(ctx, h.reg, h.device, "mlx5 host", h.readHost)
	if err != nil {
		return nil, err
	}
	if st, ok := states[ifname]; ok && !st.QoSSkipped {
		return st, nil
	}
	// A VF, representor or IPoIB netdev the host read did not query with mlnx_qos, or one
	// not on the host (its own read then lists the netdevs the host has).
	return h.read(ctx, ifname)
}

// locked runs a write under the netdev's lock file (flock), waiting for another Terraform run's
// write at most half the operation timeout, so the wait and the write both fit in it.
func (h *mlx5Host) locked(ifname, cmd string) string {
	return mlx5.Locked(ifname, h.wait, cmd, h.sudo)
}

// lockHeld is the error of a write that found the netdev's lock held past the wait.
func (h *mlx5Host) lockHeld(ifname string) error {
	return fmt.Errorf("another run is changing %s on device %q (it holds %s longer than this run waits); nothing was "+
		"changed: retry when it is done", ifname, h.device, mlx5.LockPath(ifname))
}

// readHost fetches every netdev of the host in one command.
func (h *mlx5Host) readHost(ctx context.Context) (map[string]*mlx5.HostState, error) {
	return runRead(ctx, h, mlx5.HostReadScript(h.sudo), "reading the host's netdevs: ", mlx5.ParseHostRead)
}

// read fetches everything both host resources need for ifname in one command.
func (h *mlx5Host) read(ctx context.Context, ifname string) (*mlx5.HostState, error) {
	if err := checkNetdev(ifname); err != nil {
		return nil, err
	}
	return runRead(ctx, h, mlx5.ReadScript(ifname, h.sudo), "reading "+ifname+": ", func(out []byte) (*mlx5.HostState, error) {
		return mlx5.ParseRead(ifname, out)
	})
}

// runRead runs a read script on the host and parses what it printed (stdout, then stderr); a
// refusal of the output names the device and what was read (what, empty or ending in ": ").
func runRead[T any](ctx context.Context, h *mlx5Host, script, what string, parse func(out []byte) (T, error)) (T, error) {
	var zero T
	res, err := h.c.Run(ctx, script, nil)
	if err != nil {
		return zero, err
	}
	v, err := parse(append(res.Stdout, res.Stderr...))
	if err != nil {
		return zero, fmt.Errorf("device %q: %s%w", h.device, what, err)
	}
	return v, nil
}

// checkNetdev refuses a name that is not a netdev's before it reaches a host's shell.
func checkNetdev(ifname string) error {
	if !mlx5.ValidNetdev(ifname) {
		return fmt.Errorf("interface %q is not a valid netdev name", ifname)
	}
	return nil
}

func (h *mlx5Host) present(st *mlx5.HostState, ifname string) bool {
	return slices.Contains(st.Netdevs, ifname)
}

// apply writes nic and/or dcqcn, then reads back to verify. On a failed write or a failed
// verification it writes back the values read before (prior) and says what it restored.
func (h *mlx5Host) apply(ctx context.Context, ifname string, prior *mlx5.HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN) error {
	defer h.wrote()
	res, err := h.c.Run(ctx, mlx5.LockedApply(ifname, h.wait, mlx5.ApplyScript(ifname, prior, nic, dcqcn, h.sudo), h.sudo), nil)
	var cause error
	written, status, readBack, finished := []byte(nil), 0, []byte(nil), false
	if err == nil {
		written, status, readBack, finished = mlx5.SplitApplied(res.Stdout)
	}
	switch {
	case err == nil && res.ExitCode == mlx5.LockExit:
		return h.lockHeld(ifname) // nothing ran: nothing to restore
	case err != nil:
		cause = err
	case !finished:
		cause = fmt.Errorf("the host did not finish the change (exit %d): %s", res.ExitCode,
			strings.TrimSpace(string(append(res.Stdout, res.Stderr...))))
	case status != 0:
		text := strings.TrimSpace(string(append(written, res.Stderr...)))
		cause = fmt.Errorf("the host refused the change (exit %d): %s", status, text)
		if mlx5.NoSystemd(text) {
			cause = fmt.Errorf("%w (persist installs a systemd unit, and this host has no systemctl: set persist = false for it)", cause)
		}
	default:
		// The read-back ran under the same lock as the write: nothing else changed the NIC between.
		after, err := mlx5.ParseRead(ifname, append(readBack, res.Stderr...))
		if err == nil {
			after.CCPrioMask = prior.CCPrioMask // the firmware's: no write changes it
		}
		switch {
		case err != nil:
			cause = fmt.Errorf("verifying the change: %w", err)
		case nic != nil && !mlx5.NICEqual(*nic, after.NICQoSLike(*nic)):
			cause = fmt.Errorf("the host accepted the change but reads back different NIC QoS on %s", ifname)
		case dcqcn != nil && !mlx5.DCQCNEqual(*dcqcn, after.DCQCNLike(*dcqcn)):
			cause = fmt.Errorf("the host accepted the change but reads back different DCQCN settings on %s", ifname)
		default:
			return nil
		}
	}
	// Write back what the failed change altered. With a fresh read, values still as they were
	// are left alone, so a setting the host refuses to write is not written again.
	snap := prior.Snapshot(nic, dcqcn)
	cur := prior
	if after, err := h.read(ctx, ifname); err == nil {
		snap, cur = trimSnapshot(snap, after), after
	}
	restoreCmd := mlx5.RestoreFromSnapshot(ifname, snap, cur, h.sudo)
	if kinds := unitKinds(prior, nic, dcqcn); len(kinds) > 0 {
		// The boot units go back to what prior read first; the exit status is the device's.
		restoreCmd = mlx5.ShJoin(mlx5.UnitRestoreScript(ifname, prior, h.sudo, kinds...), restoreCmd)
	}
	rres, rerr := h.c.Run(ctx, h.locked(ifname, restoreCmd), nil)
	switch {
	case rerr != nil:
		return fmt.Errorf("%w; restoring the values read before the change also failed: %v (%s may be partly changed)", cause, rerr, ifname)
	case rres.ExitCode != 0:
		return fmt.Errorf("%w; restoring the values read before the change also failed: %s (%s may be partly changed)",
			cause, strings.TrimSpace(string(append(rres.Stdout, rres.Stderr...))), ifname)
	}
	return fmt.Errorf("%w; the values read before the change were restored on %s", cause, ifname)
}

// unitKinds are the boot units a write of nic and dcqcn may have changed: those it installs
// (Persist) or removes (prior shows one).
func unitKinds(prior *mlx5.HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN) []string {
	var kinds []string
	has := func(kind string) bool { _, ok := prior.Units[mlx5.UnitName(kind, prior.Interface)]; return ok }
	if nic != nil && (nic.Persist || has(mlx5.KindNICQoS)) {
		kinds = append(kinds, mlx5.KindNICQoS)
	}
	if dcqcn != nil && (dcqcn.Persist || has(mlx5.KindDCQCN)) {
		kinds = append(kinds, mlx5.KindDCQCN)
	}
	return kinds
}

// trimSnapshot drops from snap the DCQCN values cur still has, so a restore writes only what
// changed. (NIC QoS is one mlnx_qos call and is written back whole.)
func trimSnapshot(snap mlx5.Snapshot, cur *mlx5.HostState) mlx5.Snapshot {
	if snap.DCQCN == nil {
		return snap
	}
	d := *snap.DCQCN
	for i := range d.RP {
		if d.RP[i] == cur.RP[i] {
			d.RP[i] = -1
		}
		if d.NP[i] == cur.NP[i] {
			d.NP[i] = -1
		}
	}
	cc := map[string]uint32{}
	for f, v := range d.CC {
		if now, ok := cur.CCParams[f]; !ok || now != v {
			cc[f] = v
		}
	}
	// Writing np_cnp_prio resets np_cnp_prio_mode: when one is written, so is the other.
	if mode, ok := d.CC["np_cnp_prio_mode"]; ok {
		if _, prio := cc["np_cnp_prio"]; prio {
			cc["np_cnp_prio_mode"] = mode
		}
	}
	d.CC = cc
	snap.DCQCN = &d
	return snap
}

// restore is a destroy: it writes back the values recorded before create (raw) and removes the
// resource's boot unit (kind), so the host stops re-applying settings nothing manages.
func (h *mlx5Host) restore(ctx context.Context, ifname string, raw Prior, what, kind string) error {
	var snap mlx5.Snapshot // imported: nothing was recorded before our first change
	if err := decodeInto(raw, &snap); err != nil {
		return err
	}
	defer h.wrote()
	st, err := h.read(ctx, ifname)
	if err != nil {
		return err
	}
	_, hasUnit := st.Units[mlx5.UnitName(kind, ifname)]
	if len(raw) == 0 && !hasUnit {
		return nil
	}
	cmd := ""
	if h.present(st, ifname) {
		cmd = mlx5.RestoreFromSnapshot(ifname, snap, st, h.sudo)
	} // else the netdev is gone: nothing to restore on it
	if hasUnit {
		cmd = mlx5.ShJoin(mlx5.RemoveUnitScript(kind, ifname, h.sudo), cmd)
	}
	if cmd == "" {
		return nil
	}
	res, err := h.c.Run(ctx, h.locked(ifname, cmd), nil)
	if err == nil && res.ExitCode == mlx5.LockExit {
		return h.lockHeld(ifname)
	}
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("restoring the %s values recorded before create failed (exit %d): %s",
			what, res.ExitCode, strings.TrimSpace(string(append(res.Stdout, res.Stderr...))))
	}
	return nil
}

// mergeSnapshot keeps old's values (recorded before create) and takes from fresh only what
// old lacks: settings an update manages for the first time.
func mergeSnapshot(old Prior, fresh mlx5.Snapshot) (Prior, error) {
	if len(old) == 0 {
		return json.Marshal(fresh)
	}
	var snap mlx5.Snapshot
	if err := decodeInto(old, &snap); err != nil {
		return nil, err
	}
	if snap.NIC == nil {
		snap.NIC = fresh.NIC
	} else if fresh.NIC != nil {
		n := snap.NIC
		n.DSCP2Prio = first(n.DSCP2Prio, fresh.NIC.DSCP2Prio)
		n.PrioTC = first(n.PrioTC, fresh.NIC.PrioTC)
		n.TSA = first(n.TSA, fresh.NIC.TSA)
		n.BW = first(n.BW, fresh.NIC.BW)
		n.RoCEToS = first(n.RoCEToS, fresh.NIC.RoCEToS)
	}
	if snap.DCQCN == nil {
		snap.DCQCN = fresh.DCQCN
	} else if fresh.DCQCN != nil {
		cc := maps.Clone(fresh.DCQCN.CC)
		if cc == nil {
			cc = map[string]uint32{}
		}
		maps.Copy(cc, snap.DCQCN.CC)
		snap.DCQCN.CC = cc
	}
	return json.Marshal(snap)
}

func first[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// write applies the NIC settings or the DCQCN profile (the other nil) to ifname, checked on st
// (read afresh), and returns oldPrior with the values st has of what it writes added: the ones
// a first write found stay, so Delete restores the host as it was before the resource.
func (h *mlx5Host) write(ctx context.Context, oldPrior Prior, ifname string, st *mlx5.HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN) (Prior, error) {
	prior, err := mergeSnapshot(oldPrior, st.Snapshot(nic, dcqcn))
	if err != nil {
		return nil, err
	}
	if err := h.apply(ctx, ifname, st, nic, dcqcn); err != nil {
		return nil, err
	}
	return prior, nil
}

// checkSnap runs check, a plan-time check, on ifname's state from the host's snapshot.
func (h *mlx5Host) checkSnap(ctx context.Context, ifname string, check func(*mlx5.HostState) error) error {
	st, err := h.snap(ctx, ifname)
	if err != nil {
		return err
	}
	return check(st)
}

type nicDriver struct{ h *mlx5Host }

func (d nicDriver) Check(ctx context.Context, ifname string) error {
	return d.h.checkSnap(ctx, ifname, (*mlx5.HostState).CheckNIC)
}

// CheckIntent is the plan-time check with the planned settings: what they need must be on the
// host (roce_tos: MLNX_OFED's traffic_class file).
func (d nicDriver) CheckIntent(ctx context.Context, want fabric.NICQoS) error {
	return d.h.checkSnap(ctx, want.Interface, func(st *mlx5.HostState) error { return st.CheckNICIntent(want) })
}

// Tool is the QoS tool the host's read found for ifname (mlnx_qos or dcb).
func (d nicDriver) Tool(ctx context.Context, ifname string) (string, error) {
	st, err := d.h.snap(ctx, ifname)
	if err != nil {
		return "", err
	}
	return st.Tool, nil
}

func (d nicDriver) Read(ctx context.Context, ifname string, managed *fabric.NICQoS) (*fabric.NICQoS, error) {
	st, err := d.h.snap(ctx, ifname)
	if err != nil {
		return nil, err
	}
	if !d.h.present(st, ifname) {
		return nil, nil
	}
	if st.QoSError != nil {
		return nil, st.QoSError
	}
	var n fabric.NICQoS
	if managed == nil {
		n = st.NICQoS()
		n.Persist = st.UnitEnabled(mlx5.KindNICQoS) // import: what it writes is unknown here
	} else {
		n = st.NICQoSLike(*managed)
		// Persisted: the boot unit is the one an apply of the managed settings writes, enabled.
		n.Persist = st.Persisted(mlx5.KindNICQoS, mlx5.Unit(mlx5.KindNICQoS, ifname, st, managed, nil))
	}
	n.Tool = st.Tool
	return &n, nil
}

func (d nicDriver) write(ctx context.Context, oldPrior Prior, n fabric.NICQoS) (Prior, error) {
	st, err := d.h.read(ctx, n.Interface)
	if err != nil {
		return nil, err
	}
	if err := st.CheckNICIntent(n); err != nil {
		return nil, err
	}
	return d.h.write(ctx, oldPrior, n.Interface, st, &n, nil)
}

func (d nicDriver) Create(ctx context.Context, n fabric.NICQoS) (Prior, error) {
	return d.write(ctx, nil, n)
}

func (d nicDriver) Update(ctx context.Context, _, next fabric.NICQoS, prior Prior) (Prior, error) {
	return d.write(ctx, prior, next)
}

func (d nicDriver) Delete(ctx context.Context, old fabric.NICQoS, prior Prior) error {
	return d.h.restore(ctx, old.Interface, prior, "NIC QoS", mlx5.KindNICQoS)
}

type dcqcnDriver struct{ h *mlx5Host }

// state is ifname's state for DCQCN (from snap, or read afresh): on a host without the ecn tree
// (an inbox driver), with the firmware's priority mask, which one more command queries. The
// state is a copy: a snapshot's is shared by every resource of the host.
func (d dcqcnDriver) state(ctx context.Context, ifname string, fresh bool) (*mlx5.HostState, error) {
	get := d.h.snap
	if fresh {
		get = d.h.read
	}
	st, err := get(ctx, ifname)
	if err != nil || st.ECN || !d.h.present(st, ifname) {
		return st, err
	}
	c := *st
	fw, err := (&Firmware{d.h}).read(ctx, ifname)
	c.SetFirmware(fw, err)
	return &c, nil
}

func (d dcqcnDriver) Check(ctx context.Context, ifname string) error {
	return d.h.checkSnap(ctx, ifname, (*mlx5.HostState).CheckInterface)
}

// CheckIntent is the plan-time check with the planned profile: what it writes must be there
// (its error for a host without the ecn tree names the firmware mask of its priorities).
func (d dcqcnDriver) CheckIntent(ctx context.Context, want fabric.DCQCN) error {
	st, err := d.state(ctx, want.Interface, false)
	if err != nil {
		return err
	}
	return st.CheckDCQCN(want)
}

func (d dcqcnDriver) Read(ctx context.Context, ifname string, managed *fabric.DCQCN) (*fabric.DCQCN, error) {
	st, err := d.state(ctx, ifname, false)
	if err != nil {
		return nil, err
	}
	if !d.h.present(st, ifname) {
		return nil, nil
	}
	var out fabric.DCQCN
	if managed == nil {
		out = st.DCQCN(append(slices.Clone(fabric.ReactionPointParams), fabric.NotificationPointParams...)...)
		out.Persist = st.UnitEnabled(mlx5.KindDCQCN)
	} else {
		out = st.DCQCNLike(*managed)
		out.Persist = st.Persisted(mlx5.KindDCQCN, mlx5.Unit(mlx5.KindDCQCN, ifname, st, nil, managed))
	}
	return &out, nil
}

func (d dcqcnDriver) write(ctx context.Context, oldPrior Prior, p fabric.DCQCN) (Prior, error) {
	st, err := d.state(ctx, p.Interface, true)
	if err != nil {
		return nil, err
	}
	if err := st.CheckDCQCN(p); err != nil {
		return nil, err
	}
	return d.h.write(ctx, oldPrior, p.Interface, st, nil, &p)
}

func (d dcqcnDriver) Create(ctx context.Context, p fabric.DCQCN) (Prior, error) {
	return d.write(ctx, nil, p)
}

func (d dcqcnDriver) Update(ctx context.Context, _, next fabric.DCQCN, prior Prior) (Prior, error) {
	return d.write(ctx, prior, next)
}

func (d dcqcnDriver) Delete(ctx context.Context, old fabric.DCQCN, prior Prior) error {
	return d.h.restore(ctx, old.Interface, prior, "DCQCN", mlx5.KindDCQCN)
}
