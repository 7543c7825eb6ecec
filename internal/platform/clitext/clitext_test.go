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

func TestNumber(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "7": 7, "100": 100} {
		if got, err := Number(s, 0, 100); err != nil || got != want {
			t.Errorf("Number(%q) = %d, %v", s, got, err)
		}
	}
	for _, s := range []string{"101", "-1", "+5", "5.0", "", "x"} {
		if _, err := Number(s, 0, 100); err == nil {
			t.Errorf("Number(%q) took it", s)
		}
	}
	v := 3
	dst := &v
	if err := SetNumber(&dst, "9", 0, 7); err == nil || err.Error() != `"9" is not a number from 0 to 7` || dst != &v {
		t.Errorf("SetNumber out of range: %v, dst %v", err, *dst)
	}
	if err := SetNumber(&dst, "5", 0, 7); err != nil || *dst != 5 || v != 3 {
		t.Errorf("SetNumber(5): %v, dst %d, the old value %d", err, *dst, v)
	}
}

func TestValueAfterKeyword(t *testing.T) {
	f := []string{"random-detect", "ecn", "minimum-threshold", "150", "kbytes", "weight", "4"}
	if v, err := ThresholdAfter(f, 2, -1); err != nil || v != 153600 {
		t.Errorf("ThresholdAfter = %d, %v", v, err)
	}
	if v, err := NumberAfter(f, 5, 0, 15); err != nil || v != 4 {
		t.Errorf("NumberAfter = %d, %v", v, err)
	}
	if _, err := NumberAfter(f[:6], 5, 0, 15); err == nil || err.Error() != "weight needs a value" {
		t.Errorf("weight at the end: %v", err)
	}
	if _, err := ThresholdAfter(f[:4], 2, -1); err == nil || err.Error() != "minimum-threshold needs a value and a unit" {
		t.Errorf("threshold without its unit: %v", err)
	}
}
