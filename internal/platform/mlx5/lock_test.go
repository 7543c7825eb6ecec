package mlx5

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLockedCommand(t *testing.T) {
	got := Locked("eth0", 15*time.Second, "sh -c 'true'", true)
	if want := "sudo -n flock -w 15 -E 75 /run/lock/roce-eth0.lock sh -c 'true'"; got != want {
		t.Errorf("Locked = %q, want %q", got, want)
	}
	if got := Locked("eth1", 200*time.Millisecond, "x", false); !strings.HasPrefix(got, "flock -w 1 -E 75 ") {
		t.Errorf("a wait under a second must still wait a second: %q", got)
	}
}

// TestLockedWithRealFlock runs the command shape through util-linux flock and /bin/sh: a
// second writer waits for the first, and one that cannot get the lock in time exits 75
// without running.
func TestLockedWithRealFlock(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("util-linux flock is not installed here; the lab's flock is tested in internal/lab")
	}
	dir := t.TempDir()
	lock := filepath.Join(dir, "roce-eth0.lock")
	held := filepath.Join(dir, "held")
	hold := exec.Command("flock", lock, "sh", "-c", `touch "$0"; sleep 2`, held)
	if err := hold.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = hold.Wait() }()
	// The holder says when it has the lock (a fixed sleep raced flock's start on a busy machine).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(held); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("flock never took the lock")
		}
	}
	marker := filepath.Join(dir, "ran")
	cmd := strings.Replace(Locked("eth0", time.Second, "touch "+marker, false), "/run/lock/roce-eth0.lock", lock, 1)
	err := exec.Command("/bin/sh", "-c", cmd).Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != LockExit {
		t.Fatalf("a held lock: %v, want exit %d", err, LockExit)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the command ran without the lock")
	}
	cmd = strings.Replace(Locked("eth0", 5*time.Second, "touch "+marker, false), "/run/lock/roce-eth0.lock", lock, 1)
	if out, err := exec.Command("/bin/sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("waiting for the lock: %v %s", err, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the command did not run once the lock was free")
	}
}

func TestSplitApplied(t *testing.T) {
	written, status, read, ok := SplitApplied([]byte("Netlink error\n@@applied 1\n@@mlnx_qos\nDCBX mode: OS controlled\n"))
	if !ok || status != 1 || string(written) != "Netlink error\n" || string(read) != "@@mlnx_qos\nDCBX mode: OS controlled\n" {
		t.Errorf("split = %q %d %q %v", written, status, read, ok)
	}
	if _, _, _, ok := SplitApplied([]byte("sudo: a password is required\n")); ok {
		t.Error("without the marker the write did not finish")
	}
	if got := LockedApply("eth0", 10*time.Second, "sh -c 'true'", false); !strings.HasPrefix(got, "flock -w 10 -E 75 /run/lock/roce-eth0.lock sh -c 'sh -c '\\''true'\\'' 2>&1; echo \"@@applied $?\"; ") {
		t.Errorf("LockedApply = %q", got)
	}
}
