package eos

// Platform families. EOS's per-port queue commands depend on the switch's chip: Broadcom Strata
// platforms (Trident and Tomahawk: 7050X, 7060X, 7260X, 7300X, 720XP; vEOS) configure unicast
// queues as `uc-tx-queue N` (and multicast ones as `mc-tx-queue N`), Sand platforms (Arad,
// Jericho: 7280R, 7500R, 7800R) as `tx-queue N`, and on Sand queue 7 is not user-configurable
// before EOS 4.33.0F. Sources: openconfig/featureprofiles PR 5538 ("Strata platforms (e.g.
// DCS-7050CX4) use "qos uc-tx-queue" CLI syntax instead of "qos tx-queue""), Intel Habana's
// DCS-7060DX4-32 configurations (`uc-tx-queue 2`), arista-eosplus/pyeapi's vEOS
// running-config fixture (`uc-tx-queue 0` .. `7`), the Arista TOI on Sand's tx-queue 7 ("queue
// 7 is not user-configurable ... As of 4.33.0F, a limited set of features are configurable on
// tx-queue 7"), AVD issue 5003 (R3 series `tx-queue <0-7>`). cEOS takes the `tx-queue` form
// (featureprofiles' public CI runs that path on cEOS).

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Family is the chip family a switch's queue commands follow.
type Family string

const (
	FamilyStrata Family = "strata" // uc-tx-queue
	FamilySand   Family = "sand"   // tx-queue; queue 7 reserved before 4.33.0F
)

// familyByModel maps model-name prefixes (as `show version` prints modelName) to families.
var familyByModel = []struct {
	prefix string
	family Family
}{
	{"DCS-7280", FamilySand}, {"DCS-7500", FamilySand}, {"DCS-7800", FamilySand}, {"DCS-7020R", FamilySand},
	{"cEOSLab", FamilySand},
	{"DCS-7050", FamilyStrata}, {"DCS-7060", FamilyStrata}, {"DCS-7260", FamilyStrata}, {"DCS-7300", FamilyStrata},
	{"DCS-7010", FamilyStrata}, {"CCS-720", FamilyStrata}, {"CCS-722", FamilyStrata}, {"vEOS", FamilyStrata},
}

// FamilyOf returns the family of a switch from its model name and, when `show version` prints
// one, its image optimization (Sand-4GB, Strata-4GB; Default and None say nothing). ok is false
// when neither tells.
func FamilyOf(model, imageOptimization string) (Family, bool) {
	switch {
	case strings.HasPrefix(imageOptimization, "Sand"):
		return FamilySand, true
	case strings.HasPrefix(imageOptimization, "Strata"):
		return FamilyStrata, true
	}
	for _, m := range familyByModel {
		if strings.HasPrefix(model, m.prefix) {
			return m.family, true
		}
	}
	return "", false
}

// queueWord is the profile's queue command for the family; "" (unknown: platform tests of
// PolicyLines without a switch) writes Sand's.
func (f Family) queueWord() string {
	if f == FamilyStrata {
		return "uc-tx-queue"
	}
	return "tx-queue"
}

// Version is what `show version | json` reports of the switch.
type Version struct {
	Model             string `json:"modelName"`
	Version           string `json:"version"`
	ImageOptimization string `json:"imageOptimization"`
}

// ParseVersion reads `show version | json`.
func ParseVersion(out string) (Version, error) {
	var v Version
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return v, fmt.Errorf("show version | json is not JSON: %w", err)
	}
	if v.Model == "" || v.Version == "" {
		return v, fmt.Errorf("show version | json names no modelName or version")
	}
	return v, nil
}

// queue7Before reports whether version (e.g. "4.31.2F", "4.25.1F-20348152.oslorel (engineering
// build)") is before 4.33: Sand's queue 7 is then not configurable. An unreadable version counts
// as before.
func queue7Before(version string) bool {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return true
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return true
	}
	return major < 4 || major == 4 && minor < 33
}

// CheckFamily returns why the switch (its family and version) cannot carry p, before anything
// is written: on Sand before 4.33.0F no class may use traffic class 7, whose queue is reserved.
func CheckFamily(f Family, version string, p fabric.QoSPolicy) error {
	if f != FamilySand || !queue7Before(version) {
		return nil
	}
	for _, name := range p.ClassNames() {
		if p.Classes[name].TrafficClass == 7 {
			return fmt.Errorf("class %q uses traffic class 7, whose tx-queue 7 Sand platforms reserve for control-plane "+
				"traffic before EOS 4.33.0F (this switch runs %s): use traffic classes 0-6 on it", name, version)
		}
	}
	return nil
}
