package eos

// Traffic counters of the `eos` switch (eos-switch.md, "Counters"): `show qos interfaces [IF]
// ecn counters queue` and `show interfaces [IF] counters discards`, whose `| json` forms have
// the keys of the eAPI output that aristanetworks/anta's unit tests hold
// (intfQueueCounters.<if>.queueCounters.<queue> a string, "-" for a queue that counts no marks;
// interfaces.<if>.inDiscards/outDiscards with inDiscardsTotal/outDiscardsTotal). The numbers are
// the lab's model, the OpenConfig switch's traffic shape (the traffic room's rates), computed
// from the switch's clock and the port's storm clock (cliswitch.Switch) at each read.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// eosTxQueues are the tx-queues a port reports (`show qos maps`: 8 transmit queues).
const eosTxQueues = 8

// eosPorts reads an optional port before the keyword that follows it: every port when the
// next word is that keyword, else the one port named.
func eosPorts(sw *Switch, a *cliswitch.Args, next string) ([]int, *cliswitch.Refusal) {
	if a.IsKw(next) {
		ports := make([]int, len(sw.Interfaces()))
		for i := range ports {
			ports[i] = i + 1
		}
		return ports, nil
	}
	n, err := argEthernet(a, len(sw.Interfaces()))
	if err != nil {
		return nil, err
	}
	return []int{n}, nil
}

// keywords reads each keyword in turn.
func keywords(a *cliswitch.Args, kws ...string) *cliswitch.Refusal {
	for _, k := range kws {
		if _, err := a.Kw(k); err != nil {
			return err
		}
	}
	return nil
}

// ecnCounters is `show qos interfaces [IF] ecn counters queue` after `interfaces`.
func (sw *Switch) ecnCounters(a *cliswitch.Args) (text, jsonText string, err *cliswitch.Refusal) {
	ports, err := eosPorts(sw, a, "ecn")
	if err != nil {
		return "", "", err
	}
	if err := keywords(a, "ecn", "counters", "queue"); err != nil {
		return "", "", err
	}
	type intf struct {
		QueueCounters map[string]string `json:"queueCounters"`
	}
	out := map[string]intf{}
	var b strings.Builder
	b.WriteString("Port       Tx-Queue  ECN Marked\n---------- -------- ----------\n")
	for _, n := range ports {
		name := sw.Interfaces()[n-1]
		q := intf{QueueCounters: map[string]string{}}
		for tq := range eosTxQueues {
			v := sw.ecnMarks(n, tq)
			q.QueueCounters[strconv.Itoa(tq)] = v
			fmt.Fprintf(&b, "%-10s %8d %10s\n", eosShortName(name), tq, v)
		}
		out[name] = q
	}
	return b.String(), eosJSON(map[string]any{"intfQueueCounters": out}), nil
}

// ecnMarks is a tx-queue's ECN counter: "-" unless the port's service-profile counts that
// queue's marks (`random-detect ecn count`); marks grow only where the queue also marks
// (`random-detect ecn minimum-threshold ...`), faster during the port's storm.
func (sw *Switch) ecnMarks(port, tq int) string {
	prof := sw.running.profiles[sw.running.ifaces[port-1].serviceProfile]
	if prof == nil {
		return "-"
	}
	counting, marking := false, false
	for _, uc := range []bool{false, true} {
		if q := prof.queues[eosQueueKey{uc: uc, n: tq}]; q != nil {
			counting = counting || q.ecnCount
			marking = marking || q.ecn != nil
		}
	}
	if !counting {
		return "-"
	}
	if !marking {
		return "0"
	}
	up, storm := sw.Traffic(sw.Interfaces()[port-1])
	return strconv.FormatUint(traffic.Count(traffic.QueueECNMarkPPS, up)+traffic.Count(traffic.StormQueueMarkPPS, storm), 10)
}

// discards is `show interfaces [IF] counters discards` after `interfaces`: a port discards
// only during its storm.
func (sw *Switch) discards(a *cliswitch.Args) (text, jsonText string, err *cliswitch.Refusal) {
	ports, err := eosPorts(sw, a, "counters")
	if err != nil {
		return "", "", err
	}
	if err := keywords(a, "counters", "discards"); err != nil {
		return "", "", err
	}
	type intf struct {
		OutDiscards uint64 `json:"outDiscards"`
		InDiscards  uint64 `json:"inDiscards"`
	}
	out := map[string]intf{}
	var in, outTotal uint64
	var b strings.Builder
	b.WriteString("Port       InDiscards OutDiscards\n---------- ---------- -----------\n")
	for _, n := range ports {
		name := sw.Interfaces()[n-1]
		_, storm := sw.Traffic(name)
		d := intf{OutDiscards: traffic.Count(traffic.StormOutDiscardPPS, storm), InDiscards: traffic.Count(traffic.StormInDiscardPPS, storm)}
		out[name] = d
		in, outTotal = in+d.InDiscards, outTotal+d.OutDiscards
		fmt.Fprintf(&b, "%-10s %10d %11d\n", eosShortName(name), d.InDiscards, d.OutDiscards)
	}
	fmt.Fprintf(&b, "%-10s %10d %11d\n", "Totals", in, outTotal)
	return b.String(), eosJSON(map[string]any{"inDiscardsTotal": in, "interfaces": out, "outDiscardsTotal": outTotal}), nil
}

// eosShortName is EOS's short port name in tables (Ethernet1 -> Et1).
func eosShortName(port string) string { return strings.Replace(port, "Ethernet", "Et", 1) }

// eosJSON is eAPI's JSON as the CLI prints it: 4-space indentation, no HTML escaping.
func eosJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	_ = enc.Encode(v) // maps of strings and numbers always encode
	return b.String()
}
