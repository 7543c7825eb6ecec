package openconfig

// Counters for roce_interface_counters and roce_fabric_counters from OpenConfig operational
// state.
//
// # Reading
//
// One Subscribe RPC of mode ONCE (gNMI specification 3.5.1.5.1) reads every port asked for:
// prefix CountersPrefix (origin openconfig), paths CountersPaths(ports). A GetRequest cannot do
// it in one: a target answers NotFound for a path without data, and a port with no output
// queue bound has none at its queue path, which would fail the whole Get; a subscription to
// such a path just sends nothing. Each port's interface counters and output queues are named
// by key; with no ports the keys are wildcards ("*", the path conventions' any-key, which
// streaming targets take: NVIDIA documents interface-id=* and name=* for Cumulus Linux, and
// openconfig/gnmi's cache, lemming's, matches it), and the interfaces' types are read too, to
// keep the Ethernet ports. The queues' queue-id leaves (/qos/queues/queue/{config,state}/
// queue-id) are read in the same RPC to number the queues. Hand every update to
// ParseCounters; a target may send one update per leaf (what Subscribe does) or a container
// per update (what a Get answers), and ParseCounters takes either.
//
// # Decisions (DESIGN.md, roce_interface_counters)
//
//   - pfc_rx_pause / pfc_tx_pause: null. openconfig-interfaces and openconfig-qos have no
//     per-priority PFC counter (ethernet/state/counters in-mac-pause-frames and
//     out-mac-pause-frames count 802.3x pause, not PFC).
//   - ecn_marked_packets: the sum of state/ecn-marked-pkts of the port's output queues
//     (/qos/interfaces/interface/output/queues/queue), null when no queue reports it (none
//     bound, or a target without the leaf).
//   - dropped_packets: state/counters in-discards + out-discards of the interface (RFC 2863
//     ifInDiscards + ifOutDiscards), the same measure as mlx5's rx_discards_phy +
//     tx_discards_phy; it exists on every port, bound or not, and counts ingress (buffer,
//     headroom) drops that per-queue dropped-pkts (egress only) miss. Null when the target
//     reports neither.
//   - cnp_sent, cnp_handled, out_of_sequence: null (host counters).
//   - Per queue (openconfig-qos-interfaces grouping qos-interface-queue-state, leaves of
//     .../output/queues/queue/state): QueueECNMarked from ecn-marked-pkts ("packets for which
//     ECN codepoint has been changed from ECT to CE"), QueueDropped from dropped-pkts (tail or
//     AQM drops), QueueWatermarkBytes from max-queue-len (counter64, units bytes, "Maximum
//     observed queue length"). A queue is numbered by its queue-id (openconfig-qos-elements,
//     "an optional identifier ... to map the named queue to a hardware queue"; state, else
//     config), else by its name when that is a number (SONiC's and Cumulus Linux's queues are
//     named "0".."N"); a queue with neither stays out of the maps (its marks still count in
//     ecn_marked_packets). Two queues with one number are one hardware queue: counts add, the
//     watermark is the higher.
//   - Every port (no ports asked for): each interface that reports state/counters and whose
//     type (state, else config) is iana-if-type ethernetCsmacd or unknown: not LAGs, VLAN
//     interfaces or loopbacks, whose counters repeat their members'.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/ietfjson"
)

// Counters are one read of a port's counters, in the same shape as the mlx5 package's. Nil
// pointers and maps are counters OpenConfig or the target does not provide.
type Counters struct {
	PFCRxPause, PFCTxPause map[int]int64 // always nil: no per-priority PFC counter in the model
	ECNMarked              *int64
	Dropped                *int64
	CNPSent, CNPHandled    *int64 // always nil: host counters
	OutOfSequence          *int64

	// Per output queue, by number: ECN marks, drops, and the highest queue length seen
	// (bytes). Nil when no numbered queue reports the leaf.
	QueueECNMarked, QueueDropped, QueueWatermarkBytes map[int]int64
}

// Update is one value a read returned: its full path (prefix and path joined; origin ignored)
// and its JSON or JSON_IETF encoding (a scalar's JSON for a leaf). ParseCounters takes
// containers and leaves alike.
type Update struct {
	Path *gpb.Path
	JSON []byte
}

// CountersPrefix is the prefix of the counters read: the paths carry no origin.
func CountersPrefix() *gpb.Path { return &gpb.Path{Origin: Origin} }

// CountersPaths are the subscriptions of the one Subscribe ONCE that reads the counters of
// ports, or of every Ethernet port when ports is empty. A port given twice is read once.
func CountersPaths(ports []string) []*gpb.Path {
	iface := func(port string, rest ...*gpb.PathElem) *gpb.Path {
		return &gpb.Path{Elem: append([]*gpb.PathElem{el("interfaces"), keyed("interface", "name", port)}, rest...)}
	}
	queues := func(port string) *gpb.Path { return ifPath(port, el("output"), el("queues")) }
	var out []*gpb.Path
	if len(ports) == 0 {
		out = append(out, iface("*", el("state"), el("counters")), iface("*", el("state"), el("type")),
			iface("*", el("config"), el("type")), queues("*"))
	}
	seen := map[string]bool{}
	for _, p := range ports {
		if !seen[p] {
			seen[p] = true
			out = append(out, iface(p, el("state"), el("counters")), queues(p))
		}
	}
	for _, c := range []string{"state", "config"} {
		out = append(out, qos(el("queues"), keyed("queue", "name", "*"), el(c), el("queue-id")))
	}
	return out
}

// ParseCounters reads the counters of ports (of every Ethernet port when ports is empty) from
// the updates of the read at CountersPaths(ports). It fails when a port reports no interface
// counters (no such port), when no port does, or when a value is not a counter.
func ParseCounters(ports []string, updates []Update) (map[string]Counters, error) {
	root := obj{}
	for _, u := range updates {
		v, err := ietfjson.Decode(u.JSON)
		if err != nil {
			return nil, fmt.Errorf("openconfig: counters: value at %s is not JSON: %w", pathText(u.Path), err)
		}
		graft(root, u.Path.GetElem(), stripPrefixes(v))
	}
	interfaces := walk(root, "interfaces", "interface")
	if len(ports) == 0 {
		ports = ethernetPorts(interfaces)
		if len(ports) == 0 {
			return nil, fmt.Errorf("openconfig: the device reports no Ethernet interface with counters")
		}
	}
	ids, err := queueIDs(walk(root, "qos", "queues", "queue"))
	if err != nil {
		return nil, err
	}
	out := make(map[string]Counters, len(ports))
	for _, port := range ports {
		c, err := portCounters(port, root, ids)
		if err != nil {
			return nil, err
		}
		out[port] = c
	}
	return out, nil
}

// portCounters reads one port's counters out of the grafted tree.
func portCounters(ifname string, root obj, ids map[string]int) (Counters, error) {
	var c Counters
	counters, ok := walk(listEntry(walk(root, "interfaces", "interface"), "name", ifname), "state", "counters").(obj)
	if !ok {
		return c, fmt.Errorf("openconfig: the device has no interface %q (nothing at /interfaces/interface[name=%s]/state/counters)", ifname, ifname)
	}
	var err error
	if c.Dropped, err = sumLeaves(ifname, []obj{counters}, "in-discards", "out-discards"); err != nil {
		return Counters{}, err
	}
	var states []obj
	qosIf := listEntry(walk(root, "qos", "interfaces", "interface"), "interface-id", ifname)
	queues, _ := walk(qosIf, "output", "queues", "queue").([]any)
	for _, q := range queues {
		st, ok := walk(q, "state").(obj)
		if !ok {
			continue
		}
		states = append(states, st)
		name, _ := walk(q, "name").(string)
		n, numbered := ids[name]
		if !numbered {
			n, numbered = queueNumber(name)
		}
		if !numbered {
			continue
		}
		for leaf, dst := range map[string]*map[int]int64{
			"ecn-marked-pkts": &c.QueueECNMarked, "dropped-pkts": &c.QueueDropped, "max-queue-len": &c.QueueWatermarkBytes,
		} {
			v, err := sumLeaves(ifname, []obj{st}, leaf)
			if err != nil {
				return Counters{}, err
			}
			if v == nil {
				continue
			}
			if *dst == nil {
				*dst = map[int]int64{}
			}
			prev, seen := (*dst)[n]
			switch {
			case !seen:
				(*dst)[n] = *v
			case leaf == "max-queue-len":
				(*dst)[n] = max(prev, *v)
			case prev > math.MaxInt64-*v:
				return Counters{}, fmt.Errorf("openconfig: counters of %s: %s of queue %d overflows", ifname, leaf, n)
			default:
				(*dst)[n] = prev + *v
			}
		}
	}
	if c.ECNMarked, err = sumLeaves(ifname, states, "ecn-marked-pkts"); err != nil {
		return Counters{}, err
	}
	return c, nil
}

// ethernetPorts are the interfaces with counters whose type is Ethernet or not reported,
// sorted.
func ethernetPorts(interfaces any) []string {
	items, _ := interfaces.([]any)
	var out []string
	for _, item := range items {
		name, _ := walk(item, "name").(string)
		if _, ok := walk(item, "state", "counters").(obj); !ok || name == "" {
			continue
		}
		typ, _ := walk(item, "state", "type").(string)
		if typ == "" {
			typ, _ = walk(item, "config", "type").(string)
		}
		if typ != "" && unqualify(typ) != "ethernetCsmacd" {
			continue
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// queueIDs maps queue names to their queue-id (state, else config), where the device has one.
func queueIDs(queues any) (map[string]int, error) {
	items, _ := queues.([]any)
	ids := map[string]int{}
	for _, item := range items {
		name, _ := walk(item, "name").(string)
		for _, c := range []string{"config", "state"} { // state last: it wins
			v := walk(item, c, "queue-id")
			if v == nil {
				continue
			}
			n, err := strconv.Atoi(strings.Trim(fmt.Sprint(v), `"`))
			if err != nil || n < 0 || n > math.MaxUint8 {
				return nil, fmt.Errorf("openconfig: queue %s: queue-id %v is not a uint8", name, v)
			}
			ids[name] = n
		}
	}
	return ids, nil
}

// queueNumber is the number a queue's name is, when it is one (0-255, no sign or leading
// zero).
func queueNumber(name string) (int, bool) {
	n, err := strconv.Atoi(name)
	if err != nil || n < 0 || n > math.MaxUint8 || strconv.Itoa(n) != name {
		return 0, false
	}
	return n, true
}

// sumLeaves adds the named uint64 leaves of the containers; nil when none holds any.
func sumLeaves(ifname string, containers []obj, names ...string) (*int64, error) {
	var sum *int64
	for _, o := range containers {
		for _, name := range names {
			v, ok := o[name]
			if !ok {
				continue
			}
			s, _ := numberText(v)
			// A counter64 is never negative, and a sum past int64 is no count either (regression
			// seeds: testdata/fuzz/FuzzParseCounters/negative-discards, discards-overflow).
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 || sum != nil && *sum > math.MaxInt64-n {
				return nil, fmt.Errorf("openconfig: counters of %s: %s = %v is not a counter", ifname, name, v)
			}
			if sum == nil {
				sum = new(int64)
			}
			*sum += n
		}
	}
	return sum, nil
}

// graft places v at elems below root, creating containers and keyed list entries on the way
// and merging objects that are already there.
func graft(root obj, elems []*gpb.PathElem, v any) {
	cur := root
	for i, e := range elems {
		name := unqualify(e.GetName())
		last := i == len(elems)-1
		if len(e.GetKey()) == 0 {
			if last {
				cur[name] = merge(cur[name], v)
				return
			}
			next, ok := cur[name].(obj)
			if !ok {
				next = obj{}
				cur[name] = next
			}
			cur = next
			continue
		}
		list, _ := cur[name].([]any)
		entry := findEntry(list, e.GetKey())
		if entry == nil {
			entry = obj{}
			for k, kv := range e.GetKey() {
				entry[unqualify(k)] = kv
			}
			cur[name] = append(list, entry)
		}
		if last {
			if o, ok := v.(obj); ok {
				merge(entry, o)
			}
			return
		}
		cur = entry
	}
	// An update at the root: the value is the whole tree.
	if o, ok := v.(obj); ok {
		merge(root, o)
	}
}

// merge copies src's members into dst when both are objects, and returns src otherwise.
func merge(dst, src any) any {
	d, ok1 := dst.(obj)
	s, ok2 := src.(obj)
	if !ok1 || !ok2 {
		return src
	}
	for k, v := range s {
		d[k] = merge(d[k], v)
	}
	return d
}

func findEntry(list []any, keys map[string]string) obj {
	for _, item := range list {
		e, ok := item.(obj)
		if !ok {
			continue
		}
		match := true
		for k, want := range keys {
			if got, ok := e[unqualify(k)]; !ok || unqualify(fmt.Sprint(got)) != unqualify(want) {
				match = false
			}
		}
		if match {
			return e
		}
	}
	return nil
}

// walk follows member names and returns what is there (nil when something is missing).
func walk(v any, names ...string) any {
	for _, name := range names {
		o, ok := v.(obj)
		if !ok {
			return nil
		}
		v = o[name]
	}
	return v
}

// listEntry picks the entry of a list whose key leaf is value (nil when there is none).
func listEntry(list any, key, value string) any {
	items, _ := list.([]any)
	if e := findEntry(items, map[string]string{key: value}); e != nil {
		return e
	}
	return nil
}

func unqualify(s string) string { return s[strings.LastIndex(s, ":")+1:] }

func pathText(p *gpb.Path) string {
	var b strings.Builder
	for _, e := range p.GetElem() {
		b.WriteString("/" + e.GetName())
		for k, v := range e.GetKey() {
			b.WriteString("[" + k + "=" + v + "]")
		}
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}
