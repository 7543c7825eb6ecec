package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// downTimeout is how long down waits for the lab to exit after SIGTERM.
const downTimeout = 10 * time.Second

func down(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("down", stderr)
	dir := fs.String("dir", "", "directory of the lab to stop (required)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if !dirOnly(fs, *dir, stderr) {
		return 2
	}
	msg, err := stopLab(*dir, downTimeout)
	if err != nil {
		fmt.Fprintln(stderr, "rocelab down:", err)
		return 1
	}
	fmt.Fprintln(stdout, msg)
	return 0
}

// stopLab sends SIGTERM to the lab recorded in dir's pid file and waits for
// it to exit. Nothing running is not an error: down is idempotent, so a
// script can call it from an EXIT trap whatever happened before.
func stopLab(dir string, timeout time.Duration) (string, error) {
	pidPath := filepath.Join(dir, PIDFile)
	b, err := os.ReadFile(filepath.Clean(pidPath))
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Sprintf("rocelab: no lab is running in %s", dir), nil
	}
	if err != nil {
		return "", err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return "", fmt.Errorf("%s does not hold a process id: %q", pidPath, b)
	}
	if pid == os.Getpid() {
		return "", fmt.Errorf("%s names this process (%d)", pidPath, pid)
	}
	if exited(pid) {
		// The lab was killed without cleaning up.
		_ = os.Remove(pidPath)
		return fmt.Sprintf("rocelab: no lab is running in %s (removed a stale %s)", dir, PIDFile), nil
	}
	name, ok := processName(pid)
	if !ok && procReadable() {
		// Linux shows an empty cmdline for a moment while a process execs
		// (the kernel installs the new arguments after closing the exec
		// pipe): a pid reused just now must not be signalled on that
		// blank, so look again before giving up.
		for i := 0; i < 40 && !ok && !exited(pid); i++ {
			time.Sleep(25 * time.Millisecond)
			name, ok = processName(pid)
		}
		if !ok && !exited(pid) {
			return "", fmt.Errorf("pid %d in %s: cannot read its command line, not stopping it", pid, pidPath)
		}
	}
	if ok && name != "rocelab" {
		return "", fmt.Errorf("pid %d in %s is %q, not rocelab: stale pid file? not stopping it", pid, pidPath, name)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return fmt.Sprintf("rocelab: lab (pid %d) had already stopped", pid), nil
		}
		return "", fmt.Errorf("signal pid %d: %w", pid, err)
	}
	deadline := time.Now().Add(timeout)
	for !exited(pid) {
		if time.Now().After(deadline) {
			return "", fmt.Errorf("lab (pid %d) did not exit within %s of SIGTERM", pid, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Sprintf("rocelab: lab in %s (pid %d) stopped", dir, pid), nil
}

// exited reports that pid is gone, or is a zombie whose parent has not
// reaped it yet (it has exited all the same).
func exited(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// "pid (comm) S ...": the state follows the last ')'.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}

// procReadable reports that this system has Linux's /proc, where an
// unreadable command line means "not yet", not "cannot know".
func procReadable() bool {
	_, err := os.Stat("/proc/self/cmdline")
	return err == nil
}

// processName is the base name of pid's executable as started, where /proc
// tells it (Linux); ok is false elsewhere.
func processName(pid int) (string, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return "", false
	}
	argv0, _, _ := bytes.Cut(b, []byte{0})
	return filepath.Base(string(argv0)), true
}
