package nxos

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// apply reads a qos policy-map body: `class NAME` (or `class type qos NAME`) blocks with
// `set qos-group N`, and `no class NAME`.
func (pm *QoSPolicyMap) apply(body []*node) error {
	for _, n := range body {
		f := strings.Fields(n.Line)
		no := len(f) > 0 && f[0] == "no"
		if no {
			f = f[1:]
		}
		if len(f) == 4 && f[0] == "class" && f[1] == "type" && f[2] == "qos" {
			f = []string{"class", f[3]}
		}
		if len(f) != 2 || f[0] != "class" {
			continue
		}
		i := slices.IndexFunc(pm.Classes, func(c *QoSClass) bool { return c.Name == f[1] })
		if no {
			if i >= 0 {
				pm.Classes = slices.Delete(pm.Classes, i, i+1)
			}
			continue
		}
		if i < 0 {
			pm.Classes = append(pm.Classes, &QoSClass{Name: f[1]})
			i = len(pm.Classes) - 1
		}
		cl := pm.Classes[i]
		err := clitext.EachLine(n.Children, func(f []string) error {
			switch {
			case len(f) == 3 && f[0] == "set" && f[1] == "qos-group":
				return clitext.SetNumber(&cl.QoSGroup, f[2], 0, 7)
			case len(f) >= 3 && f[0] == "no" && f[1] == "set" && f[2] == "qos-group":
				cl.QoSGroup = nil
			}
			return nil
		})
		if err != nil {
			return wrapLine(n, err)
		}
	}
	return nil
}

// apply reads a network-qos policy-map body: `class type network-qos c-8q-nq...` blocks with
// `pause pfc-cos LIST` and `mtu N`. Classes of other templates (c-nq1, 4q) are ignored.
func (pm *NetworkQoSPolicy) apply(body []*node) error {
	for _, n := range body {
		tc, no, ok := classLine(n.Line, "network-qos", nqPrefix)
		if !ok {
			continue
		}
		if no {
			delete(pm.Classes, tc)
			continue
		}
		cl := pm.Classes[tc]
		if cl == nil {
			cl = &NQClass{}
			pm.Classes[tc] = cl
		}
		if err := clitext.EachLine(n.Children, cl.line); err != nil {
			return wrapLine(n, err)
		}
	}
	return nil
}

func (cl *NQClass) line(f []string) error {
	switch {
	case len(f) >= 3 && f[0] == "pause" && f[1] == "pfc-cos":
		vs, err := parseValues(f[2:], "cos")
		if err != nil {
			return err
		}
		cl.PauseCOS = vs
	case len(f) >= 3 && f[0] == "no" && f[1] == "pause" && f[2] == "pfc-cos":
		cl.PauseCOS = nil
	case len(f) == 2 && f[0] == "mtu":
		return clitext.SetNumber(&cl.MTU, f[1], 576, 9216)
	case len(f) >= 2 && f[0] == "no" && f[1] == "mtu":
		cl.MTU = nil
	}
	return nil
}

// apply reads a queuing policy-map body: `class type queuing c-out-8q-q...|c-in-q...` blocks.
func (pm *QueuingPolicy) apply(body []*node) error {
	for _, n := range body {
		classes := pm.Out
		tc, no, ok := classLine(n.Line, "queuing", outPrefix)
		if !ok {
			classes = pm.In
			if tc, no, ok = classLine(n.Line, "queuing", inPrefix); !ok {
				continue
			}
		}
		if no {
			delete(classes, tc)
			continue
		}
		cl := classes[tc]
		if cl == nil {
			cl = &QueueClass{}
			classes[tc] = cl
		}
		if err := clitext.EachLine(n.Children, cl.line); err != nil {
			return wrapLine(n, err)
		}
	}
	return nil
}

func (q *QueueClass) line(f []string) error {
	no := len(f) > 0 && f[0] == "no"
	if no {
		f = f[1:]
	}
	var err error
	switch {
	case len(f) >= 3 && f[0] == "bandwidth" && f[1] == "remaining" && f[2] == "percent":
		q.BandwidthRemaining, err = optNumber(f[3:], no, 0, 100)
	case len(f) >= 2 && f[0] == "bandwidth" && f[1] == "percent":
		q.BandwidthPercent, err = optNumber(f[2:], no, 0, 100)
	case len(f) >= 1 && f[0] == "priority" && (no || len(f) >= 2 && f[1] == "level"):
		q.PriorityLevel = nil
		if !no {
			q.PriorityLevel, err = optNumber(f[2:], false, 1, maxPriorityLevel)
		}
	case len(f) >= 1 && f[0] == "random-detect":
		q.WRED = nil
		if !no {
			q.WRED, err = parseWRED(f[1:])
		}
	case len(f) >= 2 && f[0] == "pause" && f[1] == "buffer-size":
		q.Pause = nil
		if !no {
			q.Pause, err = parsePause(f[1:])
		}
	}
	return err
}

// optNumber reads the one number of a line; a `no` form clears it.
func optNumber(f []string, no bool, lo, hi int) (*int, error) {
	if no {
		return nil, nil
	}
	if len(f) != 1 {
		return nil, errExpectNumber
	}
	v, err := clitext.Number(f[0], lo, hi)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// System classes: traffic class N is <prefix>N, traffic class 0 is <prefix>-default.
const (
	nqPrefix  = "c-8q-nq"
	outPrefix = "c-out-8q-q"
	inPrefix  = "c-in-q"
)

// sysClass names the system class of traffic class tc.
func sysClass(prefix string, tc int) string {
	if tc == 0 {
		return prefix + "-default"
	}
	return prefix + string(rune('0'+tc))
}

// classLine reads `[no] class type KIND <prefix>N|<prefix>-default`.
func classLine(line, kind, prefix string) (tc int, no, ok bool) {
	f := strings.Fields(line)
	if no = len(f) > 0 && f[0] == "no"; no {
		f = f[1:]
	}
	if len(f) != 4 || f[0] != "class" || f[1] != "type" || f[2] != kind {
		return 0, false, false
	}
	for tc := range 8 {
		if f[3] == sysClass(prefix, tc) {
			return tc, no, true
		}
	}
	return 0, false, false
}

func wrapLine(n *node, err error) error { return fmt.Errorf("%q: %w", n.Line, err) }
