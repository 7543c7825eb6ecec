package nxos

import (
	"slices"
	"testing"
)

// Microsoft's Azure Local reference (testdata/nxos-running-config-ipqos-1.txt: AZLocal_SERVICES,
// QOS_NETWORK, QOS_EGRESS_PORT, none named as this provider names its objects) is read as what
// Ethernet1/17 does: CoS 3 to qos-group 3, lossless (pause pfc-cos 3), 50 % with ECN; PFC on.
func TestEffectiveAzureLocalReference(t *testing.T) {
	c := running.Text(t, sample(t))
	policies, pfcs := c.Effective([]string{"Ethernet1/1"})
	if len(policies) == 0 {
		t.Fatal("no effective policy")
	}
	got := policies[0]
	if got.Name != "AZLocal_SERVICES" || got.Trust != "pcp" || !slices.Equal(got.Interfaces, []string{"Ethernet1/17"}) {
		t.Fatalf("policy %+v", got)
	}
	tc3 := got.Classes["tc3"]
	if !tc3.Lossless || !slices.Equal(tc3.PCP, []int{3}) || tc3.ECN == nil || tc3.ECN.MinThresholdBytes != 300*1024 ||
		tc3.BandwidthPercent == nil || *tc3.BandwidthPercent != 50 || tc3.MTU == nil || *tc3.MTU != 9216 {
		t.Errorf("tc3 = %+v", tc3)
	}
	if tc7 := got.Classes["tc7"]; !slices.Equal(tc7.PCP, []int{7}) || tc7.Lossless {
		t.Errorf("tc7 = %+v", tc7)
	}
	if tc0 := got.Classes["tc0"]; !slices.Equal(tc0.PCP, []int{0, 1, 2, 4, 5, 6}) {
		t.Errorf("tc0 = %+v (class-default takes the rest)", tc0)
	}
	var modes []string
	for _, p := range pfcs {
		modes = append(modes, p.Interface+"="+p.Mode)
	}
	if !slices.Contains(modes, "Ethernet1/17=on") || !slices.Contains(modes, "Ethernet1/1=auto") {
		t.Errorf("pfc %v: the reference port on, a port without lines auto", modes)
	}
}

// A DSCP classification with match-all and match-any class-maps, in policy order.
func TestEffectiveDSCPOrder(t *testing.T) {
	c := running.Text(t, `class-map type qos match-any ROCEv2
  match dscp 24-26
class-map type qos match-all CNP
  match dscp 48
class-map type qos match-any OVERLAP
  match dscp 26
policy-map type qos CUSTOM
  class CNP
    set qos-group 6
  class ROCEv2
    set qos-group 3
  class OVERLAP
    set qos-group 5
  class class-default
    set qos-group 1
system qos
  service-policy type qos input CUSTOM
interface Ethernet1/5
  priority-flow-control mode off
`)
	policies, _ := c.Effective(nil)
	if len(policies) != 1 || policies[0].Trust != "dscp" {
		t.Fatalf("%+v", policies)
	}
	cl := policies[0].Classes
	if !slices.Equal(cl["tc3"].DSCP, []int{24, 25, 26}) || !slices.Equal(cl["tc6"].DSCP, []int{48}) || len(cl["tc5"].DSCP) != 0 {
		t.Errorf("first match wins: %+v", cl)
	}
	if len(cl["tc1"].DSCP) != 60 {
		t.Errorf("class-default's group takes the other 60 DSCPs: %v", cl["tc1"].DSCP)
	}
}

// `pause pfc-cos 4` in c-8q-nq3 makes priority 4 no-drop (what PFC pauses), not 3; a policy
// matching both fields classifies each.
func TestEffectivePausedCoSAndBothFields(t *testing.T) {
	c := running.Text(t, `class-map type qos match-any ROCE
  match dscp 26
class-map type qos match-any ROCE-COS
  match cos 3
policy-map type qos MIXED
  class ROCE
    set qos-group 3
  class ROCE-COS
    set qos-group 3
policy-map type network-qos NQ
  class type network-qos c-8q-nq3
    pause pfc-cos 4
system qos
  service-policy type qos input MIXED
  service-policy type network-qos NQ
interface Ethernet1/1
  priority-flow-control mode on
`)
	policies, _ := c.Effective(nil)
	if len(policies) != 1 {
		t.Fatalf("%+v", policies)
	}
	p := policies[0]
	if p.Trust != "dscp_pcp" || !slices.Equal(p.Classes["tc3"].DSCP, []int{26}) || !slices.Equal(p.Classes["tc3"].PCP, []int{3}) {
		t.Errorf("trust %q tc3 %+v", p.Trust, p.Classes["tc3"])
	}
	if p.Classes["tc3"].Lossless || !p.Classes["tc4"].Lossless {
		t.Errorf("tc3 %+v tc4 %+v: the paused CoS is 4", p.Classes["tc3"], p.Classes["tc4"])
	}
}
