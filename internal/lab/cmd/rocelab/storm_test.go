package main

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestStormARunningLab: `rocelab storm` reaches the `up` serving the directory and makes a
// host's and a switch's counters move the way a congested port's do, until --off.
func TestStormARunningLab(t *testing.T) {
	dir, inv := upInProcess(t, "--switches", "openconfig=1", "--hosts", "mlx5=1", "--ports", "2")
	host := inv.Devices["mlx5-1"]
	sshRun(t, host, "sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 > /dev/null")
	pauses := func() int {
		t.Helper()
		m := regexp.MustCompile(`(?m)^     rx_prio3_pause: (\d+)$`).FindStringSubmatch(sshRun(t, host, "ethtool -S eth0"))
		if m == nil {
			t.Fatal("no rx_prio3_pause line")
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if n := pauses(); n != 0 {
		t.Fatalf("%d pauses before any storm", n)
	}

	code, out, errOut := runArgs("storm", "--dir", dir, "mlx5-1", "eth0")
	if code != 0 || !strings.Contains(out, "storm on mlx5-1 eth0") {
		t.Fatalf("storm: exit %d, %q %q", code, out, errOut)
	}
	// The counters run on the wall clock: wait for them to move rather than for a fixed time.
	first := 0
	eventually(t, "rx_prio3_pause to count pauses during the storm", func() bool { first = pauses(); return first > 0 })
	eventually(t, "rx_prio3_pause to keep counting during the storm", func() bool { return pauses() > first })
	if code, out, errOut := runArgs("storm", "--dir", dir, "mlx5-1", "eth0", "--off"); code != 0 || !strings.Contains(out, "is over") {
		t.Fatalf("storm --off: exit %d, %q %q", code, out, errOut)
	}
	first = pauses()
	time.Sleep(20 * time.Millisecond)
	if second := pauses(); second != first {
		t.Errorf("after --off rx_prio3_pause went %d -> %d", first, second)
	}

	const discards = "/interfaces/interface[name=Ethernet2]/state/counters/out-discards"
	if code, out, _ := runArgs("get", "--dir", dir, "--type", "state", "openconfig-1", discards); code != 0 || out != "\"0\"\n" {
		t.Fatalf("out-discards before the storm: exit %d, %q", code, out)
	}
	if code, _, errOut := runArgs("storm", "--dir", dir, "openconfig-1", "Ethernet2"); code != 0 {
		t.Fatalf("switch storm: exit %d, %q", code, errOut)
	}
	eventually(t, "out-discards to count during the storm", func() bool {
		code, out, _ := runArgs("get", "--dir", dir, "--type", "state", "openconfig-1", discards)
		return code == 0 && out != "\"0\"\n"
	})
	if code, _, errOut := runArgs("get", "--dir", dir, "--type", "config", "openconfig-1", discards); code != 1 || !strings.Contains(errOut, "nothing there (NotFound)") {
		t.Errorf("a CONFIG get of a counter: exit %d, %q", code, errOut)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"storm", "--dir", dir, "mlx5-9", "eth0"}, 1, `no device "mlx5-9" in this lab (devices: mlx5-1, openconfig-1)`},
		{[]string{"storm", "--dir", dir, "mlx5-1", "eth5"}, 1, `mlx5-1 has no interface "eth5" (interfaces: eth0, eth1)`},
		{[]string{"storm", "--dir", dir, "openconfig-1", "Ethernet3", "--off"}, 1, `openconfig-1 has no interface "Ethernet3"`},
		{[]string{"storm", "--dir", dir, "mlx5-1"}, 2, "want 2 arguments (DEVICE INTERFACE), got 1"},
		{[]string{"get", "--dir", dir, "--type", "bogus", "openconfig-1", "/qos"}, 2, "--type bogus: want all, config, state or operational"},
	} {
		code, out, errOut := runArgs(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("rocelab %q: exit %d, %q; want exit %d with %q", tc.args, code, out+errOut, tc.code, tc.want)
		}
	}
}

// TestStormACumulusSwitch: `rocelab storm` on a cumulus switch's port makes its NVUE queue
// counters show discards, read over HTTPS as any NVUE client reads them; --off stops them.
// `rocelab fault` refuses its HTTPS connections until cleared.
func TestStormACumulusSwitch(t *testing.T) {
	dir, inv := upInProcess(t, "--switches", "cumulus=1", "--ports", "2")
	nvue := labtest.NewNVUE(t, inv.Devices["cumulus-1"])
	const stats = "/interface/swp2/counters/qos/egress-queue-stats"
	discards := func() float64 {
		t.Helper()
		var q map[string]map[string]float64
		if _, err := nvue.Do(t.Context(), http.MethodGet, stats, nil, &q); err != nil {
			t.Fatal(err)
		}
		return q["0"]["tx-uc-buffer-discards"]
	}
	if n := discards(); n != 0 {
		t.Fatalf("%v discards before any storm", n)
	}
	if code, out, errOut := runArgs("storm", "--dir", dir, "cumulus-1", "swp2"); code != 0 || !strings.Contains(out, "storm on cumulus-1 swp2") {
		t.Fatalf("storm: exit %d, %q %q", code, out, errOut)
	}
	eventually(t, "discards during the storm", func() bool { return discards() != 0 })
	if code, _, errOut := runArgs("storm", "--dir", dir, "cumulus-1", "swp2", "--off"); code != 0 {
		t.Fatalf("storm --off: exit %d, %q", code, errOut)
	}
	first := discards()
	if second := discards(); second != first {
		t.Errorf("after --off the discards went %v -> %v", first, second)
	}
	if code, _, errOut := runArgs("storm", "--dir", dir, "cumulus-1", "swp9"); code == 0 || !strings.Contains(errOut, `has no interface "swp9"`) {
		t.Errorf("a port the switch lacks: exit %d, %q", code, errOut)
	}
	nvue.HTTP.CloseIdleConnections()
	if code, out, errOut := runArgs("fault", "--dir", dir, "cumulus-1", "refuse"); code != 0 {
		t.Fatalf("fault refuse: exit %d, %q %q", code, out, errOut)
	}
	if _, err := nvue.Do(t.Context(), http.MethodGet, stats, nil, nil); err == nil || !strings.Contains(err.Error(), "connection reset by peer") {
		t.Errorf("a GET while the switch refuses: %v", err)
	}
	if code, out, errOut := runArgs("fault", "--dir", dir, "cumulus-1", "clear"); code != 0 {
		t.Fatalf("fault clear: exit %d, %q %q", code, out, errOut)
	}
	discards()
}
