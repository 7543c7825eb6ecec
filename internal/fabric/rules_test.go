package fabric

import (
	"strings"
	"testing"
)

// Relations leaves out exactly what the field rules report: with only field mistakes
// it finds nothing (Validate finds each), and next to a field mistake a broken relation is
// still found, once, without noise from the invalid value.
func TestRelationsLeaveOutTheFieldRules(t *testing.T) {
	fieldsOnly := contractPolicy()
	fieldsOnly.Trust = "cos"
	fieldsOnly.Name = "RO CE"
	class(&fieldsOnly, "roce", func(c *Class) { c.DSCP = append(c.DSCP, 64); c.MTU = Ptr(100) })
	class(&fieldsOnly, "cnp", func(c *Class) { c.TrafficClass = 8 })
	if got := fieldsOnly.Validate(); len(got) != 5 {
		t.Errorf("Validate: want the 5 field mistakes, got %d:\n%v", len(got), got)
	}
	if got := Relations(fieldsOnly); len(got) != 0 {
		t.Errorf("Relations reported field rules:\n%v", got)
	}

	// A traffic class out of range is not also "used twice"; the one used twice is reported.
	both := contractPolicy()
	class(&both, "cnp", func(c *Class) { c.TrafficClass = 3 })
	class(&both, "default", func(c *Class) { c.TrafficClass = 9 })
	got := Relations(both)
	if len(got) != 1 || !strings.Contains(got[0].Summary, "Traffic class 3 used by two classes") {
		t.Errorf("Relations: want the one duplicate, got:\n%v", got)
	}

	pfc := contractPFC()
	pfc.Mode = "ON"
	pfc.Buffer = &PFCBuffer{XoffBytes: Ptr[int64](0), XonBytes: Ptr[int64](10)}
	if got := Relations(pfc); len(got) != 1 || got[0].Path.String() != "buffer.xon_bytes" {
		t.Errorf("PFC Relations: want xon not below xoff only, got:\n%v", got)
	}
	if got := pfc.Validate(); len(got) != 3 {
		t.Errorf("PFC Validate: want mode, xoff and xon, got:\n%v", got)
	}

	nic := contractNIC()
	nic.Trust = "cos"
	nic.ETS = map[int]ETSClass{3: {BandwidthPercent: Ptr(101)}, 9: {StrictPriority: true}}
	nic.Interface, nic.Persist = "a-b", true
	got = Relations(nic)
	if len(got) != 1 || got[0].Path.String() != "persist" {
		t.Errorf("NIC Relations: want persist only (no ETS sum over invalid shares), got:\n%v", got)
	}

	d := contractDCQCN()
	d.CNPDSCP = 64
	d.ReactionPoint = map[string]int64{"dce_tcp_g": 1024, "bogus": 1}
	if got := Relations(d); len(got) != 0 {
		t.Errorf("DCQCN Relations reported field rules:\n%v", got)
	}
	if got := d.Validate(); len(got) != 3 {
		t.Errorf("DCQCN Validate: want cnp_dscp, dce_tcp_g and the unknown parameter, got:\n%v", got)
	}
}
