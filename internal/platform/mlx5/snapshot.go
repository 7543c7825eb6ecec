package mlx5

import (
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Snapshot holds the values a host had, before create, of exactly the settings a resource
// manages, so destroy (and a failed apply) can put them back. It is JSON-serialisable for
// Terraform private state.
type Snapshot struct {
	Interface  string         `json:"interface"`
	PCIAddress string         `json:"pci_address,omitempty"`
	RDMADev    string         `json:"rdma_dev,omitempty"`
	Tool       string         `json:"tool,omitempty"` // the QoS tool the host had (ToolMlnxQoS when empty)
	NIC        *NICSnapshot   `json:"nic,omitempty"`
	DCQCN      *DCQCNSnapshot `json:"dcqcn,omitempty"`
}

// NICSnapshot is the prior state of roce_nic_qos settings. Trust and PFC are always managed.
type NICSnapshot struct {
	Trust string  `json:"trust"`
	PFC   [8]bool `json:"pfc"`
	// DSCP2Prio is the map when the prior trust was dscp: changing trust loses it (mlx5 keeps
	// the map as DCB app entries; trust pcp deletes them, trust dscp installs dscp>>3).
	DSCP2Prio *[64]int   `json:"dscp2prio,omitempty"`
	PrioTC    *[8]int    `json:"prio_tc,omitempty"`  // when priority_to_tc is managed
	TSA       *[8]string `json:"tsa,omitempty"`      // when ets is managed
	BW        *[8]int    `json:"bw,omitempty"`       // when ets is managed
	RoCEToS   *int       `json:"roce_tos,omitempty"` // when roce_tos is managed; -1: no global traffic class
}

// DCQCNSnapshot is the prior state of roce_dcqcn_profile settings.
type DCQCNSnapshot struct {
	RP [8]int            `json:"rp"` // roce_rp enable per priority (-1: not read, not restored)
	NP [8]int            `json:"np"`
	CC map[string]uint32 `json:"cc"` // cc_params files d manages, plus np_cnp_prio_mode
}

// Snapshot records s's values of the settings nic and dcqcn manage (either may be nil).
func (s *HostState) Snapshot(nic *fabric.NICQoS, dcqcn *fabric.DCQCN) Snapshot {
	snap := Snapshot{Interface: s.Interface, PCIAddress: s.PCIAddress, RDMADev: s.RDMADev, Tool: s.Tool}
	if nic != nil {
		n := &NICSnapshot{Trust: s.Trust, PFC: s.PFC}
		if s.Trust == string(fabric.TrustDSCP) && s.DSCP2PrioShown {
			m := s.DSCP2Prio
			n.DSCP2Prio = &m
		}
		if nic.PriorityToTC != nil {
			p := s.PrioTC
			n.PrioTC = &p
		}
		if nic.ETS != nil {
			tsa, bw := s.TSA, s.BW
			n.TSA, n.BW = &tsa, &bw
		}
		if nic.RoCEToS != nil {
			tos := -1
			if s.RoCEToS != nil {
				tos = *s.RoCEToS
			}
			n.RoCEToS = &tos
		}
		snap.NIC = n
	}
	if dcqcn != nil {
		d := &DCQCNSnapshot{RP: s.RP, NP: s.NP, CC: map[string]uint32{}}
		for _, f := range append(ccFilesFor(dcqcn), ccCNPPrioMode) {
			if v, ok := s.CCParams[f]; ok {
				d.CC[f] = v
			}
		}
		snap.DCQCN = d
	}
	return snap
}

// RestoreScript returns the one command that writes back prior's values of the settings nic
// and dcqcn manage: RestoreFromSnapshot of prior.Snapshot(nic, dcqcn).
func RestoreScript(ifname string, prior *HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN, sudo bool) string {
	return restoreScript("", ifname, prior.Snapshot(nic, dcqcn), prior, sudo)
}

// RestoreFromSnapshot returns the one command that writes snap's values back on ifname. s, the
// current state, supplies the PCI address and RDMA device when not nil (else snap's are used).
// np_cnp_prio is written before np_cnp_prio_mode, since writing it resets the mode to 0. A TSA
// mlnx_qos cannot set ("unknown", or a TC it did not print; mlx5 reports neither) is restored
// as vendor.
func RestoreFromSnapshot(ifname string, snap Snapshot, s *HostState, sudo bool) string {
	return restoreScript("", ifname, snap, s, sudo)
}

// restoreScript is RestoreFromSnapshot on the host tree under root.
func restoreScript(root, ifname string, snap Snapshot, s *HostState, sudo bool) string {
	pci, rdma := snap.PCIAddress, snap.RDMADev
	cur := &HostState{Tool: snap.Tool}
	if s != nil {
		pci, rdma, cur = pick(s.PCIAddress, pci), pick(s.RDMADev, rdma), s
	}
	w := &script{sudo: sudo, root: root}
	if n := snap.NIC; n != nil {
		trust := n.Trust
		if trust != string(fabric.TrustDSCP) && trust != string(fabric.TrustPCP) {
			trust = ""
		}
		var tsa *[8]string
		var bw *[8]int
		if n.TSA != nil && n.BW != nil {
			t, b := *n.TSA, *n.BW
			for tc := range t {
				if t[tc] != "ets" {
					b[tc] = 0
				}
				if t[tc] != "ets" && t[tc] != "strict" {
					t[tc] = "vendor"
				}
			}
			tsa, bw = &t, &b
		}
		w.qos(cur, ifname, trust, n.PFC, n.PrioTC, tsa, bw, n.DSCP2Prio)
		if n.RoCEToS != nil {
			w.write(tosPath(ifname, rdma), int64(*n.RoCEToS))
		}
	}
	if d := snap.DCQCN; d != nil {
		w.ecn(ifname, d.RP, d.NP)
		for _, f := range ccOrder {
			if v, ok := d.CC[f]; ok {
				w.write(ccDir(pci)+"/"+f, int64(v))
			}
		}
	}
	return w.String()
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
