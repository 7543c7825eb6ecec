package mlx5

import "testing"

// TestScriptWrite: which host commands write, as drop and reject see them.
func TestScriptWrite(t *testing.T) {
	const f = "/sys/class/net/eth0/ecn/roce_np/enable/3"
	for _, tc := range []struct {
		script, kind, target string
	}{
		{"cat " + f, "", ""},
		{"ls /sys/class/net/eth0/device/infiniband >/dev/null 2>&1 && mlnx_qos -i eth0 -a 2>&1 || echo @@failed", "", ""},
		{`sh -c 'cd /sys/class/net && for i in *; do echo "@@netdev $i"; mlnx_qos -i "$i" -a 2>&1; done'`, "", ""},
		{"ethtool -S eth0 2>&1; grep -H . " + f + " 2>&1", "", ""},
		{"sudo -n mlnx_qos -i eth0 -P 3", "", ""},
		{"mlnx_qos --help", "", ""},
		{"echo 0 > " + f, "redirect", f},
		{"echo 0 >> /tmp/x", "redirect", "/tmp/x"},
		{"echo 0 | sudo -n tee '" + f + "' > /dev/null", "tee", f},
		{"echo 0 | tee -a " + f, "tee", f},
		{"sudo -n mlnx_qos -i eth1 --trust dscp --pfc 0,0,0,1,0,0,0,0", "mlnx_qos", "eth1"},
		{"sudo mlnx_qos -i eth0 --dscp2prio set,26,3", "mlnx_qos", "eth0"},
		{"sudo -u root -n sh -c 'mlnx_qos -i eth0 -f 0,0,0,1,0,0,0,0 && echo 0 > " + f + "'", "mlnx_qos", "eth0"},
		{"sudo -n sh -e -c 'cat /dev/null && echo 0 | tee " + f + " >/dev/null'", "tee", f},
		{"for i in 1 2; do echo $i; done > /tmp/out", "redirect", "/tmp/out"},
		{"cat " + f + "; for i in 1; do echo 1 > " + f + "; done", "redirect", f},
		{"echo 'a > b'", "", ""},
		{"echo (", "", ""},
	} {
		w := scriptWrite(tc.script)
		switch {
		case tc.kind == "" && w != nil:
			t.Errorf("%q writes %+v, want nothing", tc.script, *w)
		case tc.kind != "" && (w == nil || w.kind != tc.kind || w.target != tc.target):
			t.Errorf("%q: %+v, want %s %s", tc.script, w, tc.kind, tc.target)
		}
	}
}
