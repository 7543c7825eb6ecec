package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/perftest"
)

// perftestLab is two hosts cabled through one SONiC switch (eth0 of each), both NICs set up for
// RoCE as SONiC's stock QoS expects it (DSCP 3 on traffic class 3, PFC on 3 and 4): trust DSCP,
// DSCP 3 on priority 3, PFC on 3. The runs send with traffic class 12 (DSCP 3).
func perftestLab(t *testing.T) *Lab {
	t.Helper()
	l := startLab(t, Options{Switches: map[string]int{"sonic": 1}, Hosts: map[string]int{"mlx5": 2},
		Cables: []Cable{{A: "mlx5-1", APort: "eth0", B: "sonic-1", BPort: "Ethernet0"}, {A: "mlx5-2", APort: "eth0", B: "sonic-1", BPort: "Ethernet4"}}})
	for _, h := range []string{"mlx5-1", "mlx5-2"} {
		setRoCE(t, l.Host(h), 3)
	}
	return l
}

func setRoCE(t *testing.T, h *Host, prio int) {
	t.Helper()
	pfc := []string{"0", "0", "0", "0", "0", "0", "0", "0"}
	pfc[prio] = "1"
	for _, cmd := range []string{"sudo -n mlnx_qos -i eth0 --trust dscp --pfc " + strings.Join(pfc, ","),
		"sudo -n mlnx_qos -i eth0 --dscp2prio set,3," + string(rune('0'+prio))} {
		if out, errOut, status := h.Run(cmd); status != 0 {
			t.Fatalf("%s: %s%s", cmd, out, errOut)
		}
	}
}

// runPerftest runs test's server on mlx5-2 in the background, then its client on mlx5-1, and
// returns both outputs; no process is left on either host.
func runPerftest(t *testing.T, l *Lab, bin, opts string) (client, server string) {
	t.Helper()
	srv, cli := l.Host("mlx5-2"), l.Host("mlx5-1")
	out, errOut, status := srv.Run(bin + " -d mlx5_0 " + opts + " >/tmp/srv.log 2>&1 &\necho $!")
	if status != 0 || strings.TrimSpace(out) == "" {
		t.Fatalf("starting the server: %d %q %q", status, out, errOut)
	}
	pid := strings.TrimSpace(out)
	if _, _, status := srv.Run("kill -0 " + pid); status != 0 {
		t.Fatalf("the server %s is not running", pid)
	}
	// The server may not listen yet: perftest's client does not retry, so the caller does.
	var cout, cerr string
	for range 100 {
		cout, cerr, status = cli.Run(bin + " -d mlx5_0 " + opts + " 127.0.0.1")
		if status == 0 || !strings.Contains(cerr, "Couldn't connect") {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if status != 0 {
		t.Fatalf("client: exit %d: %s%s", status, cout, cerr)
	}
	// The server exits once its client is done: `kill -0` finds no such process.
	running := func() bool { _, _, status := srv.Run("kill -0 " + pid); return status == 0 }
	deadline := time.Now().Add(5 * time.Second)
	for running() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if running() {
		t.Fatalf("the server %s still runs after the client finished", pid)
	}
	server, _, _ = srv.Run("cat /tmp/srv.log; rm -f /tmp/srv.log")
	return cout, server
}

func TestPerftestBandwidthLayoutParses(t *testing.T) {
	l := perftestLab(t)
	cout, sout := runPerftest(t, l, "ib_write_bw", "-x 3 -F --report_gbits --tclass 12")
	for _, out := range []string{cout, sout} {
		rows, err := perftest.ParseBW(out)
		if err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if r := rows[0]; r.Bytes != 65536 || r.Iterations != 5000 || r.AverageGbps < 85 || r.AverageGbps > 100 {
			t.Errorf("row %+v, want 65536 bytes, 5000 iterations, 85-100 Gb/s:\n%s", r, out)
		}
	}
	for _, want := range []string{"                    RDMA_Write BW Test\n", " Mtu             : 1024[B]\n", " GID index       : 3\n",
		" local address: LID 0000 QPN 0x", " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:"} {
		if !strings.Contains(cout, want) {
			t.Errorf("client output lacks %q:\n%s", want, cout)
		}
	}
	if !strings.Contains(sout, "* Waiting for client to connect... *") {
		t.Errorf("server output lacks the waiting banner:\n%s", sout)
	}
}

func TestPerftestLatencyWorseOnPFCMismatch(t *testing.T) {
	l := perftestLab(t)
	cout, _ := runPerftest(t, l, "ib_write_lat", "-x 3 -F --tclass 12")
	good, err := perftest.ParseLatency(cout)
	if err != nil {
		t.Fatalf("%v:\n%s", err, cout)
	}
	if p := good[0].P99; p <= 0 || p > 20 {
		t.Fatalf("a consistent path: p99 %.2f us, want a few us:\n%s", p, cout)
	}
	// The client's NIC moves RoCE to priority 5, which the switch port does not run PFC on.
	setRoCE(t, l.Host("mlx5-1"), 5)
	cout, _ = runPerftest(t, l, "ib_write_lat", "-x 3 -F --tclass 12")
	bad, err := perftest.ParseLatency(cout)
	if err != nil {
		t.Fatalf("%v:\n%s", err, cout)
	}
	if bad[0].P99 < 200 || bad[0].P99 <= good[0].P99 {
		t.Errorf("PFC mismatch: p99 %.2f us (consistent path %.2f us), want over 200 us", bad[0].P99, good[0].P99)
	}
	bw, _ := runPerftest(t, l, "ib_send_bw", "-x 3 -F --report_gbits --tclass 12")
	if rows, err := perftest.ParseBW(bw); err != nil || rows[0].AverageGbps > 50 {
		t.Errorf("PFC mismatch: bandwidth %+v (%v), want under 50 Gb/s", rows, err)
	}
}

func TestPerftestClientWithoutServer(t *testing.T) {
	l := startHosts(t, 1)
	out, errOut, status := l.Host("mlx5-1").Run("ib_write_bw -d mlx5_0 -p 18600 127.0.0.1")
	if status != 1 || out != "" || errOut != "Couldn't connect to 127.0.0.1:18600\n Unable to init the socket connection\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	if _, err := perftest.ParseBW(out); err == nil {
		t.Error("no table expected")
	}
	if err := perftest.Failure(errOut); err == nil || !strings.Contains(err.Error(), "not reachable") {
		t.Errorf("Failure: %v", err)
	}
}

func TestPerftestServerKilled(t *testing.T) {
	l := startHosts(t, 1)
	h := l.Host("mlx5-1")
	out, _, _ := h.Run("ib_send_lat -d mlx5_0 -p 18601 >/tmp/s.log 2>&1 &\necho $!")
	pid := strings.TrimSpace(out)
	if got, _, _ := h.Run("pgrep -l ib_send_lat"); got != pid+" ib_send_lat\n" {
		t.Errorf("pgrep: %q", got)
	}
	if _, errOut, status := h.Run("kill " + pid); status != 0 {
		t.Fatalf("kill: %d %s", status, errOut)
	}
	if _, _, status := h.Run("kill -0 " + pid); status != 1 {
		t.Errorf("kill -0 after kill: status %d, want 1", status)
	}
	// The port is free again.
	out, _, _ = h.Run("ib_send_lat -d mlx5_0 -p 18601 >/tmp/s.log 2>&1 &\necho $!")
	if _, errOut, status := h.Run("kill " + strings.TrimSpace(out)); status != 0 {
		log, _, _ := h.Run("cat /tmp/s.log")
		t.Errorf("second server not running: %s; its log: %q", errOut, log)
	}
	if _, errOut, _ := h.Run("ib_send_lat -d mlx5_9"); errOut != "IB device mlx5_9 not found\n Unable to find the Infiniband/RoCE device\n" {
		t.Errorf("unknown device: %q", errOut)
	}
}
