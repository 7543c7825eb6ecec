package eos

// The configuration an `eos` switch holds: the effective QoS maps (the EOS defaults until
// changed), qos profiles and per-port settings. The running-config, every session's
// candidate and the replay of a commit all use this one model; it is copied whole (clone)
// whenever a change must be all or nothing.

import (
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

// eosDefaultCoS is EOS's CoS -> traffic-class map; the DSCP defaults apply it to each DSCP's
// class selector (DSCP >> 3).
var eosDefaultCoS = [8]int{1, 0, 2, 3, 4, 5, 6, 7}

type eosQueueKey struct {
	uc bool // uc-tx-queue rather than tx-queue
	n  int
}

func (k eosQueueKey) keyword() string {
	if k.uc {
		return "uc-tx-queue"
	}
	return "tx-queue"
}

type eosECN struct {
	min, max         int
	minUnit, maxUnit string
	prob             int // max-mark-probability, cliswitch.NoValue if not given
	weight           int // cliswitch.NoValue if not given
}

type eosTxQueue struct {
	bandwidth int    // percent, 0 if not configured
	priority  string // "", "strict" or "no" (the `no priority` line)
	ecn       *eosECN
	ecnCount  bool // `random-detect ecn count`: the queue counts the packets it marks
}

// eosWDTimer holds the watchdog times in hundredths of a second, the CLI's resolution.
type eosWDTimer struct {
	timeout, polling, recovery int // polling 0 means auto
	forced                     bool
}

type eosWatchdog struct {
	enabled bool
	action  string // "" if not configured
	timer   *eosWDTimer
}

// eosPFC is what a qos profile and an interface share.
type eosPFC struct {
	on   bool
	prio map[int]string // priority -> "no-drop" or "drop"
	wd   eosWatchdog
}

type eosProfile struct {
	trust  string // "", "dscp" or "cos"
	queues map[eosQueueKey]*eosTxQueue
	pfc    eosPFC
}

type eosIface struct {
	description    string
	mtu            int    // 0 if not configured
	fcSend, fcRecv string // "", "on" or "off": shown only when set explicitly
	pfc            eosPFC
	serviceProfile string
}

type eosConfig struct {
	hostname string
	dscpTC   [64]int
	dscpDP   [64]int // drop-precedence, cliswitch.NoValue if not configured
	cosTC    [8]int
	tcQueue  [8]int
	profiles map[string]*eosProfile
	ifaces   []*eosIface // Ethernet(i+1)
}

// newEOSConfig is a fresh switch: EOS's default maps, no profiles, every port untouched.
func newEOSConfig(hostname string, ports int) *eosConfig {
	c := &eosConfig{hostname: hostname, profiles: map[string]*eosProfile{}}
	for d := range c.dscpTC {
		c.dscpTC[d], c.dscpDP[d] = eosDefaultCoS[d>>3], cliswitch.NoValue
	}
	c.cosTC = eosDefaultCoS
	for tc := range c.tcQueue {
		c.tcQueue[tc] = tc
	}
	for range ports {
		c.ifaces = append(c.ifaces, &eosIface{})
	}
	return c
}

func (c *eosConfig) clone() *eosConfig {
	out := *c
	out.profiles = make(map[string]*eosProfile, len(c.profiles))
	for name, p := range c.profiles {
		out.profiles[name] = p.clone()
	}
	out.ifaces = make([]*eosIface, len(c.ifaces))
	for i, f := range c.ifaces {
		cp := *f
		cp.pfc = f.pfc.clone()
		out.ifaces[i] = &cp
	}
	return &out
}

func (p *eosProfile) clone() *eosProfile {
	out := &eosProfile{trust: p.trust, pfc: p.pfc.clone(), queues: make(map[eosQueueKey]*eosTxQueue, len(p.queues))}
	for k, q := range p.queues {
		cp := *q
		if q.ecn != nil {
			e := *q.ecn
			cp.ecn = &e
		}
		out.queues[k] = &cp
	}
	return out
}

func (p eosPFC) clone() eosPFC {
	p.prio = maps.Clone(p.prio)
	if p.wd.timer != nil {
		t := *p.wd.timer
		p.wd.timer = &t
	}
	return p
}

// profile returns the named profile, creating it: commands inside a profile's mode re-create
// a profile deleted meanwhile, as the mode's commands do on EOS.
func (c *eosConfig) profile(name string) *eosProfile {
	p, ok := c.profiles[name]
	if !ok {
		p = &eosProfile{queues: map[eosQueueKey]*eosTxQueue{}}
		c.profiles[name] = p
	}
	return p
}

func (p *eosProfile) queue(k eosQueueKey) *eosTxQueue {
	q, ok := p.queues[k]
	if !ok {
		q = &eosTxQueue{}
		p.queues[k] = q
	}
	return q
}

// sortedQueues orders a profile's queues by number, tx-queue before uc-tx-queue.
func (p *eosProfile) sortedQueues() []eosQueueKey {
	keys := slices.Collect(maps.Keys(p.queues))
	slices.SortFunc(keys, func(a, b eosQueueKey) int {
		if a.n != b.n {
			return a.n - b.n
		}
		if a.uc == b.uc {
			return 0
		}
		if a.uc {
			return 1
		}
		return -1
	})
	return keys
}
