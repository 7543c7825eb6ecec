package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestFaultARunningLab: `rocelab fault` reaches the `up` serving the directory, the device
// misbehaves as told, and `rocelab fault ... clear` brings it back.
func TestFaultARunningLab(t *testing.T) {
	dir, inv := upInProcess(t, "--switches", "nxos=1", "--hosts", "mlx5=1", "--ports", "2")
	host := inv.Devices["mlx5-1"]
	fault := func(args ...string) string {
		t.Helper()
		code, out, errOut := runArgs(append([]string{"fault", "--dir", dir}, args...)...)
		if code != 0 {
			t.Fatalf("rocelab fault %q: exit %d, %q", args, code, errOut)
		}
		return out
	}

	if out := fault("mlx5-1", "refuse"); !strings.Contains(out, "mlx5-1 now refuses connections") {
		t.Errorf("refuse: %q", out)
	}
	if c, err := labtest.SSHDial(t, host); err == nil {
		_ = c.Close()
		t.Error("a refusing host let a client log in")
	}
	if out := fault("mlx5-1", "clear"); !strings.Contains(out, "mlx5-1 has no faults any more") {
		t.Errorf("clear: %q", out)
	}
	sshRun(t, host, "true")

	// Flags may come after the arguments, as in the usage line.
	if out := fault("mlx5-1", "slow", "--by", "300ms"); !strings.Contains(out, "answers 300ms later") {
		t.Errorf("slow: %q", out)
	}
	start := time.Now()
	sshRun(t, host, "true")
	if took := time.Since(start); took < 600*time.Millisecond { // the handshake and the exec
		t.Errorf("a slow host answered in %s", took)
	}
	fault("mlx5-1", "clear")

	const file = "/sys/class/net/eth1/ecn/roce_np/enable/3"
	write := "echo 0 | sudo -n tee " + file + " > /dev/null"
	fault("mlx5-1", "reject")
	if out, errOut, status := onHost(t, host, write); status != 1 || out != "" || errOut != "tee: "+file+": Permission denied\n" {
		t.Errorf("a rejected write: exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	sshRun(t, host, write)
	if out := fault("mlx5-1", "reboot"); !strings.Contains(out, "mlx5-1 rebooted") {
		t.Errorf("reboot: %q", out)
	}
	if got := sshRun(t, host, "cat "+file); got != "1\n" {
		t.Errorf("after the reboot fault %s = %q", file, got)
	}

	// A firmware setting waits for a cold reboot: rocelab reboot --warm keeps it pending,
	// rocelab reboot loads it.
	const cnp = "/sys/kernel/debug/mlx5/0000:08:00.0/cc_params/np_cnp_dscp"
	sshRun(t, host, "sudo -n mstconfig -d 0000:08:00.0 -y set CNP_DSCP_P1=40 >/dev/null")
	for _, step := range []struct {
		args []string
		want string
	}{{[]string{"--warm", "mlx5-1"}, "48\n"}, {[]string{"mlx5-1"}, "40\n"}} {
		if code, out, errOut := runArgs(append([]string{"reboot", "--dir", dir}, step.args...)...); code != 0 || !strings.Contains(out, "mlx5-1 rebooted") {
			t.Fatalf("rocelab reboot %q: exit %d, %q", step.args, code, out+errOut)
		}
		if got := sshRun(t, host, "sudo -n cat "+cnp); got != step.want {
			t.Errorf("after rocelab reboot %q: np_cnp_dscp = %q, want %q", step.args, got, step.want)
		}
	}

	// A CLI switch refuses the first configuration line of the next transaction.
	fault("nxos-1", "reject")
	code, out, errOut := runArgs("cli", "--dir", dir, "nxos-1", "configure terminal", "class-map type qos match-any X", "end")
	if code != 1 || !strings.Contains(out+errOut, `Module 1 returned status "TCAM region is not configured`) {
		t.Errorf("cli under reject: exit %d, %q", code, out+errOut)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mlx5-9", "stall"}, 1, `no device "mlx5-9" in this lab (devices: mlx5-1, nxos-1)`},
		{[]string{"mlx5-1", "flap"}, 1, `unknown fault kind "flap" (kinds: refuse, drop, stall, reject, slow, and reboot, driver-reload on NIC hosts)`},
		{[]string{"nxos-1", "reboot"}, 1, "nxos-1 is a nxos switch: only NIC hosts reboot"},
		{[]string{"mlx5-1", "drop", "--by", "1s"}, 2, "--by takes a positive duration and goes with slow only"},
		{[]string{"mlx5-1", "slow", "--by", "-1s"}, 2, "--by takes a positive duration"},
		{[]string{"mlx5-1", "slow", "--by", "soon"}, 2, `invalid value "soon" for flag -by`},
		{[]string{"mlx5-1"}, 2, "want 2 arguments (DEVICE KIND), got 1"},
	} {
		code, out, errOut := runArgs(append([]string{"fault", "--dir", dir}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("rocelab fault %q: exit %d, %q; want exit %d with %q", tc.args, code, out+errOut, tc.code, tc.want)
		}
	}
	if code, _, errOut := runArgs("fault", "--dir", t.TempDir(), "mlx5-1", "stall"); code != 1 || !strings.Contains(errOut, "no lab is running in") {
		t.Errorf("fault without a lab: exit %d, %q", code, errOut)
	}
}

// TestFaultControlAnswers: the control socket's fault requests, against a lab in the test.
func TestFaultControlAnswers(t *testing.T) {
	l, _ := startLab(t, lab.Options{Hosts: map[string]int{"mlx5": 1}})
	for _, tc := range []struct{ req, want string }{
		{"fault mlx5-1 stall", "ok"},
		{"fault mlx5-1 slow 1s", "ok"},
		{"fault mlx5-1 slow soon", `error slow: time: invalid duration "soon"`},
		{"fault mlx5-1 drop 1s", "error fault drop: only slow takes a duration"},
		{"fault mlx5-1", `error unknown request "fault mlx5-1"`},
	} {
		if got := controlAnswer(l, strings.Fields(tc.req)); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.req, got, tc.want)
		}
	}
	if got := l.Faults("mlx5-1"); !slices.Equal(got, []lab.FaultKind{lab.FaultStall, lab.FaultSlow}) {
		t.Errorf("faults %v", got)
	}
	if got := controlAnswer(l, strings.Fields("fault mlx5-1 clear")); got != "ok" || len(l.Faults("mlx5-1")) != 0 {
		t.Errorf("clear: %q, faults %v", got, l.Faults("mlx5-1"))
	}
}
