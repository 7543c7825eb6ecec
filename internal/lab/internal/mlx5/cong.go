package mlx5

// DCQCN congestion-control parameters of one port and the kernel parsers
// the files that expose them use. The same firmware state is reachable two
// ways, as on a real host: the MLNX_OFED sysfs tree /sys/class/net/IF/ecn
// (en_ecn.c: sscanf("%d"), sprintf("%d\n")) and debugfs
// /sys/kernel/debug/mlx5/PCI/cc_params (cong.c: kstrtou32_from_user base 0,
// "%u\n"). Values are masked to the firmware field width (MLX5_SET).

import (
	"fmt"
	"math"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

type ccParam struct {
	name    string // debugfs cc_params file
	ecnDir  string // roce_rp | roce_np | "" (debugfs only)
	ecnName string
	bits    uint // field width in cong_control_r_roce_ecn_{rp,np}
	def     uint32
}

// ccParams in debugfs creation order (mlx5_ib_dbg_cc_name[]). Defaults are
// the firmware defaults of a real `mlxconfig -d DEV q` capture
// (CLAMP_TGT_RATE_AFTER_TIME_INC True, RPG_TIME_RESET 300, ... CNP_DSCP 48,
// CNP_802P_PRIO 6, MIN_TIME_BETWEEN_CNPS 0). np_cnp_prio_mode is not an
// mlxconfig field: the lab uses 1 because cong.c forces it to 0 whenever
// np_cnp_prio is written, which only matters if it is not 0 to begin with.
var ccParams = []ccParam{
	{"rp_clamp_tgt_rate", "roce_rp", "clamp_tgt_rate", 1, 0},
	{"rp_clamp_tgt_rate_ati", "roce_rp", "clamp_tgt_rate_after_time_inc", 1, 1},
	{"rp_time_reset", "roce_rp", "rpg_time_reset", 32, 300},
	{"rp_byte_reset", "roce_rp", "rpg_byte_reset", 32, 32767},
	{"rp_threshold", "roce_rp", "rpg_threshold", 32, 1},
	{"rp_ai_rate", "roce_rp", "rpg_ai_rate", 32, 5},
	{"rp_max_rate", "roce_rp", "rpg_max_rate", 32, 0},
	{"rp_hai_rate", "roce_rp", "rpg_hai_rate", 32, 50},
	{"rp_min_dec_fac", "roce_rp", "rpg_min_dec_fac", 32, 50},
	{"rp_min_rate", "roce_rp", "rpg_min_rate", 32, 1},
	{"rp_rate_to_set_on_first_cnp", "roce_rp", "rate_to_set_on_first_cnp", 32, 0},
	{"rp_dce_tcp_g", "roce_rp", "dce_tcp_g", 32, 1019},
	{"rp_dce_tcp_rtt", "roce_rp", "dce_tcp_rtt", 32, 1},
	{"rp_rate_reduce_monitor_period", "roce_rp", "rate_reduce_monitor_period", 32, 4},
	{"rp_initial_alpha_value", "roce_rp", "initial_alpha_value", 32, 1023},
	{"rp_gd", "roce_rp", "rpg_gd", 32, 11},
	{"np_min_time_between_cnps", "roce_np", "min_time_between_cnps", 32, 0},
	{"np_cnp_dscp", "roce_np", "cnp_dscp", 6, 48},
	{"np_cnp_prio_mode", "", "", 1, 1},
	{"np_cnp_prio", "roce_np", "cnp_802p_prio", 3, 6},
}

type cong struct {
	vals   []uint32 // indexed like ccParams
	enable map[string]*[8]uint32
}

// reset restores the firmware defaults; ROCE_CC_PRIO_MASK 255 enables
// both roce_rp and roce_np on every priority.
func (c *cong) reset() {
	c.vals = make([]uint32, len(ccParams))
	for i, p := range ccParams {
		c.vals[i] = p.def
	}
	c.enable = map[string]*[8]uint32{"roce_rp": {1, 1, 1, 1, 1, 1, 1, 1}, "roce_np": {1, 1, 1, 1, 1, 1, 1, 1}}
}

func (c *cong) set(i int, v uint32) {
	if b := ccParams[i].bits; b < 32 {
		v &= 1<<b - 1
	}
	c.vals[i] = v
}

// ccIndex returns the index of a cc_params file, or -1 when there is none of that name.
func ccIndex(name string) int {
	for i, p := range ccParams {
		if p.name == name {
			return i
		}
	}
	return -1
}

// cScanfInt is sscanf(buf, "%d", &v) on a C int: leading white space, an
// optional sign, decimal digits, the rest ignored; strtol saturates and the
// long is truncated to int. ok is false when no digit matched (the driver
// then passes an uninitialised value to firmware; the lab refuses it with
// EINVAL instead of inventing one).
func cScanfInt(s string) (int32, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var v uint64
	digits, sat := 0, false
	for ; digits < len(s) && s[digits] >= '0' && s[digits] <= '9'; digits++ {
		if v > (math.MaxInt64-9)/10 {
			sat = true
		}
		v = v*10 + uint64(s[digits]-'0')
	}
	if digits == 0 {
		return 0, false
	}
	var l int64
	switch {
	case sat && neg:
		l = math.MinInt64
	case sat:
		l = math.MaxInt64
	case neg:
		l = -int64(v)
	default:
		l = int64(v)
	}
	return int32(l), true //nolint:gosec // C's long to int truncation, on purpose
}

// kstrtoull is the kernel's _kstrtoull with base 0: "0x" hex, leading 0
// octal, decimal; one trailing newline; nothing else.
func kstrtoull(s string) (uint64, error) {
	s = strings.TrimPrefix(s, "+")
	base := uint64(10)
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isHex(s[2]):
		base, s = 16, s[2:]
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	var v uint64
	n, overflow := 0, false
	for ; n < len(s); n++ {
		d := digitValue(s[n])
		if d >= base {
			break
		}
		if v > (math.MaxUint64-d)/base {
			overflow = true
		}
		v = v*base + d
	}
	rest := strings.TrimPrefix(s[n:], "\n")
	switch {
	case overflow:
		return 0, sh.ERANGE
	case n == 0, rest != "":
		return 0, sh.EINVAL
	}
	return v, nil
}

func isHex(c byte) bool { return digitValue(c) < 16 }

func digitValue(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

func kstrtouN(s string, bits uint) (uint64, error) {
	v, err := kstrtoull(s)
	if err != nil {
		return 0, err
	}
	if v > 1<<bits-1 {
		return 0, sh.ERANGE
	}
	return v, nil
}

// kstrtoint is kstrtoint(s, 0, &v).
func kstrtoint(s string) (int64, error) {
	if strings.HasPrefix(s, "-") {
		v, err := kstrtoull(s[1:])
		if err != nil {
			return 0, err
		}
		if v > 1<<31 {
			return 0, sh.ERANGE
		}
		return -int64(v), nil //nolint:gosec // bounded above
	}
	v, err := kstrtouN(s, 31)
	return int64(v), err //nolint:gosec // bounded by kstrtouN
}

// ecnFile is /sys/class/net/IF/ecn/PROTO/NAME (mode 0644 on a PF).
func (h *Host) ecnFile(p *nicPort, i int) *sh.Node {
	return &sh.Node{Mode: 0o644,
		Read: func() string { return fmt.Sprintf("%d\n", int32(p.cong.vals[i])) }, //nolint:gosec // "%d" of a u32, as the driver prints it
		Write: func(data string) error {
			v, ok := cScanfInt(data)
			if !ok {
				return sh.EINVAL
			}
			p.cong.set(i, uint32(v)) //nolint:gosec // two's complement, as MLX5_SET stores it
			return nil
		}}
}

// ecnEnable is .../ecn/PROTO/enable/PRIO: a 1-bit firmware field.
func (h *Host) ecnEnable(p *nicPort, proto string, prio int) *sh.Node {
	return &sh.Node{Mode: 0o644,
		Read: func() string { return fmt.Sprintf("%d\n", p.cong.enable[proto][prio]) },
		Write: func(data string) error {
			v, ok := cScanfInt(data)
			if !ok {
				return sh.EINVAL
			}
			p.cong.enable[proto][prio] = uint32(v) & 1 //nolint:gosec // masked
			return nil
		}}
}

// ccFile is debugfs cc_params/NAME (mode 0600).
func (h *Host) ccFile(p *nicPort, i int) *sh.Node {
	return &sh.Node{Mode: 0o600,
		Read: func() string { return fmt.Sprintf("%d\n", p.cong.vals[i]) },
		Write: func(data string) error {
			v, err := kstrtouN(data, 32)
			if err != nil {
				return err
			}
			// The kernel resets the priority mode whenever the CNP priority is written.
			if mode := ccIndex("np_cnp_prio_mode"); ccParams[i].name == "np_cnp_prio" && mode >= 0 {
				p.cong.set(mode, 0)
			}
			p.cong.set(i, uint32(v))
			return nil
		}}
}

// trafficClassFile is MLNX_OFED's /sys/class/infiniband/DEV/tc/1/traffic_class
// (mlx5_ib main_ext.c): empty until set, then "Global tclass=N". Writes are
// comma-separated tokens; a bare number or "tclass=N" (0..255, or negative
// to clear) sets the global class. The per-destination rules (dst_ip=...)
// are outside the lab: they fail with EINVAL.
func (h *Host) trafficClassFile(p *nicPort) *sh.Node {
	const maxCmd = 100
	return &sh.Node{Mode: 0o644,
		Read: func() string {
			if p.trafficClass < 0 {
				return ""
			}
			return fmt.Sprintf("Global tclass=%d\n", p.trafficClass)
		},
		Write: func(data string) error {
			if len(data) > maxCmd {
				return sh.EINVAL
			}
			val, seen := 0, false
			for _, tok := range strings.Split(data, ",") {
				if tok == "" {
					continue
				}
				tok = strings.TrimSpace(tok)
				if tok == "" {
					return sh.EINVAL
				}
				for _, ip := range []string{"src_ip=", "dst_ip=", "src_ip6=", "dst_ip6="} {
					if len(tok) > len(ip) && strings.HasPrefix(tok, ip) {
						return sh.EINVAL
					}
				}
				if len(tok) > len("tclass=") && strings.HasPrefix(tok, "tclass=") {
					tok = tok[len("tclass="):]
				}
				v, err := kstrtoint(tok)
				if err != nil || v > 0xff {
					return sh.EINVAL
				}
				val, seen = int(v), true
			}
			if !seen {
				return sh.EINVAL
			}
			p.trafficClass = val
			return nil
		}}
}
