package eos

import (
	"slices"
	"testing"
)

// An operator's profile with its own name is read per port it serves; the profile's
// `priority-flow-control on` turns PFC on at those ports.
func TestEffectiveForeignProfile(t *testing.T) {
	c, err := ParseRunningConfig(`qos map dscp 26 to traffic-class 3
qos profile GPU-LOSSLESS
   qos trust dscp
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   tx-queue 3
      bandwidth percent 50
      no priority
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100
interface Ethernet1
   service-profile GPU-LOSSLESS
interface Ethernet2
   service-profile GPU-LOSSLESS
interface Ethernet3
   qos trust dscp
   priority-flow-control on
   priority-flow-control priority 4 no-drop
interface Ethernet4
   flowcontrol send off
`)
	if err != nil {
		t.Fatal(err)
	}
	policies, pfcs := c.Effective([]string{"Ethernet9"})
	// Ethernet3's QoS is its own lines; Ethernet4 and Ethernet9 classify as EOS's default.
	if len(policies) != 3 || policies[0].Name != "GPU-LOSSLESS" || !slices.Equal(policies[1].Interfaces, []string{"Ethernet2"}) ||
		policies[2].Name != "interface" || policies[2].Trust != "dscp" || !policies[2].Classes["tc4"].Lossless {
		t.Fatalf("policies %+v", policies)
	}
	// Every DSCP lands in a class: no traffic class is unknown.
	for _, p := range policies {
		for d, tc := range p.DSCPMap() {
			if _, _, ok := p.ClassByTC(tc); !ok {
				t.Errorf("%s %v: DSCP %d goes to traffic class %d, which no class has", p.Name, p.Interfaces, d, tc)
			}
		}
	}
	if tc6 := policies[0].Classes["tc6"]; !slices.Equal(tc6.DSCP, []int{48, 49, 50, 51, 52, 53, 54, 55}) || tc6.Lossless {
		t.Errorf("tc6 %+v: EOS's default map sends DSCP 48-55 there", tc6)
	}
	tc3 := policies[0].Classes["tc3"]
	// EOS's default map sends DSCP 24-31 to traffic class 3 (DSCP >> 3); the operator's line keeps 26 there.
	if !tc3.Lossless || !slices.Equal(tc3.DSCP, []int{24, 25, 26, 27, 28, 29, 30, 31}) || tc3.ECN == nil || tc3.ECN.MinThresholdBytes != 150*1024 {
		t.Errorf("tc3 %+v", tc3)
	}
	var modes []string
	for _, p := range pfcs {
		modes = append(modes, p.Interface+"="+p.Mode)
	}
	if want := []string{"Ethernet1=on", "Ethernet2=on", "Ethernet3=on", "Ethernet4=off", "Ethernet9=off"}; !slices.Equal(modes, want) {
		t.Errorf("pfc %v, want %v", modes, want)
	}
}
