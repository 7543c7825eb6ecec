package mlx5

import (
	"fmt"
	"time"
)

// LockExit is the exit status of a Locked command when another writer held the lock for the
// whole wait (flock -E); the command itself then did not run.
const LockExit = 75

// LockPath is the lock file of the writes to ifname: /run/lock is where the FHS puts lock
// files. Every write the provider makes to a netdev holds it, so two Terraform runs writing one
// NIC at once take turns instead of interleaving their mlnx_qos and sysfs writes.
func LockPath(ifname string) string { return "/run/lock/roce-" + ifname + ".lock" }

// Locked returns cmd run under flock(1) on ifname's lock file, waiting at most wait (whole
// seconds, at least 1) for another writer. With sudo, flock itself runs through `sudo -n`,
// since /run/lock is root's on some distributions. ifname must be a ValidNetdev.
func Locked(ifname string, wait time.Duration, cmd string, sudo bool) string {
	secs := max(1, int(wait/time.Second))
	prefix := ""
	if sudo {
		prefix = "sudo -n "
	}
	return fmt.Sprintf("%sflock -w %d -E %d %s %s", prefix, secs, LockExit, shQuote(LockPath(ifname)), cmd)
}
