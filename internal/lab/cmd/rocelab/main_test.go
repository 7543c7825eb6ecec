package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// startLab starts a lab of o in a directory of the test's, as `rocelab up` would serve it, and
// stops it with the test.
func startLab(t *testing.T, o lab.Options) (*lab.Lab, string) {
	t.Helper()
	o.Dir = t.TempDir()
	l, err := lab.Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	return l, o.Dir
}

func runArgs(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args     []string
		code     int
		inOutput string
	}{
		{nil, 2, "usage:"},
		{[]string{"help"}, 0, "rocelab up --dir DIR"},
		{[]string{"version"}, 0, "rocelab "},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"up"}, 2, "--dir is required"},
		{[]string{"up", "-h"}, 0, "switches to start, as PLATFORM=N,... (default openconfig=1)"},
		{[]string{"up", "--dir", dir, "--switches", "openconfig"}, 2, "want PLATFORM=N"},
		{[]string{"up", "--dir", dir, "extra"}, 2, "unexpected arguments"},
		{[]string{"up", "--dir", dir, "--hosts", "mlx6=2"}, 1, `unknown platform "mlx6"`},
		{[]string{"reboot"}, 2, "--dir is required"},
		{[]string{"reboot", "--dir", dir}, 2, "want 1 arguments (DEVICE)"},
		{[]string{"reboot", "--dir", dir, "mlx5-1"}, 1, "no lab is running in " + dir},
		{[]string{"up", "--dir", dir, "--switches", "openconfig=1,junos=1"}, 1, `unknown platform "junos"`},
		{[]string{"up", "--dir", dir, "--switches", "sonic=1", "--model", "sonic"}, 2, "want PLATFORM=MODEL"},
		{[]string{"up", "--dir", dir, "--switches", "sonic=1", "--model", "sonic=S6000"}, 1, `platform sonic has no model "S6000"`},
	}
	for _, tc := range cases {
		code, out, errOut := runArgs(tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.inOutput) {
			t.Errorf("rocelab %q: exit %d, output %q; want exit %d with %q", tc.args, code, out+errOut, tc.code, tc.inOutput)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, PIDFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed start left its pid file: %v", err)
	}
}

// TestUpServesUntilSIGTERM runs the real binary: signals, the pid file and the
// exit status are the contract with the Makefile.
func TestUpServesUntilSIGTERM(t *testing.T) {
	bin := buildRocelab(t)
	dir := filepath.Join(t.TempDir(), "lab")
	var stdout bytes.Buffer
	cmd := exec.Command(bin, "up", "--dir", dir, "--ports", "4")
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	invPath := filepath.Join(dir, lab.InventoryFile)
	inv := waitInventory(t, dir)
	pid, err := os.ReadFile(filepath.Join(dir, PIDFile))
	if err != nil || strings.TrimSpace(string(pid)) != strconv.Itoa(cmd.Process.Pid) {
		t.Errorf("pid file %q (%v), want %d", pid, err, cmd.Process.Pid)
	}
	if got := inv.Interfaces["openconfig-1"]; len(got) != 4 {
		t.Errorf("--ports 4 gave %v", got)
	}
	capabilities(t, inv.Devices["openconfig-1"])

	if code, _, errOut := runArgs("up", "--dir", dir); code != 1 || !strings.Contains(errOut, "already running") {
		t.Errorf("second up in the same dir: exit %d, %q", code, errOut)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v (want exit 0)", err)
	}
	if !strings.Contains(stdout.String(), "openconfig-1") {
		t.Errorf("stdout lacks the device line:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, PIDFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pid file not removed: %v", err)
	}
	if _, err := os.Stat(invPath); err != nil {
		t.Errorf("inventory.json should stay: %v", err)
	}
}

// capabilities asks d for its gNMI capabilities as any gNMI client would from the inventory.
func capabilities(t *testing.T, d lab.DeviceEntry) {
	t.Helper()
	if _, err := labtest.Dial(t, d).Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil {
		t.Fatalf("Capabilities on the inventory's device: %v", err)
	}
}

// onHost runs cmd on a host in a connection of its own, logged in as any SSH client would from
// the inventory entry (pinned host key, password), and returns what it printed and its exit
// status.
func onHost(t *testing.T, d lab.DeviceEntry, cmd string) (stdout, stderr string, status int) {
	t.Helper()
	c, err := labtest.SSHDial(t, d)
	if err != nil {
		t.Fatalf("login to %s: %v", d.Address, err)
	}
	defer func() { _ = c.Close() }()
	return labtest.RunOn(t, c, cmd, "")
}

// sshRun is onHost of a command that must exit 0 without writing to stderr; it returns what the
// command printed.
func sshRun(t *testing.T, d lab.DeviceEntry, cmd string) string {
	t.Helper()
	out, errOut, status := onHost(t, d, cmd)
	if status != 0 || errOut != "" {
		t.Fatalf("%q: exit %d, stderr %q, stdout %q", cmd, status, errOut, out)
	}
	return out
}

// buildRocelab builds the rocelab binary for the tests that run it (skipped under -short).
func buildRocelab(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: this test builds the rocelab binary with go build and runs it (make test and CI run it)")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		// go test itself runs from the go tool: its absence is a broken setup, not a reason to skip
		t.Fatalf("the go tool is not on PATH, needed to build rocelab: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "rocelab")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// upInProcess runs `rocelab up --dir DIR args...` in this process until the test ends, when it
// must exit 0, and returns DIR and the inventory once up has written it.
func upInProcess(t *testing.T, args ...string) (string, lab.Inventory) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lab")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var upErr bytes.Buffer
	go func() {
		done <- run(ctx, append([]string{"up", "--dir", dir}, args...), io.Discard, &upErr)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("up exited %d: %s", code, upErr.String())
		}
	})
	return dir, waitInventory(t, dir)
}

// waitFor polls until path exists (up writes its files through a rename: once there, whole).
func waitFor(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear", path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitInventory waits for dir's inventory.json and reads it.
func waitInventory(t *testing.T, dir string) lab.Inventory {
	t.Helper()
	path := filepath.Join(dir, lab.InventoryFile)
	waitFor(t, path)
	var inv lab.Inventory
	raw, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(raw, &inv) != nil {
		t.Fatalf("inventory: %v %s", err, raw)
	}
	return inv
}

// eventually polls cond until it holds, failing the test after 10 seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}
