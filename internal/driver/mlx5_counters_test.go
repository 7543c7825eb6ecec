package driver

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// countersHost is an mlx5 host behind sshConn that answers the counters reads a test sets up
// (script -> output) and keeps every command it was sent.
type countersHost struct {
	answers map[string]string
	cmds    []string
}

func (h *countersHost) Run(_ context.Context, cmd string, _ []byte) (ssh.Result, error) {
	h.cmds = append(h.cmds, cmd)
	out, ok := h.answers[cmd]
	if !ok {
		return ssh.Result{ExitCode: 127, Stderr: []byte("unexpected command")}, nil
	}
	return ssh.Result{Stdout: []byte(out)}, nil
}

// platformFixture is a platform package's testdata file (path: "<platform>/<name>", a capture
// of the lab device's answer) without its "#" source lines.
func platformFixture(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile("../platform/" + strings.Replace(path, "/", "/testdata/", 1))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "")
}

func mlx5CountersOf(f *countersHost) mlx5Counters {
	return mlx5Counters{&mlx5Host{c: f, device: "h1", reads: newReads(testRegistry("mlx5", devices.Device{}), "h1")}}
}

// Two netdevs are read with one command, and so is every NIC port of the host (the lab's
// captures: eth0 in a storm with PFC on priority 3, eth1 quiet).
func TestMLX5CountersOneCommand(t *testing.T) {
	ctx := context.Background()
	f := &countersHost{answers: map[string]string{
		mlx5.CountersScript([]string{"eth0", "eth1"}, false): platformFixture(t, "mlx5/counters-lab.txt"),
		mlx5.CountersScript(nil, false):                      platformFixture(t, "mlx5/counters-all-lab.txt"),
	}}
	d := mlx5CountersOf(f)
	for _, ports := range [][]string{{"eth0", "eth1"}, nil} {
		f.cmds = nil
		got, err := d.Counters(ctx, ports)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.cmds) != 1 {
			t.Errorf("ports %v: %d commands, want one for the host", ports, len(f.cmds))
		}
		if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, []string{"eth0", "eth1"}) {
			t.Fatalf("ports %v: read %v", ports, names)
		}
		eth0, eth1 := got["eth0"], got["eth1"]
		if eth0.PFCRxPause[3] != 20000 || *eth0.Dropped != 1000 || eth0.Retransmit["packet_seq_err"] != 40 ||
			len(eth1.PFCRxPause) != 0 || *eth1.CNPSent != 540 || *eth1.Dropped != 0 {
			t.Errorf("ports %v: eth0 %+v, eth1 %+v", ports, eth0, eth1)
		}
	}
}

// A netdev the host lacks fails the read and is named with the netdevs the host has; a name
// that is no netdev name is refused before anything runs.
func TestMLX5CountersUnknownNetdev(t *testing.T) {
	ctx := context.Background()
	lab := platformFixture(t, "mlx5/counters-lab.txt")
	eth0 := lab[:strings.Index(lab, "@@netdev eth1")]
	// What the host prints for eth9: ethtool's perror of ENODEV and grep's missing files.
	eth9 := "@@netdev eth9\n@@ethtool\nCannot get stats strings information: No such device\n@@hw_counters\n" +
		"grep: /sys/class/net/eth9/device/infiniband/*/ports/1/hw_counters/np_cnp_sent: No such file or directory\n"
	f := &countersHost{answers: map[string]string{
		mlx5.CountersScript([]string{"eth0", "eth9"}, false): eth0 + eth9 + lab[strings.Index(lab, "@@netdevs"):],
	}}
	d := mlx5CountersOf(f)
	_, err := d.Counters(ctx, []string{"eth0", "eth9"})
	if err == nil || err.Error() != `device "h1": the host has no netdev "eth9" (its netdevs: eth0, eth1, lo)` {
		t.Errorf("eth9: %v", err)
	}
	if _, err := d.Counters(ctx, []string{"eth0", "eth0; reboot"}); err == nil || len(f.cmds) != 1 {
		t.Errorf("an invalid netdev: %v, ran %v", err, f.cmds)
	}
}
