package clitext

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Blocks nest by indentation whatever the step; comments, blank lines and CRs are not lines.
func TestTree(t *testing.T) {
	got := Tree("hostname a\r\n!\ninterface Ethernet1\n   service-profile P\n\npolicy-map type qos Q\n  class C\n    set qos-group 3\n  class D\nend\n")
	want := []*Node{
		{Line: "hostname a"},
		{Line: "interface Ethernet1", Children: []*Node{{Line: "service-profile P"}}},
		{Line: "policy-map type qos Q", Children: []*Node{
			{Line: "class C", Children: []*Node{{Line: "set qos-group 3"}}},
			{Line: "class D"},
		}},
		{Line: "end"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestThreshold(t *testing.T) {
	for _, tc := range []struct {
		value, unit string
		want        int64
	}{
		{"150", "kbytes", 153600}, {"1", "mbytes", 1048576}, {"153600", "bytes", 153600},
		{"320", "segments", -1}, {"5", "us", -1},
	} {
		if got, err := Threshold(tc.value, tc.unit, -1); err != nil || got != tc.want {
			t.Errorf("Threshold(%s %s) = %d, %v; want %d", tc.value, tc.unit, got, err, tc.want)
		}
	}
	for _, v := range []string{"9223372036854775807", "-1", "x"} {
		if _, err := Threshold(v, "kbytes", -1); err == nil {
			t.Errorf("Threshold(%s kbytes) was accepted", v)
		}
	}
}
