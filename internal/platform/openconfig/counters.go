package openconfig

// Counters for roce_interface_counters from OpenConfig operational state.
//
// # Reading
//
// Get each path of CountersPaths with GetRequest type STATE (operational state; CONFIG, what
// the policy reads use, returns none of it) and encoding JSON_IETF, one GetRequest per path:
// a target answers codes.NotFound for a path with no data, and the queue path has none when
// the port has no output queue bound, which must not fail the interface path. Hand every
// update of the answers to ParseCounters; a NotFound queue path contributes none.
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

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// Counters are one read of a port's counters, in the same shape as the mlx5 package's. Nil
// pointers and maps are counters OpenConfig or the target does not provide.
type Counters struct {
	PFCRxPause, PFCTxPause map[int]int64 // always nil: no per-priority PFC counter in the model
	ECNMarked              *int64
	Dropped                *int64
	CNPSent, CNPHandled    *int64 // always nil: host counters
	OutOfSequence          *int64
}

// Update is one value a Get returned: its full path (prefix and path joined; origin ignored)
// and its JSON or JSON_IETF encoding. A target may answer a container path with the whole
// subtree or with one update per leaf; ParseCounters takes either.
type Update struct {
	Path *gpb.Path
	JSON []byte
}

// CountersPaths are the paths a counters read of ifname gets (type STATE).
func CountersPaths(ifname string) []*gpb.Path {
	return []*gpb.Path{
		{Origin: Origin, Elem: []*gpb.PathElem{el("interfaces"), keyed("interface", "name", ifname), el("state"), el("counters")}},
		{Origin: Origin, Elem: ifPath(ifname, el("output"), el("queues")).GetElem()},
	}
}

// ParseCounters reads ifname's counters from the updates of Gets at CountersPaths(ifname). It
// fails when the updates hold no counters of the interface (no such port) or a value is not a
// counter.
func ParseCounters(ifname string, updates []Update) (Counters, error) {
	root := obj{}
	for _, u := range updates {
		dec := json.NewDecoder(bytes.NewReader(u.JSON))
		dec.UseNumber()
		var v any
		err := dec.Decode(&v)
		if err == nil {
			err = atEnd(dec)
		}
		if err != nil {
			return Counters{}, fmt.Errorf("openconfig: counters of %s: value at %s is not JSON: %w", ifname, pathText(u.Path), err)
		}
		graft(root, u.Path.GetElem(), stripPrefixes(v))
	}
	var c Counters
	counters, ok := walk(listEntry(walk(root, "interfaces", "interface"), "name", ifname), "state", "counters").(obj)
	if !ok {
		return c, fmt.Errorf("openconfig: the device reports no counters for interface %s: check that the port exists", ifname)
	}
	var err error
	if c.Dropped, err = sumLeaves(ifname, []obj{counters}, "in-discards", "out-discards"); err != nil {
		return Counters{}, err
	}
	var states []obj
	qosIf := listEntry(walk(root, "qos", "interfaces", "interface"), "interface-id", ifname)
	queues, _ := walk(qosIf, "output", "queues", "queue").([]any)
	for _, q := range queues {
		if st, ok := walk(q, "state").(obj); ok {
			states = append(states, st)
		}
	}
	if c.ECNMarked, err = sumLeaves(ifname, states, "ecn-marked-pkts"); err != nil {
		return Counters{}, err
	}
	return c, nil
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
			var s string
			switch x := v.(type) {
			case json.Number:
				s = x.String()
			case string:
				s = x
			}
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
