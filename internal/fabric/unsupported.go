package fabric

import (
	"fmt"
	"slices"
	"strings"
)

// Unsupported names one attribute of a resource that a platform cannot express. Every platform
// package reports these; the driver turns them into plan-time problems on the attribute.
type Unsupported struct {
	// Attr is the attribute path from the resource root. Map keys are path elements of their
	// own: ["classes", "roce", "mtu"] is classes["roce"].mtu; ["mode"] is mode.
	Attr []string
	// Reason is a sentence for the user: why, and which platforms do support it.
	Reason string
}

// PerClass lists one Unsupported at classes[name].attr, in class-name order, for each class
// of p that has(class) says uses attr: a platform's "no per-class attr" check.
func PerClass(p QoSPolicy, attr, reason string, has func(Class) bool) []Unsupported {
	var out []Unsupported
	for _, name := range p.ClassNames() {
		if has(p.Classes[name]) {
			out = append(out, Unsupported{Attr: []string{"classes", name, attr}, Reason: reason})
		}
	}
	return out
}

// HasMTU reports whether c sets a per-class mtu (for PerClass).
func HasMTU(c Class) bool { return c.MTU != nil }

// UnsupportedMode is the mode entry of a platform's PFC check: reasons[mode] where the
// platform has no such mode, none where it has.
func UnsupportedMode(mode string, reasons map[string]string) []Unsupported {
	if r, ok := reasons[mode]; ok {
		return []Unsupported{{Attr: []string{"mode"}, Reason: r}}
	}
	return nil
}

// SortUnsupported orders by attribute path, element by element, so results are deterministic.
func SortUnsupported(u []Unsupported) {
	slices.SortStableFunc(u, func(a, b Unsupported) int { return slices.Compare(a.Attr, b.Attr) })
}

// AttrString renders an attribute path the way Terraform users read it: classes["roce"].mtu.
func AttrString(a []string) string {
	var b strings.Builder
	prev := ""
	for i, e := range a {
		switch {
		case prev == "classes":
			fmt.Fprintf(&b, "[%q]", e)
		case i > 0:
			b.WriteString("." + e)
		default:
			b.WriteString(e)
		}
		prev = e
	}
	return b.String()
}

// ECNWholeKilobytes reports the ECN thresholds of p that are not whole kilobytes, for the
// platforms whose CLI takes kbytes (EOS, NX-OS): the provider never rounds.
func ECNWholeKilobytes(p QoSPolicy) Problems {
	var ps Problems
	for _, name := range p.ClassNames() {
		e := p.Classes[name].ECN
		if e == nil {
			continue
		}
		at := Root("classes").Key(name).Attr("ecn")
		ps.Append(WholeKilobytes(at.Attr("min_threshold_bytes"), e.MinThresholdBytes))
		ps.Append(WholeKilobytes(at.Attr("max_threshold_bytes"), e.MaxThresholdBytes))
	}
	return ps
}

// String is the entry as a user reads it: "attribute: reason".
func (u Unsupported) String() string { return AttrString(u.Attr) + ": " + u.Reason }

// RefuseUnsupported is the error of a writer asked for what its platform cannot express
// (unsupported, the platform's CheckSupported of the policy named policy), nil when nothing
// is; the error starts with the platform's name, as its other errors do.
func RefuseUnsupported(platform, policy string, unsupported []Unsupported) error {
	if len(unsupported) == 0 {
		return nil
	}
	msgs := make([]string, len(unsupported))
	for i, u := range unsupported {
		msgs[i] = u.String()
	}
	return fmt.Errorf("%s: policy %q: %s", platform, policy, strings.Join(msgs, "; "))
}

// CheckKilobyteCLI refuses, as one error, a policy that a CLI platform taking kbytes (EOS,
// NX-OS) cannot write as asked: p's own problems, what the platform does not support
// (unsupported, its CheckSupported), and ECN thresholds that are not whole kilobytes. The
// error starts with the platform's name, as its other errors do.
func CheckKilobyteCLI(platform string, p QoSPolicy, unsupported []Unsupported) error {
	var msgs []string
	for _, pr := range p.Validate() {
		msgs = append(msgs, pr.Error())
	}
	for _, u := range unsupported {
		msgs = append(msgs, u.String())
	}
	for _, pr := range ECNWholeKilobytes(p) {
		msgs = append(msgs, pr.Error())
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%s: policy %q: %s", platform, p.Name, strings.Join(msgs, "; "))
	}
	return nil
}

// CheckClassBounds refuses, as an error that starts with the platform's name, a class whose
// values the gNMI writers (SONiC, OpenConfig) could not encode at all: a traffic class outside
// 0-7, both or neither of a share and strict priority, a DSCP outside 0-63, negative ECN
// thresholds or a marking probability outside 0-100. They lay a policy out without the
// contract's Validate (the provider runs it at plan time), so this is their own guard; what
// one of them refuses besides (a share's range, PCP values) it checks after.
func CheckClassBounds(platform, name string, c Class) error {
	switch {
	case c.TrafficClass < 0 || c.TrafficClass > MaxTrafficClass:
		return fmt.Errorf("%s: classes[%q].traffic_class %d is outside 0-7", platform, name, c.TrafficClass)
	case c.StrictPriority == (c.BandwidthPercent != nil):
		return fmt.Errorf("%s: classes[%q]: exactly one of bandwidth_percent and strict_priority must be set", platform, name)
	}
	for _, d := range c.DSCP {
		if d < 0 || d > MaxDSCP {
			return fmt.Errorf("%s: classes[%q].dscp %d is outside 0-63", platform, name, d)
		}
	}
	if e := c.ECN; e != nil {
		switch {
		case e.MinThresholdBytes < 0 || e.MaxThresholdBytes < 0:
			return fmt.Errorf("%s: classes[%q].ecn thresholds must not be negative", platform, name)
		case e.MarkProbabilityPercent < 0 || e.MarkProbabilityPercent > 100:
			return fmt.Errorf("%s: classes[%q].ecn.mark_probability_percent %d is outside 0-100", platform, name, e.MarkProbabilityPercent)
		}
	}
	return nil
}

// ComparePorts orders port names as switches list them: Ethernet2 before Ethernet10,
// Ethernet1/2 before Ethernet1/10 (runs of digits compare as numbers).
func ComparePorts(a, b string) int {
	for a != "" && b != "" {
		na, ra, aok := leadingNumber(a)
		nb, rb, bok := leadingNumber(b)
		if aok && bok {
			if na != nb {
				return na - nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

// SortedPorts is ports sorted by ComparePorts, without duplicates.
func SortedPorts(ports []string) []string {
	out := slices.Clone(ports)
	slices.SortFunc(out, ComparePorts)
	return slices.Compact(out)
}

// leadingNumber splits a leading decimal number (at most 9 digits) off s.
func leadingNumber(s string) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	return n, s[i:], i > 0
}
