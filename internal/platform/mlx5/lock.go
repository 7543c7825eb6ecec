package mlx5

import (
	"fmt"
	"strconv"
	"strings"
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

// markApplied separates, in a LockedApply command's output, the write's output from the
// read-back, and carries the write's exit status.
const markApplied = "@@applied "

// LockedApply is Locked around a write (a command of ApplyScript or RestoreFromSnapshot) and
// then ReadScript(ifname): the read-back that verifies the write runs before another writer can
// take the lock and change the NIC. Split its standard output with SplitApplied.
func LockedApply(ifname string, wait time.Duration, write string, sudo bool) string {
	inner := write + ` 2>&1; echo "` + markApplied + `$?"; ` + ReadScript(ifname, sudo)
	return Locked(ifname, wait, shWrap(inner, false), sudo)
}

// SplitApplied splits the standard output of a LockedApply command: the write's output, its
// exit status and the read-back. ok is false when the marker is missing (the command did not
// get that far).
func SplitApplied(out []byte) (written []byte, status int, read []byte, ok bool) {
	s := string(out)
	i := strings.Index(s, markApplied)
	if i < 0 {
		return out, 0, nil, false
	}
	rest := s[i+len(markApplied):]
	line, after, _ := strings.Cut(rest, "\n")
	status, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return out, 0, nil, false
	}
	return []byte(s[:i]), status, []byte(after), true
}
