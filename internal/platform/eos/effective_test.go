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
   priority-flow-control on
`)
	if err != nil {
		t.Fatal(err)
	}
	policies, pfcs := c.Effective([]string{"Ethernet9"})
	if len(policies) != 2 || policies[0].Name != "GPU-LOSSLESS" || !slices.Equal(policies[1].Interfaces, []string{"Ethernet2"}) {
		t.Fatalf("policies %+v", policies)
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
	if want := []string{"Ethernet1=on", "Ethernet2=on", "Ethernet3=on", "Ethernet9=off"}; !slices.Equal(modes, want) {
		t.Errorf("pfc %v, want %v", modes, want)
	}
}
