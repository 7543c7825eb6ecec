package mlx5

import (
	"sync"
	"testing"
)

// TestFlockSerializesWriters: two commands under one lock file take turns; a waiter whose -w
// runs out exits with -E's code without running its command; another file is another lock.
func TestFlockSerializesWriters(t *testing.T) {
	h := startHost(t, "")
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, errOut, status := h.Run("flock -w 5 /run/lock/roce-eth0.lock sh -c 'cat /sys/class/net/eth0/device/uevent > /dev/null'"); status != 0 {
				t.Errorf("flock: exit %d %s", status, errOut)
			}
		}()
	}
	wg.Wait()

	h.sys.Locks.Get("/run/lock/roce-eth0.lock") <- struct{}{} // another run holds the lock
	out, errOut, status := h.Run("flock -w 0.2 -E 75 /run/lock/roce-eth0.lock echo ran")
	if status != 75 || out != "" || errOut != "" {
		t.Errorf("held lock: exit %d, %q %q; want 75 and the command not run", status, out, errOut)
	}
	if _, _, status := h.Run("flock -n /run/lock/roce-eth0.lock true"); status != 1 {
		t.Errorf("-n on a held lock: exit %d, want 1", status)
	}
	if out, _, status := h.Run("flock -n /run/lock/roce-eth1.lock echo other"); status != 0 || out != "other\n" {
		t.Errorf("another lock file: exit %d %q", status, out)
	}
	<-h.sys.Locks.Get("/run/lock/roce-eth0.lock")
	if out, _, status := h.Run("flock -w 1 /run/lock/roce-eth0.lock sudo -n echo free"); status != 0 || out != "free\n" {
		t.Errorf("after release (sudo inside): exit %d %q", status, out)
	}
	// A relative lock file is the same lock as its absolute path.
	h.sys.Locks.Get("/sys/class/roce.lock") <- struct{}{}
	if _, _, status := h.Run("cd /sys/class/net && flock -n ../roce.lock true"); status != 1 {
		t.Errorf("relative path of a held lock: exit %d, want 1", status)
	}
	<-h.sys.Locks.Get("/sys/class/roce.lock")
	if _, errOut, status := h.Run("flock /run/lock/x"); status != 64 || errOut == "" {
		t.Errorf("bad usage: exit %d %q", status, errOut)
	}
}
