package mlx5

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// testUnit is a unit of the shape a persisted roce_nic_qos installs: bound
// to eth0's device unit, its command under eth0's lock.
const testUnit = `[Unit]
Description=RoCE QoS of eth0
BindsTo=sys-subsystem-net-devices-eth0.device
After=sys-subsystem-net-devices-eth0.device

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/bin/flock -w 60 /run/lock/roce-eth0.lock /bin/sh -c "mlnx_qos -i eth0 --trust dscp >/dev/null"

[Install]
WantedBy=sys-subsystem-net-devices-eth0.device
`

const testUnitName = "roce-test-eth0.service"

// installUnit writes testUnit as root over SSH, as a provisioning tool does.
func installUnit(e *hostEnv, content string) {
	e.T.Helper()
	e.Must("echo '" + content + "' | sudo -n tee /etc/systemd/system/" + testUnitName + " >/dev/null")
}

func TestSystemctlEnableDisable(t *testing.T) {
	e := newHostEnv(t)
	e.Expect("systemctl is-enabled "+testUnitName, "", "Failed to get unit file state for "+testUnitName+": No such file or directory\n", 1)
	installUnit(e, testUnit)
	e.Expect("systemctl is-enabled "+testUnitName, "disabled\n", "", 1)
	e.Expect("systemctl enable "+testUnitName, "", "Failed to enable unit: Access denied\n", 1)

	link := "/etc/systemd/system/sys-subsystem-net-devices-eth0.device.wants/" + testUnitName
	wantEnable := "Created symlink " + link + " → /etc/systemd/system/" + testUnitName + ".\n" +
		"Unit /etc/systemd/system/" + testUnitName + " is added as a dependency to a non-existent unit sys-subsystem-net-devices-eth0.device.\n"
	e.Expect("sudo -n systemctl enable "+testUnitName, "", wantEnable, 0)
	// Already enabled: no link made, the warning again (as systemd 252 does).
	wantAgain := wantEnable[strings.Index(wantEnable, "\n")+1:]
	e.Expect("sudo -n systemctl enable "+testUnitName, "", wantAgain, 0)
	e.Expect("systemctl is-enabled "+testUnitName, "enabled\n", "", 0)
	e.Expect("ls /etc/systemd/system/sys-subsystem-net-devices-eth0.device.wants", testUnitName+"\n", "", 0)
	if got := e.Must("cat " + link); got != testUnit+"\n" {
		t.Errorf("the link does not lead to the unit file: %q", got)
	}
	wantDisable := "Removed \"" + link + "\".\n"
	e.Expect("sudo -n systemctl disable "+testUnitName, "", wantDisable, 0)
	e.Expect("sudo -n systemctl disable "+testUnitName, "", "", 0)
	e.Expect("systemctl is-enabled "+testUnitName, "disabled\n", "", 1)
	e.Expect("sudo -n rm /etc/systemd/system/"+testUnitName, "", "", 0)
	e.Expect("sudo -n rm /etc/systemd/system/"+testUnitName, "", "rm: cannot remove '/etc/systemd/system/"+testUnitName+"': No such file or directory\n", 1)
	e.Expect("sudo -n rm -f /etc/systemd/system/"+testUnitName, "", "", 0)
	e.Expect("rm /etc/systemd/system/x", "", "rm: cannot remove '/etc/systemd/system/x': No such file or directory\n", 1)

	// The same steps through Debian's own systemctl on a scratch root
	// print the same lines (less the root's prefix) and make the same
	// link, so the lab's texts and layout are systemd's.
	sysctl := realSystemctl(t)
	if sysctl == "" {
		return
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "etc/systemd/system"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "etc/systemd/system", testUnitName), []byte(testUnit+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sys := func(args ...string) (string, string, int) {
		cmd := exec.Command(sysctl, append([]string{"--root=" + root}, args...)...)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if x, ok := err.(*exec.ExitError); ok {
			code = x.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), strings.ReplaceAll(errOut.String(), root, ""), code
	}
	for _, step := range []struct {
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{[]string{"is-enabled", testUnitName}, "disabled\n", "", 1},
		{[]string{"enable", testUnitName}, "", wantEnable, 0},
		{[]string{"enable", testUnitName}, "", wantAgain, 0},
		{[]string{"is-enabled", testUnitName}, "enabled\n", "", 0},
	} {
		if out, errOut, code := sys(step.args...); out != step.stdout || errOut != step.stderr || code != step.code {
			t.Errorf("real systemctl %v: exit %d stdout %q stderr %q; the lab prints exit %d stdout %q stderr %q",
				step.args, code, out, errOut, step.code, step.stdout, step.stderr)
		}
	}
	var links []string
	_ = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			links = append(links, strings.TrimPrefix(p, root)+" -> "+target)
		}
		return nil
	})
	sort.Strings(links)
	if want := []string{link + " -> /etc/systemd/system/" + testUnitName}; strings.Join(links, "\n") != strings.Join(want, "\n") {
		t.Errorf("real systemctl enable made %q; the lab makes %q", links, want)
	}
	for _, step := range [][]string{{"disable", testUnitName}, {"is-enabled", testUnitName}} {
		out, errOut, code := sys(step...)
		if step[0] == "disable" && (errOut != wantDisable || code != 0) || step[0] == "is-enabled" && (out != "disabled\n" || code != 1) {
			t.Errorf("real systemctl %v: exit %d stdout %q stderr %q", step, code, out, errOut)
		}
	}
	if _, errOut, code := sys("is-enabled", "roce-none-eth0.service"); code != 1 ||
		errOut != "Failed to get unit file state for roce-none-eth0.service: No such file or directory\n" {
		t.Errorf("real systemctl is-enabled of a missing unit: exit %d, %q", code, errOut)
	}
}

// systemctl's command-line errors, which it gives before it looks at a unit or the manager:
// the lab's texts are Debian's systemctl 252.38 ones.
func TestSystemctlArgsMatchDebian(t *testing.T) {
	h := startHost(t, "")
	cases := []hostCase{
		{"systemctl --bogus", "", "systemctl: unrecognized option '--bogus'\n", 1},
		{"systemctl enable --bogus x", "", "systemctl: unrecognized option '--bogus'\n", 1},
		{"systemctl -qx", "", "systemctl: invalid option -- 'x'\n", 1},
		{"systemctl enable", "", "Too few arguments.\n", 1},
		{"systemctl disable", "", "Too few arguments.\n", 1},
		{"systemctl is-enabled", "", "Too few arguments.\n", 1},
		{"systemctl start", "", "Too few arguments.\n", 1},
		{"systemctl frob", "", "Unknown command verb frob.\n", 1},
		{"systemctl frob x.service", "", "Unknown command verb frob.\n", 1},
	}
	expectRuns(t, h, cases)
	bin := realSystemctl(t)
	if bin == "" {
		return
	}
	for _, c := range cases {
		if out, errOut, st := runReal(t, bin, c.cmd); out != c.stdout || errOut != c.stderr || st != c.status {
			t.Errorf("real %s: %q %q %d", c.cmd, out, errOut, st)
		}
	}
}

// realSystemctl is Debian's systemctl, which works on a scratch root
// (--root) without a running manager. CI installs it and sets
// ROCE_REQUIRE_SYSTEMCTL=1; elsewhere a missing one skips the comparison.
func realSystemctl(t *testing.T) string {
	p, err := exec.LookPath("systemctl")
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_SYSTEMCTL") == "1" {
			t.Fatalf("ROCE_REQUIRE_SYSTEMCTL=1 but no systemctl: %v", err)
		}
		t.Log("no systemctl on this machine (Debian package systemd): the lab's texts are not compared with the real tool")
		return ""
	}
	return p
}

func TestEnabledUnitsRunAtBootAndDriverReload(t *testing.T) {
	e := newHostEnv(t)
	trust := func() string {
		out := e.Must("mlnx_qos -i eth0")
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "Priority trust state:") {
				return strings.TrimSpace(strings.TrimPrefix(l, "Priority trust state:"))
			}
		}
		t.Fatalf("no trust state in %q", out)
		return ""
	}
	installUnit(e, testUnit)
	e.Must("sudo -n systemctl daemon-reload")
	e.h.Reboot()
	if got := trust(); got != "pcp" {
		t.Fatalf("a unit that is not enabled ran at boot: trust %s", got)
	}
	e.Must("sudo -n systemctl daemon-reload && sudo -n systemctl enable " + testUnitName + " 2>/dev/null")
	e.h.Reboot()
	if got := trust(); got != "dscp" {
		t.Fatalf("after a reboot the enabled unit did not run: trust %s", got)
	}
	out, _, status := e.Run("systemctl status " + testUnitName)
	for _, want := range []string{
		"● " + testUnitName + " - RoCE QoS of eth0\n",
		"\n     Loaded: loaded (/etc/systemd/system/" + testUnitName + "; enabled; preset: enabled)\n",
		"\n     Active: active (exited) since ",
		" ExecStart=/usr/bin/flock -w 60 /run/lock/roce-eth0.lock /bin/sh -c mlnx_qos -i eth0 --trust dscp >/dev/null (code=exited, status=0/SUCCESS)\n",
		"\n   Main PID: ",
	} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("status after boot: exit %d, lacks %q:\n%s", status, want, out)
		}
	}
	e.Expect("systemctl daemon-reload", "", "Reload daemon failed: Access denied\n", 1)
	e.Expect("systemctl start "+testUnitName, "", "Failed to start "+testUnitName+": Access denied\n"+
		"See system logs and 'systemctl status "+testUnitName+"' for details.\n", 4)
	e.Expect("sudo -n systemctl disable roce-none.service", "", "Failed to disable unit: Unit file roce-none.service does not exist.\n", 1)
	e.Expect("systemctl status roce-none.service", "", "Unit roce-none.service could not be found.\n", 4)

	// A driver reload loses the settings like a reboot, and the device
	// unit's reappearance starts the unit again.
	e.Must("sudo -n mlnx_qos -i eth0 --trust pcp >/dev/null")
	e.h.DriverReload()
	if got := trust(); got != "dscp" {
		t.Fatalf("after a driver reload the enabled unit did not run: trust %s", got)
	}

	// A unit whose command fails is failed, and start says so the way
	// systemctl does.
	installUnit(e, strings.Replace(testUnit, "--trust dscp", "--trust nope", 1))
	e.Expect("sudo -n systemctl start "+testUnitName, "",
		"Warning: The unit file, source configuration file or drop-ins of "+testUnitName+" changed on disk. Run 'systemctl daemon-reload' to reload units.\n", 0)
	e.Must("sudo -n systemctl daemon-reload")
	e.Expect("sudo -n systemctl start "+testUnitName, "", "Job for "+testUnitName+" failed because the control process exited with error code.\n"+
		"See \"systemctl status "+testUnitName+"\" and \"journalctl -xeu "+testUnitName+"\" for details.\n", 1)
	out, _, status = e.Run("systemctl status " + testUnitName)
	if status != 3 || !strings.Contains(out, "Active: failed (Result: exit-code)") {
		t.Errorf("status of a failed unit: exit %d\n%s", status, out)
	}
}
