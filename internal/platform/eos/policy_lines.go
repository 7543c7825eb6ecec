package eos

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// PolicyPrior is what a policy changes outside its own profile, as the device had it before:
// the three global maps (effective values) and each bound port's service-profile ("" none).
// It is JSON-encodable for private state. The zero value (no recorded prior, as after import)
// restores EOS's default maps: an all-zero TC -> tx-queue map together with all-zero DSCP and
// CoS maps is no configuration anyone runs.
type PolicyPrior struct {
	DSCPToTC        [64]int           `json:"dscp_to_tc"`
	COSToTC         [8]int            `json:"cos_to_tc"`
	TCToQueue       [8]int            `json:"tc_to_queue"`
	ServiceProfiles map[string]string `json:"service_profiles"`
}

// PolicyPrior records the maps as they are now and each port's service-profile now.
func (c *Config) PolicyPrior(ports []string) PolicyPrior {
	p := PolicyPrior{DSCPToTC: c.DSCPToTC, COSToTC: c.COSToTC, TCToQueue: c.TCToQueue, ServiceProfiles: map[string]string{}}
	for _, port := range ports {
		p.ServiceProfiles[port] = ""
		if i, ok := c.Interfaces[port]; ok {
			p.ServiceProfiles[port] = i.ServiceProfile
		}
	}
	return p
}

// maps returns the prior maps, EOS's defaults when none was recorded.
func (p PolicyPrior) maps() PolicyPrior {
	if p.DSCPToTC == [64]int{} && p.COSToTC == [8]int{} && p.TCToQueue == [8]int{} {
		p.DSCPToTC, p.COSToTC, p.TCToQueue = defaultDSCP(), cosDefault, defaultTCToQueue()
	}
	return p
}

// PolicyLines returns the configuration lines, in order, that take the device from old to next
// in one configuration session: create when old is nil, delete when next is nil, update (a
// rename included) otherwise. Lines start and end in global configuration mode; sub-modes are
// entered with their command and left with "exit".
//
//   - next's profile is written whole, in place (see profileLines); a rename first removes the
//     old profile;
//   - the DSCP and TC -> tx-queue maps are written whole, the CoS map when next owns it
//     (writesCOS); a CoS map old owned and next does not goes back to prior, and so do all
//     maps on delete: reset to the EOS default, then the prior entries that differ from it;
//   - every port of next gets `service-profile <next>`; a port old bound and next does not
//     gets prior's service-profile back (a prior naming old or next counts as none).
//
// c is the device as read just before; it only removes lines that would change nothing or
// take over what is no longer ours: `no qos profile` of a profile that is gone, and restoring a
// port that no longer exists, already has the prior value, or now carries another profile. A
// prior value that would reach a line with a control character or one of ; | ! # ? is refused
// with an error (clitext.Writable).
func PolicyLines(c *Config, old, next *fabric.QoSPolicy, prior PolicyPrior) ([]string, error) {
	if old == nil && next == nil {
		return nil, errors.New("eos: PolicyLines needs an old or a next policy")
	}
	if old != nil && old.Name == "" {
		return nil, errors.New("eos: the old policy has no name")
	}
	if next != nil {
		if err := checkWritable(*next); err != nil {
			return nil, err
		}
	}
	prior = prior.maps()
	var out []string
	if old != nil && (next == nil || old.Name != next.Name) && (c == nil || c.Profiles[old.Name] != nil) {
		out = append(out, "no qos profile "+old.Name)
	}
	if next != nil {
		var existing *Profile
		var family Family
		if c != nil {
			existing, family = c.Profiles[next.Name], c.Family
		}
		out = append(out, writeLines(old, *next, prior, existing, family)...)
	} else {
		out = append(out, restoreDSCP(prior)...)
		if writesCOS(*old) {
			out = append(out, restoreCOS(prior)...)
		}
		out = append(out, restoreTCQueue(prior)...)
	}
	if old != nil {
		out = append(out, unbindLines(c, old, next, prior)...)
	}
	// Restoring a port writes its prior service-profile, read from the device verbatim.
	// Regression seed: testdata/fuzz/FuzzParseRunningConfig/service-profile-unsafe.
	if err := clitext.Writable("eos", out); err != nil {
		return nil, err
	}
	return out, nil
}

// writeLines writes next: its profile, the maps it owns (a CoS map only old owned goes back to
// prior) and its ports' bindings.
func writeLines(old *fabric.QoSPolicy, next fabric.QoSPolicy, prior PolicyPrior, existing *Profile, family Family) []string {
	var oldSame *fabric.QoSPolicy
	if old != nil && old.Name == next.Name {
		oldSame = old
	}
	out := profileLines(next, existing, oldSame, family)
	dscp, queues := next.DSCPMap(), defaultTCToQueue()
	out = append(out, mapLines("dscp", dscp[:], "traffic-class", nil)...)
	if writesCOS(next) {
		cos := next.PCPMap()
		out = append(out, mapLines("cos", cos[:], "traffic-class", nil)...)
	} else if old != nil && writesCOS(*old) {
		out = append(out, restoreCOS(prior)...)
	}
	out = append(out, mapLines("traffic-class", queues[:], "tx-queue", nil)...)
	for _, port := range sortedPorts(next.Interfaces) {
		out = append(out, ifaceLines(port, "service-profile "+next.Name)...)
	}
	return out
}

// checkWritable refuses a policy PolicyLines cannot write as asked.
func checkWritable(p fabric.QoSPolicy) error {
	return fabric.CheckKilobyteCLI("eos", p, CheckSupported(p))
}

// profileLines writes `qos profile P`: trust, a queue block for each class (TC N = queue N; the
// family's command: tx-queue on Sand, uc-tx-queue on Strata)
// and every no-drop priority. A queue without a class is not written: it keeps the platform's
// default (EOS queues are strict by default, and queue 7 carries control-plane traffic; on Sand
// platforms before 4.33 `tx-queue 7` is refused), so it is neither configured nor compared.
// A block an earlier version of the policy wrote (existing, the profile as on the device; nil
// when there is none) for a TC that is no longer a class is removed with `no tx-queue N`.
//
// old is the previous version of the same profile, if any: its classes' blocks are removed
// too when the device's profile is not known.
func profileLines(p fabric.QoSPolicy, existing *Profile, old *fabric.QoSPolicy, family Family) []string {
	queue := family.queueWord()
	trust := trustDSCP
	if p.Trust == fabric.TrustPCP {
		trust = trustCOS
	}
	out := []string{"qos profile " + p.Name, "qos trust " + trust}
	for tc := range 8 {
		_, c, ok := p.ClassByTC(tc)
		if !ok {
			had := existing != nil && existing.Queues[tc] != nil
			if old != nil {
				_, _, wasClass := old.ClassByTC(tc)
				had = had || wasClass
			}
			if had {
				out = append(out, "no "+queue+" "+strconv.Itoa(tc))
			}
			continue
		}
		out = append(out, queue+" "+strconv.Itoa(tc))
		out = append(out, queueLines(c)...)
		out = append(out, "exit")
	}
	for tc := range 8 {
		if _, c, ok := p.ClassByTC(tc); ok && c.Lossless {
			out = append(out, fmt.Sprintf("priority-flow-control priority %d no-drop", tc))
		} else {
			out = append(out, fmt.Sprintf("no priority-flow-control priority %d", tc))
		}
	}
	return append(out, "exit")
}

// queueLines is the body of a class's tx-queue: a round-robin share, or strict priority.
func queueLines(c fabric.Class) []string {
	var out []string
	if c.BandwidthPercent != nil {
		out = append(out, fmt.Sprintf("bandwidth percent %d", *c.BandwidthPercent), "no priority")
	} else {
		out = append(out, "no bandwidth percent", "priority strict")
	}
	// DCQCN wants marking on the instantaneous queue (weight 0; the reference configurations,
	// e.g. AMD's ROCm RoCE guide for an Arista 7388, write it), and the queue's ECN counter on
	// (`random-detect ecn count`, which `show qos interfaces ecn counters` reads).
	if c.ECN != nil {
		return append(out, fmt.Sprintf(
			"random-detect ecn minimum-threshold %d kbytes maximum-threshold %d kbytes max-mark-probability %d weight 0",
			c.ECN.MinThresholdBytes/fabric.KiB, c.ECN.MaxThresholdBytes/fabric.KiB, c.ECN.MarkProbabilityPercent),
			"random-detect ecn count")
	}
	return append(out, "no random-detect ecn", "no random-detect ecn count")
}

// mapLines writes `qos map SRC K... to TARGET V`, one line per target value in ascending
// order with its keys ascending; keys base already sends to the same value are left out (nil
// base: every key is written).
func mapLines(src string, m []int, target string, base []int) []string {
	var out []string
	for v := range 8 {
		var keys []string
		for k, kv := range m {
			if kv == v && (base == nil || base[k] != v) {
				keys = append(keys, strconv.Itoa(k))
			}
		}
		if len(keys) > 0 {
			out = append(out, fmt.Sprintf("qos map %s %s to %s %d", src, strings.Join(keys, " "), target, v))
		}
	}
	return out
}

// allKeys lists 0..n-1 for the `no qos map` lines that reset a whole map to the default.
func allKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	return strings.Join(keys, " ")
}

func restoreDSCP(p PolicyPrior) []string {
	def := defaultDSCP()
	return append([]string{"no qos map dscp " + allKeys(64)}, mapLines("dscp", p.DSCPToTC[:], "traffic-class", def[:])...)
}

func restoreCOS(p PolicyPrior) []string {
	def := cosDefault
	return append([]string{"no qos map cos " + allKeys(8)}, mapLines("cos", p.COSToTC[:], "traffic-class", def[:])...)
}

func restoreTCQueue(p PolicyPrior) []string {
	def := defaultTCToQueue()
	return append([]string{"no qos map traffic-class " + allKeys(8) + " to tx-queue"},
		mapLines("traffic-class", p.TCToQueue[:], "tx-queue", def[:])...)
}

// unbindLines gives each port old bound and next does not its prior service-profile back.
func unbindLines(c *Config, old, next *fabric.QoSPolicy, prior PolicyPrior) []string {
	ours := map[string]bool{old.Name: true}
	var keep []string
	if next != nil {
		ours[next.Name] = true
		keep = next.Interfaces
	}
	var out []string
	for _, port := range sortedPorts(old.Interfaces) {
		if slices.Contains(keep, port) {
			continue
		}
		target := prior.ServiceProfiles[port]
		if ours[target] {
			target = ""
		}
		if c != nil {
			i, ok := c.Interfaces[port]
			if !ok || i.ServiceProfile == target || (i.ServiceProfile != "" && !ours[i.ServiceProfile]) {
				continue // gone, already as before, or taken by another profile since
			}
		}
		line := "no service-profile"
		if target != "" {
			line = "service-profile " + target
		}
		out = append(out, ifaceLines(port, line)...)
	}
	return out
}

func ifaceLines(port string, body ...string) []string {
	return append(append([]string{"interface " + port}, body...), "exit")
}

func sortedPorts(ports []string) []string {
	out := slices.Clone(ports)
	slices.Sort(out)
	return slices.Compact(out)
}
