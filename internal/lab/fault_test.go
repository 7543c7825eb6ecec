package lab

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"golang.org/x/crypto/ssh"
)

// wantStalled runs op (a request to a stalled device, what) in the background: it must not
// answer within 300 ms; after unfault it must finish, and it returns op's output for the
// caller's checks.
func wantStalled(t *testing.T, what string, op func() (string, error), unfault func()) string {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := op()
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("a stalled %s answered: %q %v", what, r.out, r.err)
	case <-time.After(300 * time.Millisecond):
	}
	unfault()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("the stalled %s after ClearFaults: %v", what, r.err)
		}
		return r.out
	case <-time.After(20 * time.Second):
		t.Fatalf("ClearFaults did not release the stalled %s", what)
	}
	return ""
}

// TestFaultAPI: the Go API's errors name what is allowed, Faults lists what is armed, one-shots
// included, and ClearFaults removes everything; reboot is a host's one-shot that fires at once.
func TestFaultAPI(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"eos": 1, "nxos": 1, "sonic": 1},
		Hosts: map[string]int{"mlx5": 1}, Ports: 2})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{l.InjectFault("nope-1", FaultStall), `no device "nope-1" in this lab (devices: eos-1, mlx5-1, nxos-1, sonic-1)`},
		{l.InjectFault("eos-1", "flap"), `unknown fault kind "flap" (kinds: refuse, drop, stall, reject, slow, and reboot, driver-reload on NIC hosts)`},
		{l.InjectFault("sonic-1", FaultReboot), "sonic-1 is a sonic switch: only NIC hosts reboot (switch faults: refuse, drop, stall, reject, slow)"},
		{l.InjectSlow("mlx5-1", 0), "slow: the delay must be positive, got 0s"},
		{l.InjectSlow("nope-1", time.Second), `no device "nope-1"`},
		{l.ClearFaults("nope-1"), `no device "nope-1"`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want it to contain %q", tc.err, tc.want)
		}
	}
	if got := l.Faults("nope-1"); got != nil {
		t.Errorf("Faults of an unknown device: %v", got)
	}
	all := []FaultKind{FaultRefuse, FaultDrop, FaultStall, FaultReject, FaultSlow}
	for _, name := range l.Devices() {
		if got := l.Faults(name); len(got) != 0 {
			t.Errorf("%s starts with faults %v", name, got)
		}
		for _, k := range slices.Backward(all) {
			if err := l.InjectFault(name, k); err != nil {
				t.Fatalf("%s %s: %v", name, k, err)
			}
		}
		if got := l.Faults(name); !slices.Equal(got, all) {
			t.Errorf("%s faults %v, want %v", name, got, all)
		}
		if err := l.ClearFaults(name); err != nil {
			t.Fatal(err)
		}
		if got := l.Faults(name); len(got) != 0 {
			t.Errorf("%s faults after ClearFaults: %v", name, got)
		}
	}

	h := l.Host("mlx5-1")
	const file = "/sys/class/net/eth1/ecn/roce_np/enable/3"
	if _, errOut, st := h.Run("sudo -n sh -c 'echo 0 > " + file + "'"); st != 0 {
		t.Fatalf("write: %d %s", st, errOut)
	}
	if err := l.InjectFault("mlx5-1", FaultReboot); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := h.Run("cat " + file); out != "1\n" || len(l.Faults("mlx5-1")) != 0 {
		t.Errorf("after the reboot fault %s = %q, faults %v", file, out, l.Faults("mlx5-1"))
	}
}

// execOn runs cmd in a new session of c and returns its output and the error of Run (an
// *ssh.ExitError for a non-zero status).
func execOn(t *testing.T, c *ssh.Client, cmd string) (stdout, stderr string, err error) {
	t.Helper()
	return labtest.Exec(t, c, cmd, "")
}

// waitClosed waits for c's connection to end.
func waitClosed(t *testing.T, c *ssh.Client) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		_ = c.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the open connection was not closed")
	}
}

func TestHostFaults(t *testing.T) {
	e := newHostEnv(t)
	const file = "/sys/class/net/eth0/ecn/roce_np/enable/3"
	write := "echo 0 | sudo -n tee " + file + " > /dev/null"
	state := func() string {
		out, _, _ := e.h.Run("cat " + file + "; mlnx_qos -i eth0")
		return out
	}
	fresh := state()
	unfault := func() {
		t.Helper()
		if err := e.l.ClearFaults("mlx5-1"); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("refuse", func(t *testing.T) {
		before := e.h.Counters().Connections
		c := sshClient(t, e.d)
		if err := e.l.InjectFault("mlx5-1", FaultRefuse); err != nil {
			t.Fatal(err)
		}
		waitClosed(t, c)
		if _, err := sshDial(t, e.d); err == nil {
			t.Fatal("a refusing host let a client log in")
		}
		if got := e.h.Counters().Connections; got != before+2 {
			t.Errorf("connections %d, want %d (the refused one counts)", got, before+2)
		}
		unfault()
		if out, _, err := execOn(t, sshClient(t, e.d), "cat "+file); err != nil || out != "1\n" {
			t.Errorf("after ClearFaults: %q %v", out, err)
		}
	})

	t.Run("drop", func(t *testing.T) {
		c := sshClient(t, e.d)
		if err := e.l.InjectFault("mlx5-1", FaultDrop); err != nil {
			t.Fatal(err)
		}
		if out, _, err := execOn(t, c, "cat "+file+" && mlnx_qos -i eth0 -a > /dev/null"); err != nil || out != "1\n" {
			t.Fatalf("a read under drop: %q %v", out, err)
		}
		if got := e.l.Faults("mlx5-1"); !slices.Equal(got, []FaultKind{FaultDrop}) {
			t.Fatalf("a read fired the drop: faults %v", got)
		}
		_, _, err := execOn(t, c, write)
		var exit *ssh.ExitError
		if err == nil || errors.As(err, &exit) {
			t.Fatalf("a dropped write: %v, want the connection to end without an exit status", err)
		}
		waitClosed(t, c)
		if got := state(); got != fresh {
			t.Errorf("the dropped write changed the host:\n%s", got)
		}
		if got := e.l.Faults("mlx5-1"); len(got) != 0 {
			t.Errorf("the drop did not disarm: %v", got)
		}
		c = sshClient(t, e.d)
		if _, errOut, err := execOn(t, c, write); err != nil {
			t.Fatalf("the write after the drop: %v %s", err, errOut)
		}
		if out, _, _ := e.h.Run("cat " + file); out != "0\n" {
			t.Errorf("the write after the drop did not apply: %q", out)
		}
		e.h.Reboot()
	})

	t.Run("reject", func(t *testing.T) {
		c := sshClient(t, e.d)
		for _, tc := range []struct{ cmd, stdout, stderr string }{
			{"sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0", "Netlink error: Operation not permitted (1)\n", ""},
			{write, "", "tee: " + file + ": Permission denied\n"},
			{"sudo -n sh -c 'echo 0 > " + file + "'", "", "sh: 1: cannot create " + file + ": Permission denied\n"},
			// The provider's writes run under flock: the detector looks through it.
			{"flock -w 5 -E 75 /run/lock/roce-eth0.lock sudo -n sh -c 'echo 0 > " + file + "'", "", "sh: 1: cannot create " + file + ": Permission denied\n"},
		} {
			if err := e.l.InjectFault("mlx5-1", FaultReject); err != nil {
				t.Fatal(err)
			}
			if _, _, err := execOn(t, c, "cat "+file); err != nil {
				t.Fatalf("a read under reject: %v", err)
			}
			out, errOut, err := execOn(t, c, tc.cmd)
			var exit *ssh.ExitError
			if !errors.As(err, &exit) || exit.ExitStatus() != 1 || out != tc.stdout || errOut != tc.stderr {
				t.Errorf("%q under reject: %v, stdout %q, stderr %q; want exit 1, %q, %q", tc.cmd, err, out, errOut, tc.stdout, tc.stderr)
			}
			if got := state(); got != fresh {
				t.Errorf("the rejected write changed the host:\n%s", got)
			}
			if got := e.l.Faults("mlx5-1"); len(got) != 0 {
				t.Errorf("the reject did not disarm: %v", got)
			}
		}
		if _, errOut, err := execOn(t, c, "sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 > /dev/null"); err != nil {
			t.Fatalf("the write after the reject: %v %s", err, errOut)
		}
		if got := state(); got == fresh {
			t.Error("the write after the reject did not apply")
		}
		e.h.Reboot()
	})

	t.Run("stall", func(t *testing.T) {
		c := sshClient(t, e.d)
		before := e.h.Counters().Connections
		if err := e.l.InjectFault("mlx5-1", FaultStall); err != nil {
			t.Fatal(err)
		}
		out := wantStalled(t, "exec", func() (string, error) {
			s, err := c.NewSession()
			if err != nil {
				return "", err
			}
			defer func() { _ = s.Close() }()
			out, err := s.Output("cat " + file)
			return string(out), err
		}, unfault)
		if out != "1\n" {
			t.Errorf("the stalled exec after ClearFaults: %q", out)
		}
		if got := e.h.Counters().Connections; got != before {
			t.Errorf("the stall cost a connection: %d -> %d", before, got)
		}
	})

	t.Run("slow", func(t *testing.T) {
		c := sshClient(t, e.d)
		const by = 300 * time.Millisecond
		if err := e.l.InjectSlow("mlx5-1", by); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, _, err := execOn(t, c, "cat "+file); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < by {
			t.Errorf("a slow host answered in %s, want at least %s", d, by)
		}
		unfault()
		if _, _, err := execOn(t, c, "cat "+file); err != nil {
			t.Fatal(err)
		}
	})
}

// TestStopReleasesStalls: Stop does not wait for a stalled operation.
func TestStopReleasesStalls(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"eos": 1, "sonic": 1}, Hosts: map[string]int{"mlx5": 1}, Ports: 2})
	host, eos := l.Inventory().Devices["mlx5-1"], l.Inventory().Devices["eos-1"]
	hc, ec := sshClient(t, host), sshClient(t, eos)
	shell := openEOSShell(t, eos)
	gc := labtest.Dial(t, entry(t, l, "sonic-1"))
	for _, name := range l.Devices() {
		if err := l.InjectFault(name, FaultStall); err != nil {
			t.Fatal(err)
		}
	}
	shell.send("show version\n")
	for _, c := range []*ssh.Client{hc, ec} {
		go func() {
			if s, err := c.NewSession(); err == nil {
				_ = s.Run("show version")
			}
		}()
	}
	go func() { _, _ = gc.Capabilities(context.Background(), &gpb.CapabilityRequest{}) }()
	// Stop comes once every device holds its operations: the host its exec, the eos switch its
	// exec and the shell's line, the sonic switch its RPC.
	for name, want := range map[string]int{"mlx5-1": 1, "eos-1": 2, "sonic-1": 1} {
		faults := l.devices[name].(faultTarget).FaultSet()
		for deadline := time.Now().Add(10 * time.Second); faults.Stalled() < want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s holds %d stalled operations, want %d", name, faults.Stalled(), want)
			}
		}
	}
	stopped := make(chan struct{})
	go func() {
		l.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("Stop waited for stalled operations")
	}
}
