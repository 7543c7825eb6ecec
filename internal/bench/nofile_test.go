package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestNoFileLimit(t *testing.T) {
	// xl: 576 devices need 576 x 4 + 256 = 2560 files.
	if got, err := NoFileLimit(20000, 20000, 576); err != nil || got != 20000 {
		t.Errorf("ample soft limit: %d, %v", got, err)
	}
	if got, err := NoFileLimit(1024, 4096, 576); err != nil || got != 4096 {
		t.Errorf("soft 1024 under hard 4096: %d, %v; want the hard limit", got, err)
	}
	if got, err := NoFileLimit(1024, 1024, 36); err != nil || got != 1024 {
		t.Errorf("small lab: %d, %v", got, err)
	}
	_, err := NoFileLimit(1024, 2048, 576)
	if err == nil || !strings.Contains(err.Error(), "576 devices needs about 2560 open files, but the hard limit is 2048") {
		t.Errorf("hard limit too low: %v", err)
	}
}

func TestUnservable(t *testing.T) {
	perInterface := []string{"roce_qos_policy", "roce_pfc_interface", "roce_nic_qos", "roce_dcqcn_profile"}
	got := Unservable(AllVariants, perInterface)
	if len(got) != 4 || !strings.Contains(got[Map], "no roce_pfc_interfaces, roce_nic_qos_interfaces, roce_dcqcn_interfaces") || got[MapNoop] == "" ||
		!strings.Contains(got[Group], "no roce_pfc_interface_group, roce_nic_qos_group, roce_dcqcn_group (the grouped resources") || got[GroupNoop] == "" {
		t.Errorf("a provider without the map-keyed and group types: %v, want (e), (f), (h) and (i) skipped", got)
	}
	withMaps := append(slices.Clone(perInterface), MapResourceTypes...)
	if got := Unservable(AllVariants, withMaps); len(got) != 2 || got[Group] == "" || got[GroupNoop] == "" {
		t.Errorf("a provider with the map-keyed types only: %v, want (h) and (i) skipped", got)
	}
	if got := Unservable(AllVariants, append(withMaps, GroupResourceTypes...)); len(got) != 0 {
		t.Errorf("a provider with them all: %v", got)
	}
	if got := Unservable(PerInterfaceVariants, perInterface); len(got) != 0 {
		t.Errorf("per-interface variants need no map-keyed type: %v", got)
	}
}
