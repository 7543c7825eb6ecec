package lab

// The counters of an mlx5 port: what `ethtool -S IF` prints (mlx5e's stats groups,
// drivers/net/ethernet/mellanox/mlx5/core/en_stats.c) and the RDMA device's port 1
// hw_counters files (mlx5_ib, drivers/infiniband/hw/mlx5/counters.c). Names, group order and
// presence rules are the driver's; the values come from the steady traffic below and, during a
// storm, the extra rates. A reboot (driver reload) starts every counter from zero.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Simulated traffic, per second. RoCE runs on priority 3 in both directions; CNPs go out on
// priority 6 (the firmware's cnp_802p_prio); kernel traffic is untagged (priority 0).
const (
	rdmaPPS        = 2_000_000
	rdmaPktBytes   = traffic.RDMAPktBytes
	kernelRxPPS    = 1000
	kernelTxPPS    = 800
	kernelPktBytes = 300
	rocePrio       = 3
	cnpPrio        = 6

	// Congestion at the steady rate: a few ECN marks and CNPs.
	ecnMarkedPPS  = 50
	cnpSentPPS    = 45
	cnpHandledPPS = 40

	// While a storm is on: the peer pauses every PFC-enabled priority (about 95 % of the time),
	// the fabric marks and drops.
	stormPausePPS      = traffic.StormPausePPS
	stormPauseUSPerSec = 950_000 // pause duration, microseconds per second
	stormTransitions   = 100
	stormECNMarkedPPS  = 20_000
	stormCNPSentPPS    = 18_000
	stormCNPHandledPPS = 15_000
	stormRxDiscardPPS  = 100
	stormTxDiscardPPS  = 400
	stormOutOfSeqPPS   = 50
	stormSeqErrPPS     = 20
	stormImpliedNakPPS = 10
	stormDuplicatePPS  = 5
	stormAckTimeoutPPS = 1

	defaultLifespanMs = 10 // RDMA_HW_STATS_DEFAULT_LIFESPAN
)

// nicCounters is a port's counter state since the last driver load.
type nicCounters struct {
	boot     time.Time
	storm    traffic.Storm
	paused   [8]time.Duration // storm time while PFC was enabled on the priority
	upTo     time.Time        // paused is accounted up to here
	lifespan int              // hw_counters/lifespan, ms
}

func (c *nicCounters) reset(now time.Time) {
	*c = nicCounters{boot: now, upTo: now, lifespan: defaultLifespanMs}
}

// account credits the storm time since the last call to the priorities with PFC enabled. It
// runs before anything that changes either (a storm toggle, a PFC write) and before each read.
func (c *nicCounters) account(now time.Time, pfcEn uint8) {
	if d := now.Sub(c.upTo); c.storm.On && d > 0 {
		for prio := range 8 {
			if pfcEn&(1<<prio) != 0 {
				c.paused[prio] += d
			}
		}
	}
	if now.After(c.upTo) {
		c.upTo = now
	}
}

// nicSample is what one read of a port's counters sees.
type nicSample struct {
	up, storm time.Duration
	paused    [8]time.Duration
	pfcEn     uint8
}

func (p *nicPort) sample(now time.Time) nicSample {
	p.ctr.account(now, p.pfcEn)
	return nicSample{up: now.Sub(p.ctr.boot), storm: p.ctr.storm.Elapsed(now), paused: p.ctr.paused, pfcEn: p.pfcEn}
}

// steady and stormy count events at a rate over the port's uptime and its storm time.
func (s nicSample) steady(rate uint64) uint64 { return traffic.Count(rate, s.up) }
func (s nicSample) stormy(rate uint64) uint64 { return traffic.Count(rate, s.storm) }

func (s nicSample) pfcOn(prio int) bool { return s.pfcEn&(1<<prio) != 0 }

func (s nicSample) rxPause(prio int) uint64 { return traffic.Count(stormPausePPS, s.paused[prio]) }

func (s nicSample) ecnMarked() uint64  { return s.steady(ecnMarkedPPS) + s.stormy(stormECNMarkedPPS) }
func (s nicSample) cnpSent() uint64    { return s.steady(cnpSentPPS) + s.stormy(stormCNPSentPPS) }
func (s nicSample) cnpHandled() uint64 { return s.steady(cnpHandledPPS) + s.stormy(stormCNPHandledPPS) }

// stat is one counter: an `ethtool -S` line or a hw_counters file.
type stat struct {
	name  string
	value uint64
}

// ethtoolStats lists the port's statistics in mlx5e_nic_stats_grps order: sw, qcnt, vport,
// 802_3, 2863, 2819, phy, per_prio, per_port_buff_congest (a subset of the sw group; the
// cap-gated vnic_env, eth_ext, pcie and the per-channel groups are left out). The per_prio PFC
// block lists only the priorities with PFC enabled, and the 802.3x "global" block appears
// only while no priority has PFC (the port then runs global pause, mlx5's default).
func (s nicSample) ethtoolStats() []stat {
	var out []stat
	add := func(name string, v uint64) { out = append(out, stat{name, v}) }
	zero := func(names ...string) {
		for _, n := range names {
			add(n, 0)
		}
	}
	swRx, swTx := s.steady(kernelRxPPS), s.steady(kernelTxPPS)
	rdmaRx, rdmaTx := s.steady(rdmaPPS), s.steady(rdmaPPS)
	var rxPauses uint64
	for prio := range 8 {
		if s.pfcOn(prio) {
			rxPauses += s.rxPause(prio)
		}
	}
	cnpTx, cnpRx := s.cnpSent(), s.cnpHandled()

	// sw
	add("rx_packets", swRx)
	add("rx_bytes", swRx*kernelPktBytes)
	add("tx_packets", swTx)
	add("tx_bytes", swTx*kernelPktBytes)
	zero("tx_tso_packets", "tx_tso_bytes", "tx_tso_inner_packets", "tx_tso_inner_bytes", "tx_added_vlan_packets",
		"tx_nop", "rx_lro_packets", "rx_lro_bytes", "rx_ecn_mark", "rx_removed_vlan_packets")
	add("rx_csum_unnecessary", swRx)
	zero("rx_csum_none", "rx_csum_complete")
	add("tx_csum_partial", swTx)
	zero("tx_queue_stopped", "tx_queue_dropped", "tx_xmit_more", "tx_recover")
	add("tx_cqes", swTx)
	zero("tx_queue_wake", "tx_cqe_err", "rx_wqe_err", "rx_buff_alloc_err")
	// qcnt
	zero("rx_out_of_buffer", "rx_if_down_packets")
	// vport
	add("rx_vport_unicast_packets", swRx)
	add("rx_vport_unicast_bytes", swRx*kernelPktBytes)
	add("tx_vport_unicast_packets", swTx)
	add("tx_vport_unicast_bytes", swTx*kernelPktBytes)
	zero("rx_vport_multicast_packets", "rx_vport_multicast_bytes", "tx_vport_multicast_packets", "tx_vport_multicast_bytes",
		"rx_vport_broadcast_packets", "rx_vport_broadcast_bytes", "tx_vport_broadcast_packets", "tx_vport_broadcast_bytes")
	add("rx_vport_rdma_unicast_packets", rdmaRx+cnpRx)
	add("rx_vport_rdma_unicast_bytes", rdmaRx*rdmaPktBytes+cnpRx*cnpBytes)
	add("tx_vport_rdma_unicast_packets", rdmaTx+cnpTx)
	add("tx_vport_rdma_unicast_bytes", rdmaTx*rdmaPktBytes+cnpTx*cnpBytes)
	zero("rx_vport_rdma_multicast_packets", "rx_vport_rdma_multicast_bytes",
		"tx_vport_rdma_multicast_packets", "tx_vport_rdma_multicast_bytes")
	// 802_3
	rxPhy, txPhy := swRx+rdmaRx+cnpRx, swTx+rdmaTx+cnpTx
	add("tx_packets_phy", txPhy)
	add("rx_packets_phy", rxPhy+rxPauses)
	add("rx_crc_errors_phy", 0)
	add("tx_bytes_phy", swTx*kernelPktBytes+rdmaTx*rdmaPktBytes+cnpTx*cnpBytes)
	add("rx_bytes_phy", swRx*kernelPktBytes+rdmaRx*rdmaPktBytes+cnpRx*cnpBytes+rxPauses*pauseFrameBytes)
	zero("tx_multicast_phy", "tx_broadcast_phy", "rx_multicast_phy", "rx_broadcast_phy", "rx_in_range_len_errors_phy",
		"rx_out_of_range_len_phy", "rx_oversize_pkts_phy", "rx_symbol_err_phy", "tx_mac_control_phy")
	add("rx_mac_control_phy", rxPauses)
	zero("rx_unsupported_op_phy", "rx_pause_ctrl_phy", "tx_pause_ctrl_phy")
	// 2863
	add("rx_discards_phy", s.stormy(stormRxDiscardPPS))
	add("tx_discards_phy", s.stormy(stormTxDiscardPPS))
	add("tx_errors_phy", 0)
	// 2819
	zero("rx_undersize_pkts_phy", "rx_fragments_phy", "rx_jabbers_phy")
	add("rx_64_bytes_phy", cnpRx+rxPauses)
	zero("rx_65_to_127_bytes_phy", "rx_128_to_255_bytes_phy")
	add("rx_256_to_511_bytes_phy", swRx)
	zero("rx_512_to_1023_bytes_phy", "rx_1024_to_1518_bytes_phy", "rx_1519_to_2047_bytes_phy", "rx_2048_to_4095_bytes_phy")
	add("rx_4096_to_8191_bytes_phy", rdmaRx)
	add("rx_8192_to_10239_bytes_phy", 0)
	// phy
	add("link_down_events_phy", 0)
	// per_prio: traffic, then PFC of the enabled priorities, then global pause, then stall
	for prio := range 8 {
		rx, tx, rxBytes, txBytes := uint64(0), uint64(0), uint64(0), uint64(0)
		switch prio {
		case 0:
			rx, tx, rxBytes, txBytes = swRx, swTx, swRx*kernelPktBytes, swTx*kernelPktBytes
		case rocePrio:
			rx, tx, rxBytes, txBytes = rdmaRx, rdmaTx, rdmaRx*rdmaPktBytes, rdmaTx*rdmaPktBytes
		case cnpPrio:
			rx, tx, rxBytes, txBytes = cnpRx, cnpTx, cnpRx*cnpBytes, cnpTx*cnpBytes
		}
		p := strconv.Itoa(prio)
		add("rx_prio"+p+"_bytes", rxBytes)
		add("rx_prio"+p+"_packets", rx)
		add("rx_prio"+p+"_discards", 0)
		add("tx_prio"+p+"_bytes", txBytes)
		add("tx_prio"+p+"_packets", tx)
	}
	for prio := range 8 {
		if !s.pfcOn(prio) {
			continue
		}
		p := "prio" + strconv.Itoa(prio)
		add("rx_"+p+"_pause", s.rxPause(prio))
		add("rx_"+p+"_pause_duration", traffic.Count(stormPauseUSPerSec, s.paused[prio]))
		add("tx_"+p+"_pause", 0)
		add("tx_"+p+"_pause_duration", 0)
		add("rx_"+p+"_pause_transition", traffic.Count(stormTransitions, s.paused[prio]))
	}
	if s.pfcEn == 0 {
		zero("rx_global_pause", "rx_global_pause_duration", "tx_global_pause", "tx_global_pause_duration",
			"rx_global_pause_transition")
	}
	zero("tx_pause_storm_warning_events", "tx_pause_storm_error_events")
	// per_port_buff_congest
	for prio := range 8 {
		p := strconv.Itoa(prio)
		zero("rx_prio"+p+"_buf_discard", "rx_prio"+p+"_cong_discard", "rx_prio"+p+"_marked")
	}
	return out
}

// Frame sizes on the wire of the small packets above.
const (
	cnpBytes        = 64
	pauseFrameBytes = 64
)

// hwCounters are the files of /sys/class/infiniband/DEV/ports/1/hw_counters in the driver's
// order (basic, out_of_seq, retrans, extended_err, roce_accl, ext_ppcnt, cong); the optional
// per-operation counters are not in sysfs. Q counters are 32-bit in the firmware and wrap.
func (s nicSample) hwCounters() []stat {
	q := func(v uint64) uint64 { return uint64(uint32(v)) }
	return []stat{
		{"rx_write_requests", q(s.steady(rdmaPPS) / 2)},
		{"rx_read_requests", q(s.steady(rdmaPPS) / 8)},
		{"rx_atomic_requests", 0},
		{"rx_dct_connect", 0},
		{"out_of_buffer", 0},
		{"out_of_sequence", q(s.stormy(stormOutOfSeqPPS))},
		{"duplicate_request", q(s.stormy(stormDuplicatePPS))},
		{"rnr_nak_retry_err", 0},
		{"packet_seq_err", q(s.stormy(stormSeqErrPPS))},
		{"implied_nak_seq_err", q(s.stormy(stormImpliedNakPPS))},
		{"local_ack_timeout_err", q(s.stormy(stormAckTimeoutPPS))},
		{"resp_local_length_error", 0},
		{"resp_cqe_error", 0},
		{"req_cqe_error", 0},
		{"req_remote_invalid_request", 0},
		{"req_remote_access_errors", 0},
		{"resp_remote_access_errors", 0},
		{"resp_cqe_flush_error", 0},
		{"req_cqe_flush_error", 0},
		{"req_transport_retries_exceeded", 0},
		{"req_rnr_retries_exceeded", 0},
		{"roce_adp_retrans", 0},
		{"roce_adp_retrans_to", 0},
		{"roce_slow_restart", 0},
		{"roce_slow_restart_cnps", 0},
		{"roce_slow_restart_trans", 0},
		{"rx_icrc_encapsulated", 0},
		{"rp_cnp_ignored", 0},
		{"rp_cnp_handled", s.cnpHandled()},
		{"np_ecn_marked_roce_packets", s.ecnMarked()},
		{"np_cnp_sent", s.cnpSent()},
	}
}

// hwCounterNames are the counter file names, in driver order.
var hwCounterNames = func() []string {
	var out []string
	for _, st := range (nicSample{}).hwCounters() {
		out = append(out, st.name)
	}
	return out
}()

// addHWCounters lays out port 1's hw_counters under the RDMA device directory: one world-
// readable file per counter ("%llu\n", read from the firmware at each read) and lifespan
// (the cache time in ms; root may set 0-10000).
func (h *Host) addHWCounters(ib *sh.Node, p *nicPort) {
	dir := ib.Mkdirs("ports/1/hw_counters")
	for i, name := range hwCounterNames {
		dir.Children[name] = &sh.Node{Mode: 0o444, Read: func() string {
			return fmt.Sprintf("%d\n", p.sample(h.now()).hwCounters()[i].value)
		}}
	}
	dir.Children["lifespan"] = &sh.Node{Mode: 0o644,
		Read: func() string { return fmt.Sprintf("%d\n", p.ctr.lifespan) },
		Write: func(data string) error {
			v, err := strconv.Atoi(strings.TrimSuffix(data, "\n"))
			if err != nil || v < 0 || v > 10000 {
				return sh.EINVAL
			}
			p.ctr.lifespan = v
			return nil
		}}
}

// Storm starts or stops a pause storm on the port: while on, the port receives PFC pause
// frames on every priority with PFC enabled (rx_prioN_pause grows by 10000 a second), the
// fabric marks and drops its traffic (np_ecn_marked_roce_packets, np_cnp_sent, rp_cnp_handled,
// rx/tx_discards_phy and out_of_sequence grow fast). Reboot ends it.
func (h *Host) Storm(ifname string, on bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.port(ifname)
	if p == nil {
		return fmt.Errorf("%s has no interface %q (interfaces: %s)", h.name, ifname, strings.Join(h.Interfaces(), ", "))
	}
	now := h.now()
	p.ctr.account(now, p.pfcEn)
	p.ctr.storm.Set(on, now)
	return nil
}

// ethtoolStats renders `ethtool -S IF` for the port (do_gstats: a title line, then each
// statistic indented by five spaces).
func (h *Host) ethtoolStats(p *nicPort) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	b.WriteString("NIC statistics:\n")
	for _, st := range p.sample(h.now()).ethtoolStats() {
		fmt.Fprintf(&b, "     %s: %d\n", st.name, st.value)
	}
	return b.String()
}
