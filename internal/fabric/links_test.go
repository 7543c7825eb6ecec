package fabric

import (
	"slices"
	"strings"
	"testing"
)

func TestResolveLinks(t *testing.T) {
	devs := []DeviceNeighbors{
		{Device: "leaf-1", Hostname: "leaf1", Interfaces: []string{"Ethernet1", "Ethernet2", "Ethernet3"}, Neighbors: []Neighbor{
			// lldpd on a host: the port ID is the MAC, the interface name is in the description.
			{Interface: "Ethernet1", SystemName: "gpu1.example.net", ChassisID: "02:00:00:00:01:00", PortID: "02:00:00:00:01:01", PortDescription: "eth0"},
			{Interface: "Ethernet2", SystemName: "LEAF2", PortID: "Ethernet2"},
			{Interface: "Ethernet3", SystemName: "spine-9", PortID: "Ethernet1/1"},
		}},
		{Device: "leaf-2", Hostname: "leaf2", Interfaces: []string{"Ethernet1", "Ethernet2"}, Neighbors: []Neighbor{
			{Interface: "Ethernet2", SystemName: "leaf1", PortID: "Ethernet2"},
			{Interface: "Ethernet1", SystemName: "gpu1", PortID: "02:00:00:00:01:02"}, // no description: found from gpu-1's side
		}},
		{Device: "gpu-1", Hostname: "gpu1.example.net", Interfaces: []string{"eth0", "eth1"}, Neighbors: []Neighbor{
			{Interface: "eth0", SystemName: "leaf1", PortID: "Ethernet1"},
			{Interface: "eth1", SystemName: "leaf2", PortID: "Ethernet1"},
		}},
		{Device: "gpu-2", Hostname: "gpu2", Interfaces: []string{"eth0"}, Neighbors: []Neighbor{
			{Interface: "eth0", SystemName: "leaf2", PortID: "aa:bb:cc:dd:ee:ff"},
			{Interface: "eth1"},
		}},
	}
	links, unresolved := ResolveLinks(devs)
	want := []Link{
		{"gpu-1", "eth0", "leaf-1", "Ethernet1"},
		{"gpu-1", "eth1", "leaf-2", "Ethernet1"},
		{"leaf-1", "Ethernet2", "leaf-2", "Ethernet2"},
	}
	if !slices.Equal(links, want) {
		t.Errorf("links = %v\nwant %v", links, want)
	}
	var got []string
	for _, u := range unresolved {
		got = append(got, u.Device+" "+u.Interface+": "+u.Reason)
	}
	wantU := []string{
		`gpu-2 eth0: it is device leaf-2, but neither port ID "aa:bb:cc:dd:ee:ff" nor port description "" is one of its interfaces`,
		"gpu-2 eth1: the neighbour advertises no system name",
		`leaf-1 Ethernet3: system name "spine-9" is not the hostname of any device read`,
	}
	if !slices.Equal(got, wantU) {
		t.Errorf("unresolved =\n%q\nwant\n%q", got, wantU)
	}
}

func TestLooksLikeMAC(t *testing.T) {
	for s, want := range map[string]bool{"02:00:00:00:01:01": true, "0200.0000.0101": true, "02-00-00-00-01-01": true,
		"Ethernet1": false, "eth0": false, "": false, "02:00:00:00:01": false} {
		if got := looksLikeMAC(s); got != want {
			t.Errorf("looksLikeMAC(%q) = %v", s, got)
		}
	}
}

// linkedFabric is refFabric with its cables: each leaf's Ethernet1 to a GPU host's eth0.
func linkedFabric() Fabric {
	f := refFabric()
	f.Links = []Link{{"leaf-1", "Ethernet1", "gpu-1", "eth0"}, {"gpu-2", "eth0", "leaf-2", "Ethernet1"}}
	return f
}

// uplink binds the policy and PFC to Ethernet2 on both leaves and cables them together.
func uplink(f *Fabric, pfc bool) {
	for i := range f.Policies {
		policyOf(f, i, func(p *QoSPolicy) { p.Interfaces = append(p.Interfaces, "Ethernet2") })
		if pfc {
			e := contractPFC()
			e.Interface = "Ethernet2"
			f.PFC = append(f.PFC, SwitchPFC{f.Policies[i].Device, e})
		}
	}
	f.Links = append(f.Links, Link{"leaf-2", "Ethernet2", "leaf-1", "Ethernet2"})
}

func TestCheckLinkRules(t *testing.T) {
	checkEdits(t, linkedFabric, []checkCase{
		{"reference fabric with its links", func(*Fabric) {}, nil},
		{"a link given twice, once from each end, is one link", func(f *Fabric) {
			f.Links = append(f.Links, Link{"gpu-1", "eth0", "leaf-1", "Ethernet1"})
		}, nil},
		{"a link where neither end carries RoCE is not checked", func(f *Fabric) {
			f.Links = append(f.Links, Link{"leaf-1", "Ethernet8", "mgmt-1", "Gi0/1"})
		}, nil},
		{"R12: a NIC cabled to a port without a policy", func(f *Fabric) {
			f.Links[0] = Link{"leaf-1", "Ethernet5", "gpu-1", "eth0"}
		}, []wantFinding{
			errorOn("R12", "leaf-1", "Link gpu-1 eth0 <-> leaf-1 Ethernet5", "gpu-1 eth0 carries RoCE (NIC QoS)",
				"leaf-1 Ethernet5 has no QoS policy bound to that port (roce_qos_policy)"),
		}},
		{"R12: a lossless port cabled to a device the check does not know", func(f *Fabric) {
			f.Links[0] = Link{"leaf-1", "Ethernet1", "gpu-9", "eth0"}
		}, []wantFinding{
			errorOn("R12", "gpu-9", "leaf-1 Ethernet1 carries RoCE (policy ROCE)", "gpu-9 eth0 has no RoCE configuration in this check"),
		}},
		{"R15: a NIC lossless on 3 cabled to a leaf lossless on 4", func(f *Fabric) {
			policyOf(f, 1, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.TrafficClass = 4 }) })
		}, []wantFinding{
			errorOn("R1", "gpu-1", "pfc_priorities [3]"),
			errorOn("R1", "gpu-2", "pfc_priorities [3]"),
			errorOn("R6", "gpu-1", "not on lossless traffic class(es) [4]"),
			errorOn("R6", "gpu-2", "not on lossless traffic class(es) [4]"),
			errorOn("R10", "leaf-2", "DSCP 26"),
			errorOn("R14", "gpu-2", "Link gpu-2 eth0 <-> leaf-2 Ethernet1", "DSCP 26 goes to 3 at gpu-2 eth0 but to 4 at leaf-2 Ethernet1"),
			errorOn("R15", "gpu-2", "Link gpu-2 eth0 <-> leaf-2 Ethernet1", "gpu-2 eth0 is lossless on [3] but leaf-2 Ethernet1 on [4]"),
			errorOn("R17", "leaf-2", "gpu-2 eth0 runs DCQCN on priorities [3]", "traffic class 3 has no class"),
		}},
		{"R15: an uplink without PFC", func(f *Fabric) { uplink(f, false) }, []wantFinding{
			warningOn("R9", "leaf-1", "Ethernet2"),
			warningOn("R9", "leaf-2", "Ethernet2"),
			errorOn("R15", "leaf-1", "Link leaf-1 Ethernet2 <-> leaf-2 Ethernet2", "leaf-1 Ethernet2 is bound to a lossless policy but has no roce_pfc_interface", "switch-to-switch"),
			errorOn("R15", "leaf-2", "leaf-2 Ethernet2 is bound to a lossless policy but has no roce_pfc_interface"),
		}},
		{"R15 pass: an uplink with PFC at both ends", func(f *Fabric) { uplink(f, true) }, nil},
		{"R15 warning: PFC auto toward a host", func(f *Fabric) { f.PFC[0].PFC.Mode = PFCModeAuto }, []wantFinding{
			warningOn("R9", "leaf-1", "Ethernet1 (mode auto"),
			warningOn("R15", "leaf-1", "Link gpu-1 eth0 <-> leaf-1 Ethernet1", `leaf-1 Ethernet1 is bound to a lossless policy with PFC mode "auto"`, "DCBX"),
		}},
		{"R13: a trust-pcp leaf cabled to a trust-dscp NIC", func(f *Fabric) {
			policyOf(f, 0, func(p *QoSPolicy) { p.Trust = TrustPCP })
		}, []wantFinding{
			errorOn("R3", "gpu-1", "trusts dscp"),
			errorOn("R3", "gpu-2", "trusts dscp"),
			errorOn("R13", "gpu-1", "Link gpu-1 eth0 <-> leaf-1 Ethernet1", "gpu-1 eth0 trusts dscp but leaf-1 Ethernet1 trusts pcp"),
		}},
		{"R16: uplink MTUs differ", func(f *Fabric) {
			uplink(f, true)
			policyOf(f, 1, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.MTU = Ptr(4200) }) })
		}, []wantFinding{
			errorOn("R16", "leaf-1", "traffic class 3 has mtu 9216 at leaf-1 Ethernet2 but 4200 at leaf-2 Ethernet2"),
		}},
		{"R17: no ECN toward a DCQCN NIC (a lossy fabric)", lossyWithoutECN, []wantFinding{
			errorOn("R7", "gpu-1", "roce_tos 106"),
			errorOn("R7", "gpu-2", "roce_tos 106"),
			errorOn("R17", "leaf-1", "Link gpu-1 eth0 <-> leaf-1 Ethernet1", `class "roce" (traffic class 3) has no ecn`),
			errorOn("R17", "leaf-2", `class "roce" (traffic class 3) has no ecn`),
		}},
	}, nil)
}

func TestResolveLinksConflicts(t *testing.T) {
	t.Run("two devices report one hostname", func(t *testing.T) {
		links, unresolved := ResolveLinks([]DeviceNeighbors{
			{Device: "leaf-1", Hostname: "leaf1", Interfaces: []string{"Ethernet1", "Ethernet2"}, Neighbors: []Neighbor{
				{Interface: "Ethernet1", SystemName: "localhost", PortID: "eth0"},
				{Interface: "Ethernet2", SystemName: "localhost", PortID: "eth0"},
			}},
			{Device: "gpu-1", Hostname: "localhost"},
			{Device: "gpu-2", Hostname: "localhost.localdomain"},
		})
		if len(links) != 0 || len(unresolved) != 2 || unresolved[0].Reason != `system name "localhost" is the hostname of gpu-1 and gpu-2: set hostname on those devices` {
			t.Errorf("links %v unresolved %+v", links, unresolved)
		}
	})
	t.Run("a description naming another port than the far end reports", func(t *testing.T) {
		links, unresolved := ResolveLinks([]DeviceNeighbors{
			{Device: "leaf-1", Hostname: "leaf1", Interfaces: []string{"Ethernet1"}, Neighbors: []Neighbor{
				{Interface: "Ethernet1", SystemName: "sonic1", PortID: "etp5", PortDescription: "Ethernet0"},
			}},
			{Device: "sonic-1", Hostname: "sonic1", Interfaces: []string{"Ethernet0", "Ethernet16"}, Neighbors: []Neighbor{
				{Interface: "Ethernet16", SystemName: "leaf1", PortID: "Ethernet1"},
			}},
		})
		// The far end's own report wins over the operator's description text.
		if want := []Link{{"leaf-1", "Ethernet1", "sonic-1", "Ethernet16"}}; !slices.Equal(links, want) || len(unresolved) != 0 {
			t.Errorf("links %v unresolved %+v", links, unresolved)
		}
	})
	t.Run("one port claimed by two cables", func(t *testing.T) {
		links, unresolved := ResolveLinks([]DeviceNeighbors{
			{Device: "leaf-1", Hostname: "leaf1", Interfaces: []string{"Ethernet1"}, Neighbors: []Neighbor{
				{Interface: "Ethernet1", SystemName: "gpu1", PortID: "eth0"},
				{Interface: "Ethernet1", SystemName: "gpu2", PortID: "eth0"},
			}},
			{Device: "gpu-1", Hostname: "gpu1"}, {Device: "gpu-2", Hostname: "gpu2"},
		})
		if len(links) != 0 || len(unresolved) != 2 || !strings.Contains(unresolved[0].Reason, "a port of it is also on gpu-2 eth0 <-> leaf-1 Ethernet1") {
			t.Errorf("links %v unresolved %+v", links, unresolved)
		}
	})
	t.Run("unknown interfaces: names only", func(t *testing.T) {
		_, unresolved := ResolveLinks([]DeviceNeighbors{
			{Device: "leaf-1", Hostname: "leaf1", Neighbors: []Neighbor{
				{Interface: "Ethernet1", SystemName: "junos1", PortID: "597"},          // an ifIndex
				{Interface: "Ethernet2", SystemName: "junos1", PortID: "PCI-E Slot 1"}, // text with blanks
			}},
			{Device: "junos-1", Hostname: "junos1"},
		})
		if len(unresolved) != 2 {
			t.Errorf("a bare number or text with blanks was taken as an interface: %+v", unresolved)
		}
	})
}
