package fabric

import (
	"encoding/binary"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Fuzz tests of the validators: the intents are built from fuzzed primitives (a byte stream
// decoded by fuzzBytes; seeds are real intents encoded by fuzzEncoder), Validate must not
// panic, and whatever it accepts must satisfy every rule, checked here independently of the
// package's own patterns: names and interface names carry no blank, newline or CLI
// metacharacter (no silent acceptance of garbage). Run one with
//
//	go test -run '^$' -fuzz '^FuzzQoSPolicyValidate$' -fuzztime 60s ./internal/fabric
//
// `make fuzz` runs every fuzz target of the repository in turn.

// fuzzBytes hands out the fuzzer's bytes as primitives; past the end it yields zeros.
type fuzzBytes []byte

func (b *fuzzBytes) byte() byte {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return c
}

func (b *fuzzBytes) bool() bool { return b.byte()&1 == 1 }

// small is a signed byte: -128..127 spans every edge of the 0-7 and 0-63 ranges.
func (b *fuzzBytes) small() int { return int(int8(b.byte())) }

// int is a signed 32-bit value (big-endian), for shares, MTUs and times.
func (b *fuzzBytes) int() int {
	var v uint32
	for range 4 {
		v = v<<8 | uint32(b.byte())
	}
	return int(int32(v))
}

func (b *fuzzBytes) int64() int64 {
	var v uint64
	for range 8 {
		v = v<<8 | uint64(b.byte())
	}
	return int64(v)
}

// str is a length byte, then that many bytes (any bytes: blanks, newlines, UTF-8 or not).
func (b *fuzzBytes) str() string {
	n := int(b.byte())
	n = min(n, len(*b))
	s := string((*b)[:n])
	*b = (*b)[n:]
	return s
}

// count is a list length, bounded so that one input stays cheap.
func (b *fuzzBytes) count(limit int) int { return int(b.byte()) % (limit + 1) }

func (b *fuzzBytes) smalls() []int {
	n := b.count(70)
	if n == 0 {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = b.small()
	}
	return out
}

// fuzzEncoder writes what fuzzBytes reads, to turn real intents into seeds.
type fuzzEncoder []byte

func (e *fuzzEncoder) byte(c byte) { *e = append(*e, c) }

func (e *fuzzEncoder) bool(v bool) {
	if v {
		e.byte(1)
	} else {
		e.byte(0)
	}
}

func (e *fuzzEncoder) small(v int) { e.byte(byte(int8(v))) }

func (e *fuzzEncoder) int(v int) { *e = binary.BigEndian.AppendUint32(*e, uint32(int32(v))) }

func (e *fuzzEncoder) int64(v int64) { *e = binary.BigEndian.AppendUint64(*e, uint64(v)) }

func (e *fuzzEncoder) str(s string) {
	e.byte(byte(len(s)))
	*e = append(*e, s...)
}

func (e *fuzzEncoder) smalls(vs []int) {
	e.byte(byte(len(vs)))
	for _, v := range vs {
		e.small(v)
	}
}

// ptrInt encodes an optional int as a presence flag and the value, as optInt decodes it.
func (e *fuzzEncoder) ptrInt(p *int) {
	e.bool(p != nil)
	if p != nil {
		e.int(*p)
	}
}

func (e *fuzzEncoder) ptrInt64(p *int64) {
	e.bool(p != nil)
	if p != nil {
		e.int64(*p)
	}
}

func (b *fuzzBytes) optInt() *int {
	if !b.bool() {
		return nil
	}
	return Ptr(b.int())
}

func (b *fuzzBytes) optInt64() *int64 {
	if !b.bool() {
		return nil
	}
	return Ptr(b.int64())
}

// Independent statements of the name rules (the package uses regular expressions).
func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// safeName: 1..limit bytes, a letter or digit first, then letters, digits and the bytes of
// rest. No blank, control character, quote or shell/CLI metacharacter can pass.
func safeName(s string, limit int, first func(byte) bool, rest string) bool {
	if s == "" || len(s) > limit || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isAlnum(s[i]) && !strings.ContainsRune(rest, rune(s[i])) {
			return false
		}
	}
	return true
}

// cliMeta are the bytes no accepted name may hold, whatever the pattern says.
const cliMeta = "\n\r\t ;|!#`$'\"\\<>&*?(){}[]~"

func assertNoMeta(t *testing.T, what, s string) {
	t.Helper()
	if strings.ContainsAny(s, cliMeta) {
		t.Errorf("accepted %s %q holds a blank or CLI metacharacter", what, s)
	}
	for _, r := range s {
		if r < 0x20 || r >= 0x7f {
			t.Errorf("accepted %s %q holds a control or non-ASCII character", what, s)
			break
		}
	}
}

func assertName(t *testing.T, what, s string, limit int) {
	t.Helper()
	assertNoMeta(t, what, s)
	if !safeName(s, limit, isAlnum, "_.-") {
		t.Errorf("accepted %s %q breaks ^[A-Za-z0-9][A-Za-z0-9_.-]{0,%d}$", what, s, limit-1)
	}
}

func assertPortName(t *testing.T, s string) {
	t.Helper()
	assertNoMeta(t, "interface name", s)
	if !safeName(s, MaxInterfaceNameLen, isAlnum, "/_.:-") {
		t.Errorf("accepted interface name %q breaks ^[A-Za-z0-9][A-Za-z0-9/_.:-]{0,63}$", s)
	}
}

func assertNetdev(t *testing.T, s string) {
	t.Helper()
	assertNoMeta(t, "netdev name", s)
	if !safeName(s, MaxNetdevLen, func(c byte) bool { return isAlnum(c) || c == '_' }, "_.-") {
		t.Errorf("accepted netdev name %q breaks ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$", s)
	}
}

func within(v, lo, hi int) bool { return v >= lo && v <= hi }

// decodePolicy builds a policy from the fuzzer's bytes; encodePolicy is its inverse.
func decodePolicy(b *fuzzBytes) QoSPolicy {
	p := QoSPolicy{Name: b.str(), Trust: Trust(b.str()), DefaultTrafficClass: b.small()}
	if n := b.count(9); n > 0 {
		p.Classes = map[string]Class{}
		for range n {
			name := b.str()
			c := Class{TrafficClass: b.small(), DSCP: b.smalls()}
			if b.bool() {
				c.PCP = b.smalls()
				if c.PCP == nil {
					c.PCP = []int{}
				}
			}
			c.BandwidthPercent, c.StrictPriority, c.Lossless, c.MTU = b.optInt(), b.bool(), b.bool(), b.optInt()
			if b.bool() {
				c.ECN = &ECN{MinThresholdBytes: b.int64(), MaxThresholdBytes: b.int64(), MarkProbabilityPercent: b.int()}
			}
			p.Classes[name] = c
		}
	}
	for range b.count(6) {
		p.Interfaces = append(p.Interfaces, b.str())
	}
	return p
}

func encodePolicy(p QoSPolicy) []byte {
	var e fuzzEncoder
	e.str(p.Name)
	e.str(string(p.Trust))
	e.small(p.DefaultTrafficClass)
	e.byte(byte(len(p.Classes)))
	for _, name := range p.ClassNames() {
		c := p.Classes[name]
		e.str(name)
		e.small(c.TrafficClass)
		e.smalls(c.DSCP)
		e.bool(c.PCP != nil)
		if c.PCP != nil {
			e.smalls(c.PCP)
		}
		e.ptrInt(c.BandwidthPercent)
		e.bool(c.StrictPriority)
		e.bool(c.Lossless)
		e.ptrInt(c.MTU)
		e.bool(c.ECN != nil)
		if c.ECN != nil {
			e.int64(c.ECN.MinThresholdBytes)
			e.int64(c.ECN.MaxThresholdBytes)
			e.int(c.ECN.MarkProbabilityPercent)
		}
	}
	e.byte(byte(len(p.Interfaces)))
	for _, i := range p.Interfaces {
		e.str(i)
	}
	return e
}

// seedPolicies are valid policies (the contract example, every profile) and near misses.
func seedPolicies() []QoSPolicy {
	out := []QoSPolicy{contractPolicy()}
	for _, w := range []string{WorkloadAITraining, WorkloadStorage, WorkloadLossy} {
		prof, err := BuildProfile(ProfileInput{Workload: w})
		if err != nil {
			panic(err)
		}
		out = append(out, QoSPolicy{Name: DefaultPolicyName, Trust: TrustDSCP, Classes: prof.SwitchClasses,
			Interfaces: []string{"Ethernet1/1", "Ethernet1/2"}})
	}
	for _, sp := range refFabric().Policies {
		out = append(out, sp.Policy)
	}
	bad := contractPolicy()
	bad.Name, bad.Interfaces = "ROCE;reload", []string{"Ethernet1\nend", "Eth 1"}
	return append(out, bad)
}

func FuzzQoSPolicyValidate(f *testing.F) {
	for _, p := range seedPolicies() {
		f.Add(encodePolicy(p))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fuzzBytes(data)
		p := decodePolicy(&b)
		ps := p.Validate()
		for _, pr := range ps {
			if pr.Summary == "" || pr.Detail == "" || len(pr.Path) == 0 {
				t.Errorf("problem without summary, detail or path: %+v", pr)
			}
			_ = pr.Error()
		}
		// Helpers on any policy, valid or not.
		_ = p.DSCPMap()
		_ = p.ListsAllDSCPs()
		for tc := -1; tc <= 8; tc++ {
			p.ClassByTC(tc)
		}
		if !p.Equal(p) {
			t.Error("policy not Equal to itself")
		}
		n := p
		n.Normalize()
		if !n.Equal(p) || !p.Equal(n) {
			t.Error("Normalize changed what the policy asks for")
		}
		if len(ps) > 0 {
			return
		}
		assertPolicyRules(t, p)
		// A valid policy is what Check takes: it must not panic on one, beside the reference
		// fabric's hosts.
		fab := refFabric()
		fab.Policies = append(fab.Policies, SwitchPolicy{Device: "fuzz", Policy: p})
		for _, port := range p.Interfaces {
			fab.PFC = append(fab.PFC, SwitchPFC{Device: "fuzz", PFC: PFCInterface{Interface: port, Mode: PFCModeOn}})
		}
		Check(fab)
	})
}

// assertPolicyRules restates every rule of roce_qos_policy for a policy Validate accepted.
func assertPolicyRules(t *testing.T, p QoSPolicy) {
	t.Helper()
	assertName(t, "policy name", p.Name, MaxPolicyNameLen)
	if p.Trust != TrustDSCP && p.Trust != TrustPCP && p.Trust != TrustDSCPPCP {
		t.Errorf("accepted trust %q", p.Trust)
	}
	if !within(p.DefaultTrafficClass, 0, 7) {
		t.Errorf("accepted default_traffic_class %d", p.DefaultTrafficClass)
	}
	if len(p.Classes) == 0 {
		t.Error("accepted a policy without classes")
	}
	tcs, dscps, pcps := map[int]bool{}, map[int]bool{}, map[int]bool{}
	sum, shares, lossless := 0, 0, 0
	for name, c := range p.Classes {
		assertName(t, "class name", name, MaxClassNameLen)
		if !within(c.TrafficClass, 0, 7) || tcs[c.TrafficClass] {
			t.Errorf("accepted traffic class %d of class %q (out of range or used twice)", c.TrafficClass, name)
		}
		tcs[c.TrafficClass] = true
		for _, set := range []struct {
			vs   []int
			hi   int
			seen map[int]bool
		}{{SortedSet(c.DSCP), 63, dscps}, {SortedSet(c.PCP), 7, pcps}} {
			for _, v := range set.vs {
				if !within(v, 0, set.hi) || set.seen[v] {
					t.Errorf("accepted value %d in class %q (out of range or in two classes)", v, name)
				}
				set.seen[v] = true
			}
		}
		switch {
		case (c.BandwidthPercent == nil) == !c.StrictPriority:
			t.Errorf("accepted class %q with bandwidth %v and strict %v", name, c.BandwidthPercent, c.StrictPriority)
		case c.BandwidthPercent != nil:
			if !within(*c.BandwidthPercent, 1, 100) {
				t.Errorf("accepted bandwidth_percent %d", *c.BandwidthPercent)
			}
			sum += *c.BandwidthPercent
			shares++
		}
		if c.Lossless {
			lossless++
		}
		if c.MTU != nil && !within(*c.MTU, MinMTU, MaxMTU) {
			t.Errorf("accepted mtu %d", *c.MTU)
		}
		if e := c.ECN; e != nil && (e.MinThresholdBytes < 1 || e.MaxThresholdBytes < e.MinThresholdBytes || !within(e.MarkProbabilityPercent, 1, 100)) {
			t.Errorf("accepted ECN %+v", *e)
		}
	}
	if shares > 0 && sum != 100 {
		t.Errorf("accepted bandwidth shares summing to %d", sum)
	}
	if lossless > MaxLosslessClasses {
		t.Errorf("accepted %d lossless classes", lossless)
	}
	seen := map[string]bool{}
	for _, i := range p.Interfaces {
		assertPortName(t, i)
		if seen[i] {
			t.Errorf("accepted interface %q twice", i)
		}
		seen[i] = true
	}
}

func encodePFC(p PFCInterface) []byte {
	var e fuzzEncoder
	e.str(p.Interface)
	e.str(p.Mode)
	e.bool(p.LinkPause)
	e.bool(p.Buffer != nil)
	if b := p.Buffer; b != nil {
		e.ptrInt64(b.XoffBytes)
		e.ptrInt64(b.XonBytes)
		e.ptrInt(b.CableLengthM)
	}
	e.bool(p.Watchdog != nil)
	if w := p.Watchdog; w != nil {
		e.str(w.Action)
		e.int(w.DetectionTimeMs)
		e.int(w.RestorationTimeMs)
	}
	return e
}

func decodePFC(b *fuzzBytes) PFCInterface {
	p := PFCInterface{Interface: b.str(), Mode: b.str(), LinkPause: b.bool()}
	if b.bool() {
		p.Buffer = &PFCBuffer{XoffBytes: b.optInt64(), XonBytes: b.optInt64(), CableLengthM: b.optInt()}
	}
	if b.bool() {
		p.Watchdog = &PFCWatchdog{Action: b.str(), DetectionTimeMs: b.int(), RestorationTimeMs: b.int()}
	}
	return p
}

func FuzzPFCInterfaceValidate(f *testing.F) {
	for _, e := range refFabric().PFC {
		f.Add(encodePFC(e.PFC))
	}
	f.Add(encodePFC(PFCInterface{Interface: "Ethernet1/1", Mode: PFCModeAuto,
		Buffer:   &PFCBuffer{XoffBytes: Ptr(int64(122880)), XonBytes: Ptr(int64(61440)), CableLengthM: Ptr(40)},
		Watchdog: &PFCWatchdog{Action: WatchdogForward, DetectionTimeMs: 200, RestorationTimeMs: 400}}))
	f.Add(encodePFC(PFCInterface{Interface: "Ethernet1;reload", Mode: "on\n", LinkPause: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fuzzBytes(data)
		p := decodePFC(&b)
		ps := p.Validate()
		for _, pr := range ps {
			_ = pr.Error()
		}
		if len(ps) > 0 {
			return
		}
		assertPortName(t, p.Interface)
		if p.Mode != PFCModeOn && p.Mode != PFCModeOff && p.Mode != PFCModeAuto {
			t.Errorf("accepted mode %q", p.Mode)
		}
		if p.LinkPause && p.Mode == PFCModeOn {
			t.Error("accepted link_pause with PFC on")
		}
		if bf := p.Buffer; bf != nil {
			if bf.XoffBytes != nil && *bf.XoffBytes < 1 || bf.XonBytes != nil && *bf.XonBytes < 0 ||
				bf.XoffBytes != nil && bf.XonBytes != nil && *bf.XonBytes >= *bf.XoffBytes ||
				bf.CableLengthM != nil && !within(*bf.CableLengthM, 1, MaxCableLengthM) {
				t.Errorf("accepted buffer %+v", *bf)
			}
		}
		if w := p.Watchdog; w != nil {
			if w.Action != WatchdogDrop && w.Action != WatchdogForward && w.Action != WatchdogAlert {
				t.Errorf("accepted watchdog action %q", w.Action)
			}
			if w.DetectionTimeMs != 0 && !within(w.DetectionTimeMs, MinWatchdogDetectionMs, MaxWatchdogDetectionMs) ||
				w.RestorationTimeMs != 0 && !within(w.RestorationTimeMs, MinWatchdogRestorationMs, MaxWatchdogRestorationMs) {
				t.Errorf("accepted watchdog times %+v", *w)
			}
		}
	})
}

// encodeHost encodes a NIC's and a DCQCN profile's attributes as the provider receives them
// (map keys as strings, parsed with ParseKeys).
func encodeHost(n NICQoS, d DCQCN) []byte {
	var e fuzzEncoder
	e.str(n.Interface)
	e.str(string(n.Trust))
	e.smalls(n.PFCPriorities)
	for _, m := range []map[int]int{n.DSCPToPriority, n.PriorityToTC} {
		e.byte(byte(len(m)))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e.str(strconv.Itoa(k))
			e.small(m[k])
		}
	}
	e.bool(n.ETS != nil)
	e.byte(byte(len(n.ETS)))
	for _, tc := range slices.Sorted(maps.Keys(n.ETS)) {
		e.str(strconv.Itoa(tc))
		e.ptrInt(n.ETS[tc].BandwidthPercent)
		e.bool(n.ETS[tc].StrictPriority)
	}
	e.ptrInt(n.RoCEToS)
	e.str(d.Interface)
	e.smalls(d.Priorities)
	e.small(d.CNPDSCP)
	e.small(d.CNPPriority)
	for _, m := range []map[string]int64{d.ReactionPoint, d.NotificationPoint} {
		e.byte(byte(len(m)))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e.str(k)
			e.int64(m[k])
		}
	}
	return e
}

// rawHost is a decoded host intent with its map keys as the configuration spelled them.
type rawHost struct {
	nic         NICQoS
	dscpKeys    map[string]int
	prioKeys    map[string]int
	etsKeys     map[string]ETSClass
	keyProblems Problems
	dcqcn       DCQCN
}

func decodeHost(b *fuzzBytes) rawHost {
	h := rawHost{nic: NICQoS{Interface: b.str(), Trust: Trust(b.str()), PFCPriorities: b.smalls()}}
	h.dscpKeys, h.prioKeys = map[string]int{}, map[string]int{}
	for _, m := range []map[string]int{h.dscpKeys, h.prioKeys} {
		for range b.count(70) {
			k := b.str()
			m[k] = b.small()
		}
	}
	var ps Problems
	var kp Problems
	h.nic.DSCPToPriority, kp = ParseKeys(Root("dscp_to_priority"), h.dscpKeys, ParseDSCPKey)
	ps = append(ps, kp...)
	h.nic.PriorityToTC, kp = ParseKeys(Root("priority_to_tc"), h.prioKeys, ParsePriorityKey)
	ps = append(ps, kp...)
	if b.bool() {
		h.etsKeys = map[string]ETSClass{}
	}
	for range b.count(9) {
		k := b.str()
		c := ETSClass{BandwidthPercent: b.optInt(), StrictPriority: b.bool()}
		if h.etsKeys != nil {
			h.etsKeys[k] = c
		}
	}
	if h.etsKeys != nil {
		h.nic.ETS, kp = ParseKeys(Root("ets"), h.etsKeys, ParseTCKey)
		ps = append(ps, kp...)
	}
	h.nic.RoCEToS = b.optInt()
	h.keyProblems = ps
	h.dcqcn = DCQCN{Interface: b.str(), Priorities: b.smalls(), CNPDSCP: b.small(), CNPPriority: b.small()}
	for i := range 2 {
		n := b.count(20)
		if n == 0 {
			continue
		}
		m := map[string]int64{}
		for range n {
			k := b.str()
			m[k] = b.int64()
		}
		if i == 0 {
			h.dcqcn.ReactionPoint = m
		} else {
			h.dcqcn.NotificationPoint = m
		}
	}
	return h
}

func FuzzHostValidate(f *testing.F) {
	ref := refFabric()
	for i := range ref.NICs {
		f.Add(encodeHost(ref.NICs[i].NIC, ref.DCQCN[min(i, len(ref.DCQCN)-1)].DCQCN))
	}
	for _, w := range []string{WorkloadAITraining, WorkloadLossy} {
		in := ProfileInput{Workload: w}
		prof, err := BuildProfile(in)
		if err != nil {
			panic(err)
		}
		fab := profileFabric(in, prof)
		nic := fab.NICs[0].NIC
		nic.PriorityToTC = map[int]int{3: 3, 6: 6}
		nic.ETS = map[int]ETSClass{0: {BandwidthPercent: Ptr(50)}, 3: {BandwidthPercent: Ptr(50)}, 6: {StrictPriority: true}}
		f.Add(encodeHost(nic, fab.DCQCN[0].DCQCN))
	}
	f.Add(encodeHost(NICQoS{Interface: "eth0;reboot", Trust: TrustPCP, DSCPToPriority: map[int]int{64: 9}},
		DCQCN{Interface: "-eth0", ReactionPoint: map[string]int64{"gd": -1, "rp_gd": 1}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fuzzBytes(data)
		h := decodeHost(&b)
		nicPs := h.nic.Validate()
		dcqcnPs := h.dcqcn.Validate()
		for _, pr := range slices.Concat(h.keyProblems, nicPs, dcqcnPs) {
			_ = pr.Error()
		}
		// Map keys: whatever ParseKeys keeps is the canonical decimal of an in-range key.
		for _, keys := range []struct {
			raw  []string
			hi   int
			kept int
		}{
			{slices.Sorted(maps.Keys(h.dscpKeys)), MaxDSCP, len(h.nic.DSCPToPriority)},
			{slices.Sorted(maps.Keys(h.prioKeys)), MaxPriority, len(h.nic.PriorityToTC)},
		} {
			good := 0
			for _, k := range keys.raw {
				v, err := strconv.Atoi(k)
				if err == nil && within(v, 0, keys.hi) && strconv.Itoa(v) == k {
					good++
				}
			}
			if good != keys.kept {
				t.Errorf("ParseKeys kept %d of keys %q, want the %d canonical in-range ones", keys.kept, keys.raw, good)
			}
		}
		if len(h.keyProblems) == 0 && len(nicPs) == 0 {
			assertNICRules(t, h)
		}
		if len(dcqcnPs) == 0 {
			assertDCQCNRules(t, h.dcqcn)
		}
	})
}

func assertNICRules(t *testing.T, h rawHost) {
	t.Helper()
	n := h.nic
	assertNetdev(t, n.Interface)
	if n.Trust != TrustDSCP && n.Trust != TrustPCP {
		t.Errorf("accepted NIC trust %q", n.Trust)
	}
	for _, p := range n.PFCPriorities {
		if !within(p, 0, 7) {
			t.Errorf("accepted PFC priority %d", p)
		}
	}
	if n.Trust == TrustPCP && len(n.DSCPToPriority) > 0 {
		t.Error("accepted dscp_to_priority with trust pcp")
	}
	for k, v := range h.dscpKeys {
		if d, err := strconv.Atoi(k); err != nil || strconv.Itoa(d) != k || !within(d, 0, 63) || !within(v, 0, 7) {
			t.Errorf("accepted dscp_to_priority[%q] = %d", k, v)
		}
	}
	for k, v := range h.prioKeys {
		if p, err := strconv.Atoi(k); err != nil || strconv.Itoa(p) != k || !within(p, 0, 7) || !within(v, 0, 7) {
			t.Errorf("accepted priority_to_tc[%q] = %d", k, v)
		}
	}
	if h.etsKeys != nil {
		sum, strict := 0, 0
		for k, c := range h.etsKeys {
			if tc, err := strconv.Atoi(k); err != nil || strconv.Itoa(tc) != k || !within(tc, 0, 7) {
				t.Errorf("accepted ets key %q", k)
			}
			switch {
			case (c.BandwidthPercent == nil) == !c.StrictPriority:
				t.Errorf("accepted ets[%q] = %+v", k, c)
			case c.StrictPriority:
				strict++
			case !within(*c.BandwidthPercent, 0, 100):
				t.Errorf("accepted ets[%q] bandwidth %d", k, *c.BandwidthPercent)
			default:
				sum += *c.BandwidthPercent
			}
		}
		if strict < 8 && sum != 100 {
			t.Errorf("accepted ets shares summing to %d", sum)
		}
	}
	if n.RoCEToS != nil && !within(*n.RoCEToS, 0, 255) {
		t.Errorf("accepted roce_tos %d", *n.RoCEToS)
	}
}

func assertDCQCNRules(t *testing.T, d DCQCN) {
	t.Helper()
	assertNetdev(t, d.Interface)
	for _, p := range d.Priorities {
		if !within(p, 0, 7) {
			t.Errorf("accepted DCQCN priority %d", p)
		}
	}
	if !within(d.CNPDSCP, 0, 63) || !within(d.CNPPriority, 0, 7) {
		t.Errorf("accepted cnp_dscp %d cnp_priority %d", d.CNPDSCP, d.CNPPriority)
	}
	for _, m := range []struct {
		params map[string]int64
		known  []string
	}{{d.ReactionPoint, ReactionPointParams}, {d.NotificationPoint, NotificationPointParams}} {
		for name, v := range m.params {
			if !slices.Contains(m.known, name) {
				t.Errorf("accepted unknown parameter %q", name)
				continue
			}
			if r := dcqcnRanges[name]; v < r.min || v > r.max || v < 0 || v > MaxU32 {
				t.Errorf("accepted %s = %d", name, v)
			}
		}
	}
}

// FuzzBuildProfile checks roce_profile's promise: whatever input BuildProfile accepts yields
// settings that pass every resource's validation and the fabric check without a finding.
func FuzzBuildProfile(f *testing.F) {
	f.Add(WorkloadAITraining, 0, 0, 0, 0, 0)
	f.Add(WorkloadStorage, 24, 46, 4, 5, 400)
	f.Add(WorkloadLossy, 63, 1, 7, 1, 800)
	f.Add("ai-training\n", 26, 26, 3, 3, 9)
	f.Fuzz(func(t *testing.T, workload string, roceDSCP, cnpDSCP, rocePrio, cnpPrio, speed int) {
		in := ProfileInput{Workload: workload, RoCEDSCP: roceDSCP, CNPDSCP: cnpDSCP, RoCEPriority: rocePrio,
			CNPPriority: cnpPrio, LinkSpeedGbps: speed}
		p, err := BuildProfile(in)
		if err != nil {
			return
		}
		if workload != WorkloadAITraining && workload != WorkloadStorage && workload != WorkloadLossy {
			t.Errorf("accepted workload %q", workload)
		}
		fab := profileFabric(in, p)
		valid := func(what string, ps Problems) {
			if len(ps) > 0 {
				t.Errorf("%+v: %s: %v", in, what, ps)
			}
		}
		for _, sp := range fab.Policies {
			valid("policy", sp.Policy.Validate())
		}
		for _, e := range fab.PFC {
			valid("pfc", e.PFC.Validate())
		}
		for _, h := range fab.NICs {
			valid("nic", h.NIC.Validate())
		}
		for _, h := range fab.DCQCN {
			valid("dcqcn", h.DCQCN.Validate())
		}
		if got := Check(fab); len(got) > 0 {
			t.Errorf("%+v: findings:\n%s", in, dump(got))
		}
	})
}

// The seeds decode to the intents they were encoded from, so the fuzzers start from valid
// intents (and from the near misses).
func TestFuzzSeedsDecode(t *testing.T) {
	for _, p := range seedPolicies() {
		b := fuzzBytes(encodePolicy(p))
		if got := decodePolicy(&b); !got.Equal(p) || len(b) != 0 {
			t.Errorf("policy %q decodes as %+v (%d bytes left)", p.Name, got, len(b))
		}
	}
	ref := refFabric()
	want := PFCInterface{Interface: "Ethernet1/1", Mode: PFCModeOn, Buffer: &PFCBuffer{XoffBytes: Ptr(int64(1)), CableLengthM: Ptr(3)},
		Watchdog: &PFCWatchdog{Action: WatchdogDrop, DetectionTimeMs: 200}}
	b := fuzzBytes(encodePFC(want))
	if got := decodePFC(&b); got.Interface != want.Interface || *got.Buffer.XoffBytes != 1 || got.Buffer.XonBytes != nil ||
		*got.Buffer.CableLengthM != 3 || *got.Watchdog != *want.Watchdog || len(b) != 0 {
		t.Errorf("PFC decodes as %+v", got)
	}
	nic, d := ref.NICs[0].NIC, ref.DCQCN[0].DCQCN
	b = fuzzBytes(encodeHost(nic, d))
	h := decodeHost(&b)
	if len(h.keyProblems) > 0 || len(h.nic.Validate()) > 0 || len(h.dcqcn.Validate()) > 0 || len(b) != 0 ||
		h.nic.Interface != nic.Interface || len(h.nic.DSCPToPriority) != len(nic.DSCPToPriority) ||
		len(h.dcqcn.ReactionPoint) != len(d.ReactionPoint) {
		t.Errorf("host decodes as %+v (%v)", h, h.keyProblems)
	}
}
