package mlx5

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// capture extracts the output that follows the line ending in command in
// a captured session (testdata/, public captures whose sources their headers name), up to the next
// prompt line, with the 8-space indentation markdown made of the real TAB
// put back (" priority:" lines are TAB + space).
func capture(t *testing.T, file, command, prompt string) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, line := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasSuffix(line, command):
			in = true
		case in && (strings.HasPrefix(line, prompt) || strings.HasPrefix(line, "#")):
			return strings.Join(out, "\n") + "\n"
		case in:
			out = append(out, regexp.MustCompile(`^ {8}`).ReplaceAllString(line, "\t"))
		}
	}
	t.Fatalf("%s: no output after %q", file, command)
	return ""
}

// A fresh host prints the trust-pcp capture (mlnx_qos-output-3.txt). The
// capture's tool predates b8c08c5 (2023), which appended
// "max_buffer_size=N" to the buffer line; that suffix is the one
// normalisation.
func TestMlnxQosGoldenFresh(t *testing.T) {
	want := capture(t, "testdata/mlnx_qos-output-3.txt", "# mlnx_qos -i ens6", "root@")
	want = strings.Replace(want, "524160,0,0,0,0,0,0,0,\n", "524160,0,0,0,0,0,0,0,max_buffer_size=524288\n", 1)
	e := newHostEnv(t)
	if got := e.Must("mlnx_qos -i eth0"); got != want {
		t.Errorf("fresh host:\n%s\nwant (capture 3):\n%s", got, want)
	}
}

// `mlnx_qos --trust dscp` with PFC on priority 3 prints the trust-dscp
// capture (mlnx_qos-output-1.txt), the default map listed in netlink order.
// That capture's adapter reported no receive buffers, so the lab's buffer
// line and row are dropped before comparing.
func TestMlnxQosGoldenTrustDSCP(t *testing.T) {
	want := capture(t, "testdata/mlnx_qos-output-1.txt", "+ mlnx_qos -i eth4 --trust dscp", "+ ")
	e := newHostEnv(t)
	e.Must("sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 > /dev/null")
	got := e.Must("sudo -n mlnx_qos -i eth0 --trust dscp")
	got = regexp.MustCompile(`(?m)^(Receive buffer size .*|\tbuffer .*)\n`).ReplaceAllString(got, "")
	if got != want {
		t.Errorf("--trust dscp:\n%s\nwant (capture 1):\n%s", got, want)
	}
}

func TestMlnxQosSettings(t *testing.T) {
	e := newHostEnv(t)
	// From trust pcp, one DSCP entry switches trust to dscp and is the
	// whole table netlink reports.
	out := e.Must("sudo -n mlnx_qos -i eth0 --dscp2prio set,26,3 --dscp2prio set,48,6")
	if !strings.Contains(out, "Priority trust state: dscp\ndscp2prio mapping:\n\tprio:3 dscp:26,\n\tprio:6 dscp:48,\nReceive buffer") {
		t.Errorf("dscp2prio from pcp:\n%s", out)
	}
	e.Expect("sudo -n mlnx_qos -i eth0 --dscp2prio del,26,4", "dscp2prio command failed\n", "", 1)
	e.Must("sudo -n mlnx_qos -i eth0 --dscp2prio del,26,3 --dscp2prio del,48,6 >/dev/null")
	if out := e.Must("mlnx_qos -i eth0"); !strings.Contains(out, "Priority trust state: pcp\nReceive") {
		t.Errorf("deleting the last entry goes back to pcp:\n%s", out)
	}
	// A full map, then one entry moved: it heads its priority's list.
	e.Must("sudo -n mlnx_qos -i eth0 --trust dscp > /dev/null")
	out = e.Must("sudo -n mlnx_qos -i eth0 --dscp2prio set,26,3 --dscp2prio set,0,3 --dscp2prio set,48,6")
	if !strings.Contains(out, "\tprio:0 dscp:07,06,05,04,03,02,01,\n\tprio:1") ||
		!strings.Contains(out, "\tprio:3 dscp:00,26,31,30,29,28,27,25,\n\tprio:3 dscp:24,\n\tprio:4") {
		t.Errorf("moved entries:\n%s", out)
	}

	// ETS: strict CNP class, 50/50 between TC 0 and TC 3.
	out = e.Must("sudo -n mlnx_qos -i eth0 -p 0,0,0,3,0,0,6,0 -s ets,ets,ets,ets,ets,ets,strict,ets -t 50,0,0,50,0,0,0,0")
	want := "tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%\n\t priority:  0\n\t priority:  1\n\t priority:  2\n\t priority:  4\n\t priority:  5\n\t priority:  7\n" +
		"tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%\n\t priority:  3\n" +
		"tc: 6 ratelimit: unlimited, tsa: strict\n\t priority:  6\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("ETS:\n%s\nwant the TCs:\n%s", out, want)
	}
	if got := e.Must("mlnx_qos -i eth0"); !strings.HasSuffix(got, want) {
		t.Errorf("ETS read back:\n%s", got)
	}
	all := e.Must("mlnx_qos -i eth0 -a")
	if !strings.Contains(all, "tc: 1 ratelimit: unlimited, tsa: ets, bw: 0%\ntc: 2 ratelimit: unlimited, tsa: ets, bw: 0%\ntc: 3") {
		t.Errorf("-a shows every TC:\n%s", all)
	}
	// Rate limits in Gbps, PFC and cable length.
	out = e.Must("sudo -n mlnx_qos -i eth0 -r 0,0,0,25,0,0,0,0 --cable_len=40 -f 0,0,0,1,1,0,0,0")
	if !strings.Contains(out, "Cable len: 40\n") || !strings.Contains(out, "tc: 3 ratelimit: 25.0 Gbps, tsa: ets, bw: 50%") ||
		!strings.Contains(out, "\tenabled     0   0   0   1   1   0   0   0   \n\tbuffer      0   0   0   1   1   0   0   0   \n") {
		t.Errorf("rate limit, cable length, PFC:\n%s", out)
	}
	e.Expect("mlnx_qos -i eth0 -P 4; mlnx_qos -i eth0 -P 5", "1\n0\n", "", 0)
	out = e.Must("sudo -n mlnx_qos -i eth0 -r 0,0,0,256,0,0,0,0")
	if !strings.HasPrefix(out, "Rate limit is not supported on your system!\nDCBX") || !strings.Contains(out, "tc: 3 ratelimit: 25.0 Gbps") {
		t.Errorf("a rate over 255 Gbps is refused, the old one stays:\n%s", out)
	}
	e.Expect("sudo -n mlnx_qos -i eth0 -F x,x,x,x,0,x,x,x && mlnx_qos -i eth0 -P 4", "0\n", "", 0)
	e.Expect("sudo -n mlnx_qos -i eth0 -d fw > /dev/null && mlnx_qos --inter=eth0 | head", "", "sh: 1: head: not found\n", 127)
	if out := e.Must("mlnx_qos --inter=eth0"); !strings.HasPrefix(out, "DCBX mode: Firmware controlled\n") {
		t.Errorf("-d fw:\n%s", out)
	}
}

func TestMlnxQosErrors(t *testing.T) {
	e := newHostEnv(t)
	const usage = "Usage: mlnx_qos -i <interface> [options]\n\n"
	cases := []hostCase{
		{"mlnx_qos", "Interface name is required\n" + usage, "", 1},
		{"mlnx_qos -i eth0 extra", "Bad arguments\n" + usage, "", 1},
		{"mlnx_qos -i", "", usage + "mlnx_qos: error: -i option requires 1 argument\n", 2},
		{"mlnx_qos -i eth0 --foo", "", usage + "mlnx_qos: error: no such option: --foo\n", 2},
		{"mlnx_qos -i eth0 -z", "", usage + "mlnx_qos: error: no such option: -z\n", 2},
		{"mlnx_qos -i eth0 --p 1", "", usage + "mlnx_qos: error: ambiguous option: --p (--pfc, --prio2buffer, --prio_tc?)\n", 2},
		{"mlnx_qos --version", "mlnx_qos 1.2\n", "", 0},
		{"mlnx_qos -i eth0 --pfc 0,0,0,1", "pfc list must have 8 items\n", "", 1},
		{"mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0,0", "Too many items for PFC\n", "", 1},
		{"mlnx_qos -i eth0 --pfc 0,0,0,2,0,0,0,0", "Bad value for PFC: 2 is not in the range 0..1\n" + usage, "", 1},
		{"mlnx_qos -i eth0 --pfc x,0,0,0,0,0,0,0", "Bad value for PFC: invalid literal for int() with base 10: 'x'\n" + usage, "", 1},
		{"mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0", "Netlink error: Operation not permitted (1)\n", "", 1},
		{"mlnx_qos -i eth0 --trust dscp", "Netlink error: Operation not permitted (1)\n", "", 1},
		{"mlnx_qos -i eth0 --dscp2prio set,26,3", "Netlink error: Operation not permitted (1)\n", "", 1},
		{"mlnx_qos -i eth0 -s strict,strict,strict,strict,strict,strict,strict,strict", "Netlink error: Operation not permitted (1)\n", "", 1},
		{"mlnx_qos -i eth0 --trust dscp --dscp2prio set,26,3", "trust and dscp2prio commands cannot be used at the same time.\n", "", 1},
		{"mlnx_qos -i eth0 --trust foo", "Invalid trust state command. Refer to the help.\n", "", 1},
		{"mlnx_qos -i eth0 -d foo", "Invalid dcbx mode command. Refer to the help.\n", "", 1},
		{"mlnx_qos -i eth0 --dscp2prio set,64,3", "", "", 1},
		{"mlnx_qos -i eth0 -s ets,foo,ets,ets,ets,ets,ets,ets", "('Bad TSA value: ', 'foo')\n" + usage, "", 1},
		{"mlnx_qos -i eth0 -s ets", "tsa list must have 8 items\n", "", 1},
		{"mlnx_qos -i eth0 -t 50,50,0,0,0,0,0,0", "ETS BW for a strict/vendor TC must be 0\n" + usage, "", 1},
		{"mlnx_qos -i eth0 -p 0,0,0,8,0,0,0,0", "Bad value for UP => TC mapping: 8 is not in the range 0..7\n" + usage, "", 1},
		{"mlnx_qos -i eth0 -p 0,0,0", "prio_tc list must have 8 items\n", "", 1},
		{"sudo -n mlnx_qos -i eth0 -s ets,ets,ets,ets,ets,ets,ets,ets", "Netlink error: Bad value. see dmesg.\n", "", 1},
		{"sudo -n mlnx_qos -i eth0 -s ets,ets,ets,ets,ets,ets,strict,ets -t 50,0,0,40,0,0,0,0", "Netlink error: Bad value. see dmesg.\n", "", 1},
		{"mlnx_qos -i eth0 -P 9", "pfc index must be in range of 0-7\n", "", 1},
		{"mlnx_qos -i eth9", "Priority trust state is not supported on your system\nBuffers commands are not supported on your system\n" +
			"Rate limit is not supported on your system!\nETS features are not supported on your system\n", "", 1},
		{"sudo -n mlnx_qos -i eth9 --trust dscp", "Priority trust state is not supported on your system\n", "", 1},
		{"mlnx_qos -i eth9 --pfc 0,0,0,1,0,0,0,0", "", "Traceback (most recent call last):\n  File \"/usr/bin/mlnx_qos\", line 488, in <module>\n" +
			"    pfc_delay = ctrl.get_ieee_pfc_delay()\nOSError: Netlink error: No such device (19)\n\n" +
			"During handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n" +
			"  File \"/usr/bin/mlnx_qos\", line 492, in <module>\n    print('mlnx_qos: Error setting pfc:' + e)\n" +
			"TypeError: can only concatenate str (not \"OSError\") to str\n", 1},
	}
	for _, tc := range cases {
		e.Expect(tc.cmd, tc.stdout, tc.stderr, tc.status)
	}
	// A failing option after a valid one: the valid one is applied, as the
	// tool applies them in its fixed order.
	e.Expect("sudo -n mlnx_qos -i eth1 -f 0,0,0,1,0,0,0,0 --trust foo", "Invalid trust state command. Refer to the help.\n", "", 1)
	e.Expect("mlnx_qos -i eth1 -P 3", "1\n", "", 0)
	if out, _, _ := e.Run("mlnx_qos -i eth0 -h"); !strings.HasPrefix(out, usage+"Options:\n  --version             show program's version number and exit\n  -h, --help            show this help message and exit\n") {
		t.Errorf("-h:\n%s", out)
	}
}

// The list options of mlnx_qos take 8 comma-separated items: more is "Too many items ...", fewer
// (where the tool counts) "... must have 8 items", each checked before anything is written.
func TestMlnxQosListOptions(t *testing.T) {
	h := startHost(t, "")
	expectRuns(t, h, []hostCase{
		{"mlnx_qos -i eth0 -t 0,0,0", "tcbw list must have 8 items\n", "", 1},
		{"mlnx_qos -i eth0 -t 0,0,0,0,0,0,0,0,0", "Too many items for ETS BW\n", "", 1},
		{"mlnx_qos -i eth0 -s ets,ets,ets,ets,ets,ets,ets,ets,ets", "Too many items for TSA\n", "", 1},
		{"mlnx_qos -i eth0 -p 0,0,0,0,0,0,0,0,0", "Too many items in UP => TC mapping\n", "", 1},
		{"mlnx_qos -i eth0 -r 0,0,0", "ratelimit must have 8 items\n", "", 1},
		{"mlnx_qos -i eth0 -r 0,0,0,0,0,0,0,0,0", "Too many items for ratelimit\n", "", 1},
		{"sudo -n mlnx_qos -i eth0 --prio2buffer 0,0,0,0,0,0,0,0,0", "Too many items for prio2buffer\n", "", 1},
		{"sudo -n mlnx_qos -i eth0 --buffer_size 0,0,0,0,0,0,0,0,0", "Too many items for buffer_size\n", "", 1},
		{"sudo -n mlnx_qos -i eth0 --buffer_size -1", "Buffers commands error\n", "", 1},
	})
}
