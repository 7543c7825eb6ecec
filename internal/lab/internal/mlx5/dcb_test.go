package mlx5

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// dcb on a fresh port prints what iproute2 6.15's dcb_*.c print for mlx5's defaults (every TC
// vendor at 100 %, priority 0 on TC 1, cable length 7, no app entries), in the layouts of the
// dcb-*.8 examples (each token followed by a space).
func TestDCBShowsFreshPort(t *testing.T) {
	h := startHost(t, "")
	for cmd, want := range map[string]string{
		"dcb pfc show dev eth0":    "pfc-cap 8 macsec-bypass off delay 7 \nprio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off \n",
		"dcb -j pfc show dev eth0": `{"pfc_cap":8,"macsec_bypass":false,"delay":7,"prio_pfc":[false,false,false,false,false,false,false,false]}` + "\n",
		"dcb ets show dev eth0 prio-tc tc-tsa tc-bw": "prio-tc 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7 \n" +
			"tc-tsa 0:vendor 1:vendor 2:vendor 3:vendor 4:vendor 5:vendor 6:vendor 7:vendor \n" +
			"tc-bw 0:100 1:100 2:100 3:100 4:100 5:100 6:100 7:100 \n",
		"dcb -j ets show dev eth0 prio-tc": `{"prio_tc":[1,0,2,3,4,5,6,7]}` + "\n",
		"dcb app show dev eth0":            "",
		"dcb -j app show dev eth0":         "{}\n",
		"dcb dcbx show dev eth0":           "host cee ieee \n",
		"dcb -j buffer show dev eth0":      `{"prio_buffer":[0,0,0,0,0,0,0,0],"buffer_size":[524160,0,0,0,0,0,0,0],"total_size":524288}` + "\n",
	} {
		if out, errOut, st := h.Run(cmd); out != want || errOut != "" || st != 0 {
			t.Errorf("%s:\n%q %q %d\nwant\n%q", cmd, out, errOut, st, want)
		}
	}
}

// dcb and mlnx_qos drive the same driver state: the first DSCP entry turns trust to DSCP, a
// flush of the entries turns it back to PCP (mlx5e_dcbnl_ieee_setapp / delapp); PFC and ETS
// set with dcb read back with mlnx_qos; writes need root; iproute2's own checks refuse what it
// refuses before the kernel sees it.
func TestDCBWritesTheDriver(t *testing.T) {
	h := startHost(t, "")
	run := func(cmd, wantOut, wantErr string, wantSt int) {
		t.Helper()
		out, errOut, st := h.Run(cmd)
		if out != wantOut || errOut != wantErr || st != wantSt {
			t.Errorf("%s:\n%q %q %d\nwant\n%q %q %d", cmd, out, errOut, st, wantOut, wantErr, wantSt)
		}
	}
	trust := func() string {
		out, _, _ := h.Run("mlnx_qos -i eth0")
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "Priority trust state:") {
				return l
			}
		}
		return out
	}
	run("dcb app add dev eth0 dscp-prio 24:3", "", "Attribute write: Operation not permitted\n", 1)
	run("sudo -n dcb app add dev eth0 dscp-prio 0:0 24:3 CS6:6", "", "", 0)
	if got := trust(); got != "Priority trust state: dscp" {
		t.Errorf("after dcb app add: %q", got)
	}
	run("dcb app show dev eth0", "dscp-prio 0:0 CS3:3 CS6:6 \n", "", 0)
	run("dcb -N -j app show dev eth0", `{"dscp_prio":[[0,0," "],[24,3," "],[48,6," "]]}`+"\n", "", 0)
	// replace: the SET moves DSCP 24, so the DEL of 24:3 that follows finds nothing; exit 0.
	run("sudo -n dcb app replace dev eth0 dscp-prio 24:4", "",
		"Attribute write: No such file or directory\nCould not remove replaced APP entries\n", 0)
	run("dcb -N app show dev eth0", "dscp-prio 0:0 24:4 48:6 \n", "", 0)
	run("sudo -n dcb app flush dev eth0 dscp-prio", "", "", 0)
	if got := trust(); got != "Priority trust state: pcp" {
		t.Errorf("after dcb app flush: %q", got)
	}
	run("sudo -n dcb app add dev eth0 dscp-prio 64:1", "", "In DSCP:PRIO mapping, DSCP is expected to be 0..63\nInvalid mapping 64\n", 1)

	run("sudo -n dcb pfc set dev eth0 prio-pfc all:off 3:on", "", "", 0)
	if out, _, _ := h.Run("mlnx_qos -i eth0"); !strings.Contains(out, "enabled     0   0   0   1   0   0   0   0") {
		t.Errorf("PFC set with dcb, mlnx_qos shows:\n%s", out)
	}
	run("sudo -n dcb pfc set dev eth0 prio-pfc 3:maybe", "",
		"Error: argument of \"PFC\" must be one of \"off\", \"on\", not \"maybe\"\nInvalid pfc mapping 3\n", 1)

	// A fresh port reports every TC at 100 %: prio-tc alone fails iproute2's sum check.
	run("sudo -n dcb ets set dev eth0 prio-tc 0:0", "", "Bandwidth percentages in tc-bw sum to 800%, expected 0%\n", 1)
	run("sudo -n dcb ets set dev eth0 tc-tsa all:ets 6:strict tc-bw all:0 0:50 3:40", "", "Bandwidth percentages in tc-bw sum to 90%, expected 100%\n", 1)
	run("sudo -n dcb ets set dev eth0 tc-tsa all:ets 6:strict tc-bw all:0 0:50 3:50 prio-tc all:0 3:3 6:6", "", "", 0)
	run("dcb ets show dev eth0 tc-tsa tc-bw", "tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets \n"+
		"tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:100 7:0 \n", "", 0)
	if out, _, _ := h.Run("mlnx_qos -i eth0"); !strings.Contains(out, "tc: 6 ratelimit: unlimited, tsa: strict") {
		t.Errorf("ETS set with dcb, mlnx_qos shows:\n%s", out)
	}

	// The inbox model has dcb and no mlnx_qos.
	inbox := startHost(t, Inbox)
	for cmd, want := range map[string]string{
		"command -v dcb; command -v mlnx_qos; echo $?": "/usr/sbin/dcb\n127\n",
		"ls /sys/class/net/eth0/ecn 2>&1":              "ls: cannot access '/sys/class/net/eth0/ecn': No such file or directory\n",
	} {
		if out, _, _ := inbox.Run(cmd); out != want {
			t.Errorf("inbox host: %s: %q, want %q", cmd, out, want)
		}
	}
}

// The error paths that do not depend on a DCB-capable device, against the real dcb when the
// machine has it (CI installs iproute2): the lab's lo has no dcbnl ops, as a real lo has none.
func TestDCBMatchesIproute2(t *testing.T) {
	bin, err := exec.LookPath("dcb")
	for _, p := range []string{"/usr/sbin/dcb", "/sbin/dcb"} {
		if err != nil {
			bin, err = exec.LookPath(p)
		}
	}
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_DCB") == "1" {
			t.Fatal("no dcb (ROCE_REQUIRE_DCB=1; .ci/run installs iproute2)")
		}
		t.Skip("no dcb on this machine (Debian: iproute2)")
	}
	h := startHost(t, "")
	for _, c := range []string{
		"dcb app show dev lo", "dcb pfc show dev lo", "dcb ets show dev nosuch0", "dcb app show dev",
		"dcb foo", "dcb pfc set dev lo prio-pfc 3:maybe", "dcb app add dev nosuch0 dscp-prio 64:1",
		"dcb -j pfc show dev lo", "dcb ets set dev lo prio-tc 0:0",
	} {
		args := strings.Fields(c)
		x := exec.Command(bin, args[1:]...)
		var out, errOut strings.Builder
		x.Stdout, x.Stderr = &out, &errOut
		st := 0
		if err := x.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			st = ee.ExitCode()
		}
		// The lab runs as the login user; reads need no privilege, and these fail before a write.
		lo, le, ls := h.Run(c)
		if lo != out.String() || le != errOut.String() || ls != st {
			t.Errorf("%s:\nlab  %q %q %d\nreal %q %q %d", c, lo, le, ls, out.String(), errOut.String(), st)
		}
	}
}

// dcb apptrust: mlx5 has no DCB_ATTR_DCB_APP_TRUST_TABLE (Linux 6.6), so a show finds no
// attribute and a set is refused by the kernel; both look the port up first, and a set needs
// root.
func TestDCBAppTrust(t *testing.T) {
	h := startHost(t, "")
	expectRuns(t, h, []hostCase{
		{"dcb apptrust show dev eth0", "", "Attribute not found: Success\n", 1},
		{"sudo -n dcb apptrust set dev eth0 order dscp", "", "Attribute write: Operation not supported\n", 1},
		{"dcb apptrust show dev eth9", "", "Attribute read: No such device\n", 1},
		{"dcb apptrust show", "", "Usage: dcb apptrust show dev STRING\n       [ order ]\n\n", 0},
	})
}

// dcb pfc and ets show print the lines their keywords name, in the order given; help, a word no
// keyword starts, and a keyword the lab does not emulate end the command as dcb_cmd_*_show does.
func TestDCBShowKeywords(t *testing.T) {
	h := startHost(t, "")
	expectRuns(t, h, []hostCase{
		{"dcb pfc show dev eth0 requests", "", "lab: dcb pfc show requests is not emulated\n", 2},
		{"dcb pfc show dev eth0 bogus", "", "What is \"bogus\"?\nUsage: dcb [ -s ] pfc show dev STRING\n           [ pfc-cap ] [ prio-pfc ] [ macsec-bypass ]\n           [ delay ] [ requests ] [ indications ]\n\n", 1},
		{"dcb pfc show dev eth0 help", "", "Usage: dcb [ -s ] pfc show dev STRING\n           [ pfc-cap ] [ prio-pfc ] [ macsec-bypass ]\n           [ delay ] [ requests ] [ indications ]\n\n", 0},
		{"dcb ets show dev eth0 willing cbs", "willing off \ncbs off \n", "", 0},
		{"dcb ets show dev eth0 bogus", "", "What is \"bogus\"?\nUsage: dcb ets show dev STRING\n           [ willing ] [ ets-cap ] [ cbs ] [ tc-tsa ]\n           [ reco-tc-tsa ] [ pg-bw ] [ tc-bw ] [ reco-tc-bw ]\n           [ prio-tc ] [ reco-prio-tc ]\n\n", 1},
		{"dcb pfc show dev", "", "Command line is not complete. Try option \"help\"\n", 255},
	})
}
