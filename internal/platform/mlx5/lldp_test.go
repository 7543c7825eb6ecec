package mlx5

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestParseLLDPCaptures(t *testing.T) {
	out := func(neighbors string) []byte {
		return []byte(strings.Join([]string{markLLDPChassis, goldenfile.Capture(t, "testdata/lldp/lldpd_json0_show_chassis.txt"),
			markLLDPNeighbors, neighbors, markEnd}, "\n"))
	}
	got, err := ParseLLDP(out(goldenfile.Capture(t, "testdata/lldp/lldpd_json0_show_neighbors_two.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if got.Hostname != "host-a" {
		t.Errorf("hostname = %q", got.Hostname)
	}
	want := []fabric.Neighbor{
		{Interface: "veth-a", SystemName: "host-b.example.net", ChassisID: "56:81:81:df:0b:6b", PortID: "veth-b", PortDescription: "to-host-a eth0"},
		{Interface: "veth-a2", SystemName: "leaf-c", ChassisID: "CHASSIS-C-LOCAL", PortID: "Ethernet1/1", PortDescription: "c-port-desc"},
	}
	if !slices.Equal(got.Neighbors, want) {
		t.Errorf("neighbors =\n%+v\nwant\n%+v", got.Neighbors, want)
	}
	got, err = ParseLLDP(out(goldenfile.Capture(t, "testdata/lldp/lldpd_json0_neighbor_without_sysname.txt")))
	want = []fabric.Neighbor{{Interface: "veth-a2", ChassisID: "02:00:00:00:00:0c", PortID: "Ethernet5"}}
	if err != nil || !slices.Equal(got.Neighbors, want) {
		t.Errorf("without system name: %+v, %v", got.Neighbors, err)
	}
}

func TestParseLLDPErrors(t *testing.T) {
	for name, tc := range map[string]struct{ out, want string }{
		"no lldpcli": {markLLDPChassis + "\nsh: 1: lldpcli: not found\n" + markLLDPNeighbors + "\nsh: 1: lldpcli: not found\n" + markEnd, "lldpcli is not installed"},
		"no markers": {"sudo: a password is required\n", "sudo -n refused to run the LLDP script"},
		"not json":   {markLLDPChassis + "\nsomething went wrong\n" + markLLDPNeighbors + "\n{}\n" + markEnd, "lldpcli show chassis failed: something went wrong"},
		"empty":      {markLLDPChassis + "\n" + markLLDPNeighbors + "\n" + markEnd, "lldpcli show chassis printed nothing"},
	} {
		if _, err := ParseLLDP([]byte(tc.out)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}

func TestLLDPScript(t *testing.T) {
	s := LLDPScript(false)
	for _, want := range []string{"lldpcli -f json0 show chassis", "lldpcli -f json0 show neighbors", markEnd} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q: %s", want, s)
		}
	}
}
