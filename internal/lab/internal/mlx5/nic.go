package mlx5

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"

// The DCB state of one ConnectX port as the mlx5_core driver keeps it and
// the rules its dcbnl callbacks apply (Linux drivers/net/ethernet/mellanox/
// mlx5/core/en_dcbnl.c): mlnx_qos talks to these over rtnetlink.

const (
	tsaStrict = 0
	tsaETS    = 2
	tsaVendor = 255

	maxBWAlloc      = 100 // MLX5E_MAX_BW_ALLOC
	vendorTCGroup   = 7   // MLX5E_VENDOR_TC_GROUP_NUM
	defaultCableLen = 7   // MLX5E_DEFAULT_CABLE_LEN: "Cable len: 7" in every capture
	maxCableLen     = 1000

	// Receive buffer of the emulated port: the size in the trust-pcp capture
	// (524160 in buffer 0) plus one spare 128-byte cell, the spare the
	// NVIDIA receive-buffer note shows (262016 port, 2 x 130944 buffers).
	portBufferSize = 524288
	bufferCell     = 128

	dcbxCapHost = 0x1 // DCB_CAP_DCBX_HOST
	dcbxCapCEE  = 0x4
	dcbxCapIEEE = 0x8
	dcbxLLD     = 0x2 // DCB_CAP_DCBX_LLD_MANAGED
)

// dcbApp is one IEEE DSCP application-table entry.
type dcbApp struct{ dscp, prio uint8 }

// maxRate is one TC's rate limit as the port register keeps it.
type maxRate struct {
	unit  uint8 // 0 none, 1 per 100 Mbps, 2 per Gbps
	value uint8
}

type nicPort struct {
	ifname, rdma, pci string

	dcbxHost  bool
	trustDSCP bool
	dscp2prio [64]uint8
	apps      []dcbApp // the kernel's dcb_app list for this netdev, head first
	pfcEn     uint8
	cableLen  uint16
	prioTC    [8]uint8
	tcGroup   [8]uint8
	tcBW      [8]uint8 // as programmed into the port (vendor/strict TCs: 100)
	tsa       [8]uint8 // priv->dcbx.tc_tsa
	rates     [8]maxRate
	prio2buf  [8]uint8
	bufSize   [8]uint32

	cong cong

	trafficClass int   // /sys/class/infiniband/<dev>/tc/1/traffic_class, -1 unset
	roceTOS      uint8 // rdma_cm default_roce_tos of port 1

	ctr nicCounters // ethtool -S and hw_counters (counters.go)
}

// reset is what a driver load after a reboot leaves: firmware defaults for
// everything volatile (trust, maps, PFC, ETS, congestion parameters) and
// the DCBX mode the firmware's non-volatile configuration selects.
func (p *nicPort) reset(firmwareDCBX bool) {
	p.dcbxHost = !firmwareDCBX
	p.trustDSCP = false
	p.apps = nil
	for i := range p.dscp2prio {
		p.dscp2prio[i] = uint8(i >> 3) // firmware default map, as the captures list it
	}
	p.pfcEn = 0
	p.cableLen = defaultCableLen
	// mlx5e_ets_init: every TC vendor with 100 %, priority 0 on TC 1 and
	// priority 1 on TC 0 (the captures' "tc: 0 ... priority:  1").
	var prioTC, tsa, bw [8]uint8
	for i := range 8 {
		prioTC[i], tsa[i], bw[i] = uint8(i), tsaVendor, maxBWAlloc
	}
	prioTC[0], prioTC[1] = 1, 0
	p.setETSCore(prioTC, tsa, bw)
	p.rates = [8]maxRate{}
	p.updateBuffers()
	p.cong.reset()
	p.trafficClass = -1
	p.roceTOS = 0
}

func (p *nicPort) dcbxCap() uint8 {
	c := uint8(dcbxCapCEE | dcbxCapIEEE)
	if p.dcbxHost {
		c |= dcbxCapHost
	}
	return c
}

// setDCBX is mlx5e_dcbnl_setdcbx; it returns the status byte dcbnl puts in
// its reply (non-zero is a failure).
func (p *nicPort) setDCBX(mode uint8) uint8 {
	switch {
	case mode&dcbxLLD != 0:
		return 1
	case mode == 0:
		p.dcbxHost = false
		return 0
	case mode&dcbxCapHost == 0:
		return 1
	}
	p.dcbxHost = true
	return 0
}

// validateETS is mlx5e_dbcnl_validate_ets: the ETS TCs' shares must sum
// to 100.
func validateETS(tsa, bw [8]uint8) error {
	sum, haveETS := 0, false
	for i := range 8 {
		if tsa[i] == tsaETS {
			haveETS = true
			sum += int(bw[i])
		}
	}
	if haveETS && sum != 100 {
		return sh.EINVAL
	}
	return nil
}

// setETSCore is mlx5e_dcbnl_ieee_setets_core with mlx5e_build_tc_group and
// mlx5e_build_tc_tx_bw: strict TCs get ascending groups above the ETS
// groups, ETS TCs with 0 % share group 0 and split 100 % between them.
func (p *nicPort) setETSCore(prioTC, tsa, bw [8]uint8) {
	anyETS, zeroBW, zeroCount, lastZero := false, false, 0, -1
	for i := range 8 {
		if tsa[i] == tsaETS {
			anyETS = true
			if bw[i] == 0 {
				zeroBW = true
				zeroCount++
				lastZero = i
			}
		}
	}
	strictGroup := uint8(0)
	if anyETS {
		strictGroup++
	}
	if zeroBW {
		strictGroup++
	}
	for i := range 8 {
		switch tsa[i] {
		case tsaVendor:
			p.tcGroup[i], p.tcBW[i] = vendorTCGroup, maxBWAlloc
		case tsaStrict:
			p.tcGroup[i], p.tcBW[i] = strictGroup, maxBWAlloc
			strictGroup++
		case tsaETS:
			p.tcGroup[i], p.tcBW[i] = 0, bw[i]
			if bw[i] != 0 && zeroBW {
				p.tcGroup[i] = 1
			}
			if bw[i] == 0 {
				p.tcBW[i] = uint8(maxBWAlloc / zeroCount)
			}
		}
	}
	if lastZero >= 0 {
		p.tcBW[lastZero] += uint8(maxBWAlloc % zeroCount)
	}
	p.prioTC = prioTC
	p.tsa = tsa
}

// getETS is mlx5e_dcbnl_ieee_getets: the TSA is re-derived from the
// programmed groups and shares, falling back to the cached one.
func (p *nicPort) getETS() (prioTC, tsa, bw [8]uint8) {
	bw = p.tcBW
	zeroBWETS, group6 := false, false
	for i := range 8 {
		if bw[i] < maxBWAlloc && p.tcGroup[i] == 1 {
			zeroBWETS = true
		}
		if p.tcGroup[i] == vendorTCGroup-1 {
			group6 = true
		}
	}
	if zeroBWETS {
		for i := range 8 {
			if p.tcGroup[i] == 0 {
				bw[i] = 0
			}
		}
	}
	for i := range 8 {
		if bw[i] < maxBWAlloc {
			p.tsa[i] = tsaETS
		} else if p.tcGroup[i] == vendorTCGroup && !group6 {
			p.tsa[i] = tsaVendor
		}
	}
	return p.prioTC, p.tsa, bw
}

// setPFC is mlx5e_dcbnl_ieee_setpfc. The firmware then moves the lossless
// priorities to receive buffer 1 (the layout `mlnx_qos` shows with PFC on
// priority 3: "buffer 0 0 0 1 0 0 0 0"); the exact split is firmware
// internal, so the lab halves the port buffer in whole cells.
func (p *nicPort) setPFC(en uint8, delay uint16) {
	if en != p.pfcEn {
		p.pfcEn = en
		p.updateBuffers()
	}
	if delay != 0 && delay < maxCableLen && delay != p.cableLen {
		p.cableLen = delay
	}
}

func (p *nicPort) updateBuffers() {
	cells := uint32((portBufferSize - bufferCell) / bufferCell)
	p.bufSize = [8]uint32{}
	for i := range 8 {
		p.prio2buf[i] = (p.pfcEn >> i) & 1
	}
	if p.pfcEn == 0 {
		p.bufSize[0] = cells * bufferCell
		return
	}
	p.bufSize[1] = cells / 2 * bufferCell
	p.bufSize[0] = (cells - cells/2) * bufferCell
}

// setMaxRate is mlx5e_dcbnl_ieee_setmaxrate (rates in kbit/s) of current
// kernels: up to 25.5 Gbps in 100 Mbps units, up to 255 Gbps in Gbps
// units, EINVAL above.
func (p *nicPort) setMaxRate(kbps [8]uint64) error {
	const mb100, gb = 100000, 1000000
	var rates [8]maxRate
	for i, r := range kbps {
		switch {
		case r == 0:
		case r <= 255*mb100:
			rates[i] = maxRate{unit: 1, value: uint8(max(r/mb100, 1))}
		case r <= 255*gb:
			rates[i] = maxRate{unit: 2, value: uint8(r / gb)}
		default:
			return sh.EINVAL
		}
	}
	p.rates = rates
	return nil
}

func (p *nicPort) maxRateKbps() [8]uint64 {
	var out [8]uint64
	for i, r := range p.rates {
		switch r.unit {
		case 1:
			out[i] = uint64(r.value) * 100000
		case 2:
			out[i] = uint64(r.value) * 1000000
		}
	}
	return out
}

// setApp is mlx5e_dcbnl_ieee_setapp for a DSCP entry: the first entry
// switches trust to DSCP; the entry moves to the head of the app list.
func (p *nicPort) setApp(a dcbApp) error {
	if a.dscp >= 64 {
		return sh.EINVAL
	}
	old := dcbApp{dscp: a.dscp, prio: p.dscp2prio[a.dscp]}
	if len(p.apps) == 0 {
		p.trustDSCP = true
	}
	p.dscp2prio[a.dscp] = a.prio
	p.delListEntry(old) // the driver's dscp_app_cnt is len(p.apps)
	if p.hasListEntry(a) {
		return sh.EEXIST
	}
	p.apps = append([]dcbApp{a}, p.apps...)
	return nil
}

// delApp is mlx5e_dcbnl_ieee_delapp: the entry must match the firmware
// map; the DSCP then maps to priority 0, and the last deletion switches
// trust back to PCP.
func (p *nicPort) delApp(a dcbApp) error {
	switch {
	case a.dscp >= 64:
		return sh.EINVAL
	case len(p.apps) == 0, a.prio != p.dscp2prio[a.dscp]:
		return sh.ENOENT
	case !p.delListEntry(a):
		return sh.ENOENT
	}
	p.dscp2prio[a.dscp] = 0
	if len(p.apps) == 0 {
		p.trustDSCP = false
	}
	return nil
}

func (p *nicPort) hasListEntry(a dcbApp) bool {
	for _, x := range p.apps {
		if x == a {
			return true
		}
	}
	return false
}

func (p *nicPort) delListEntry(a dcbApp) bool {
	for i, x := range p.apps {
		if x == a {
			p.apps = append(p.apps[:i:i], p.apps[i+1:]...)
			return true
		}
	}
	return false
}
