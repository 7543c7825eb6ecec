package driver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// fakeHost is an mlx5 host behind sshConn. A read of eth0 answers read (what ReadScript
// prints); a write (LockedApply) answers writeExit and, when it is 0, reads back readBack;
// any other command (a restore under the lock) answers otherExit. Every command is kept.
type fakeHost struct {
	read, readBack       string
	writeExit, otherExit int
	cmds                 []string
}

func (f *fakeHost) Run(_ context.Context, cmd string, _ []byte) (ssh.Result, error) {
	f.cmds = append(f.cmds, cmd)
	switch {
	case cmd == mlx5.ReadScript("eth0", false):
		return ssh.Result{Stdout: []byte(f.read)}, nil
	case strings.Contains(cmd, "@@applied"):
		if f.writeExit == mlx5.LockExit {
			return ssh.Result{ExitCode: mlx5.LockExit}, nil
		}
		out := "mlnx_qos: done\n@@applied " + string(rune('0'+f.writeExit)) + "\n" + f.readBack
		return ssh.Result{Stdout: []byte(out)}, nil
	case strings.Contains(cmd, "flock"):
		return ssh.Result{ExitCode: f.otherExit}, nil
	}
	return ssh.Result{ExitCode: 127, Stderr: []byte("unexpected command")}, nil
}

// restores are the commands run under the lock that were not a write with its read-back.
func (f *fakeHost) restores() []string {
	var out []string
	for _, c := range f.cmds {
		if strings.Contains(c, "flock") && !strings.Contains(c, "@@applied") {
			out = append(out, c)
		}
	}
	return out
}

// readFull is the platform's composed read of eth0 with the contract's roce_nic_qos applied.
func readFull(t *testing.T) string { return platformFixture(t, "mlx5/read-full.txt") }

// fullHost is a host whose eth0 reads as readFull, before a write and after it.
func fullHost(t *testing.T) (*fakeHost, nicDriver, dcqcnDriver) {
	f := &fakeHost{read: readFull(t)}
	f.readBack = f.read
	nic, dcqcn := hostTest(t, f)
	return f, nic, dcqcn
}

// importEth0 runs a host driver's plan-time Check of eth0 and reads it as an import does
// (nothing managed), failing t on an error or an absent eth0.
func importEth0[T any](t *testing.T, d interface {
	Check(context.Context, string) error
	Read(context.Context, string, *T) (*T, error)
}) *T {
	t.Helper()
	ctx := context.Background()
	if err := d.Check(ctx, "eth0"); err != nil {
		t.Fatal(err)
	}
	have, err := d.Read(ctx, "eth0", nil)
	if err != nil || have == nil {
		t.Fatalf("read: %v %v", have, err)
	}
	return have
}

func hostTest(t *testing.T, f *fakeHost) (nicDriver, dcqcnDriver) {
	t.Helper()
	h := &mlx5Host{c: f, wait: 5 * time.Second, device: "sw",
		reads: newReads(testRegistry("mlx5", devices.Device{PerResourceReads: true}), "sw")}
	return nicDriver{h}, dcqcnDriver{h}
}

// The NIC's settings as the host has them are what a write of them reads back: create
// records the values before it and delete writes them back under the netdev's lock.
func TestNICQoSLifecycle(t *testing.T) {
	ctx := context.Background()
	f, nic, _ := fullHost(t)
	have := importEth0[fabric.NICQoS](t, nic)
	if have.Trust != fabric.TrustDSCP {
		t.Errorf("trust %q, want dscp (the host's)", have.Trust)
	}
	want := *have
	want.Persist = false
	raw, err := nic.Create(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) == 0 {
		t.Fatal("create recorded nothing to restore")
	}
	if n := len(f.restores()); n != 0 {
		t.Errorf("a write that read back as asked restored %d times", n)
	}
	if raw, err = nic.Update(ctx, want, want, raw); err != nil || len(raw) == 0 {
		t.Fatalf("update: %s %v", raw, err)
	}
	if err := nic.Delete(ctx, want, raw); err != nil {
		t.Fatal(err)
	}
	if n := len(f.restores()); n != 1 {
		t.Errorf("delete ran %d restores under the lock, want one", n)
	}
	// Imported (nothing recorded) and no boot unit: nothing to put back, nothing sent.
	before := len(f.cmds)
	if err := nic.Delete(ctx, want, nil); err != nil {
		t.Fatal(err)
	}
	if len(f.restores()) != 1 || len(f.cmds) != before+1 {
		t.Errorf("delete after import ran %v", f.cmds[before:])
	}
}

// A write the host accepts but reads back otherwise is undone: the values read before are
// written back, and the error says so.
func TestNICQoSWriteRolledBack(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name                 string
		writeExit, otherExit int
		want                 string
	}{
		{"reads back otherwise", 0, 0, "reads back different NIC QoS on eth0; the values read before the change were restored on eth0"},
		{"refused", 1, 0, "the host refused the change (exit 1): mlnx_qos: done; the values read before the change were restored"},
		{"restore fails too", 1, 1, "restoring the values read before the change also failed"},
		{"lock held", mlx5.LockExit, 0, "another run is changing eth0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeHost{read: readFull(t), writeExit: tc.writeExit, otherExit: tc.otherExit}
			f.readBack = f.read
			nic, _ := hostTest(t, f)
			have, err := nic.Read(ctx, "eth0", nil)
			if err != nil {
				t.Fatal(err)
			}
			want := *have
			want.Persist = false
			// PFC on priority 4 too: the read-back (the host unchanged) does not have it.
			want.PFCPriorities = append(append([]int{}, want.PFCPriorities...), 4)
			raw, err := nic.Create(ctx, want)
			if err == nil || !strings.Contains(err.Error(), tc.want) || raw != nil {
				t.Fatalf("got %s %v, want %q", raw, err, tc.want)
			}
			if tc.writeExit != mlx5.LockExit && len(f.restores()) != 1 {
				t.Errorf("ran %d restores, want one", len(f.restores()))
			}
		})
	}
}

func TestDCQCNReadAndWrite(t *testing.T) {
	ctx := context.Background()
	_, _, dcqcn := fullHost(t)
	have := importEth0[fabric.DCQCN](t, dcqcn)
	want := *have
	want.Persist = false
	raw, err := dcqcn.Create(ctx, want)
	if err != nil || len(raw) == 0 {
		t.Fatalf("create: %s %v", raw, err)
	}
	if err := dcqcn.Delete(ctx, want, raw); err != nil {
		t.Fatal(err)
	}
	if gone, err := dcqcn.Read(ctx, "eth9", nil); err == nil && gone != nil {
		t.Errorf("a netdev the host lacks: %+v", gone)
	}
}

func TestMergeSnapshotKeepsValuesFromBeforeCreate(t *testing.T) {
	tc := [8]int{0, 0, 0, 3, 0, 0, 6, 0}
	old, _ := json.Marshal(mlx5.Snapshot{Interface: "eth0",
		NIC:   &mlx5.NICSnapshot{Trust: "pcp"},
		DCQCN: &mlx5.DCQCNSnapshot{CC: map[string]uint32{"rp_ai_rate": 5}}})
	// An update that now also manages priority_to_tc and rp_hai_rate, read after our create
	// changed trust and rp_ai_rate.
	fresh := mlx5.Snapshot{Interface: "eth0",
		NIC:   &mlx5.NICSnapshot{Trust: "dscp", PrioTC: &tc},
		DCQCN: &mlx5.DCQCNSnapshot{CC: map[string]uint32{"rp_ai_rate": 10, "rp_hai_rate": 50}}}
	raw, err := mergeSnapshot(old, fresh)
	if err != nil {
		t.Fatal(err)
	}
	var got mlx5.Snapshot
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.NIC.Trust != "pcp" || got.NIC.PrioTC == nil || *got.NIC.PrioTC != tc {
		t.Errorf("NIC: want trust from before create and prio_tc from its first touch, got %+v", got.NIC)
	}
	if got.DCQCN.CC["rp_ai_rate"] != 5 || got.DCQCN.CC["rp_hai_rate"] != 50 {
		t.Errorf("CC: want rp_ai_rate 5 (before create) and rp_hai_rate 50 (first touch), got %v", got.DCQCN.CC)
	}
	if _, err := mergeSnapshot(Prior("{"), fresh); err == nil {
		t.Error("corrupt private state must be an error")
	}
}

func TestTrimSnapshotWritesOnlyWhatChanged(t *testing.T) {
	snap := mlx5.Snapshot{DCQCN: &mlx5.DCQCNSnapshot{
		RP: [8]int{1, 1, 1, 1, 1, 1, 1, 1}, NP: [8]int{1, 1, 1, 1, 1, 1, 1, 1},
		CC: map[string]uint32{"rp_ai_rate": 5, "rp_hai_rate": 50, "np_cnp_prio": 6, "np_cnp_prio_mode": 1},
	}}
	cur := &mlx5.HostState{RP: [8]int{1, 1, 1, 0, 1, 1, 1, 1}, NP: [8]int{1, 1, 1, 1, 1, 1, 1, 1},
		CCParams: map[string]uint32{"rp_ai_rate": 5, "rp_hai_rate": 100, "np_cnp_prio": 3, "np_cnp_prio_mode": 1}}
	got := trimSnapshot(snap, cur).DCQCN
	if got.RP != [8]int{-1, -1, -1, 1, -1, -1, -1, -1} || got.NP != [8]int{-1, -1, -1, -1, -1, -1, -1, -1} {
		t.Errorf("enables: RP %v NP %v", got.RP, got.NP)
	}
	want := map[string]uint32{"rp_hai_rate": 50, "np_cnp_prio": 6, "np_cnp_prio_mode": 1}
	if len(got.CC) != len(want) {
		t.Fatalf("CC = %v, want %v", got.CC, want)
	}
	for k, v := range want {
		if got.CC[k] != v {
			t.Errorf("CC[%s] = %d, want %d (mode is rewritten because writing np_cnp_prio resets it)", k, got.CC[k], v)
		}
	}
	if snap.DCQCN.RP[0] != 1 {
		t.Error("trimSnapshot must not modify its input")
	}
}
