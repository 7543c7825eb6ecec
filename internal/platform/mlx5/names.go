package mlx5

import (
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// ValidNetdev reports whether name is a netdev name the scripts accept: the pattern
// ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$ of fabric.ValidNetdevName (no shell metacharacter).
func ValidNetdev(name string) bool { return fabric.ValidNetdevName(name) }

// The paths below are the host's own. The functions that build the commands run on a host take
// a root that prefixes every path they name: "" for a host (what the exported functions pass);
// tests pass a temporary tree, to run the scripts through a real /bin/sh.

func netPath(ifname, rest string) string { return "/sys/class/net/" + ifname + rest }

func ecnPath(ifname, point string, prio int) string {
	return netPath(ifname, "/ecn/"+point+"/enable/"+itoa(prio))
}

func ccDir(pci string) string { return "/sys/kernel/debug/mlx5/" + pci + "/cc_params" }

// tosPath is the MLNX_OFED traffic_class of port 1 of the netdev's RDMA device, reached through
// the netdev (the same file as /sys/class/infiniband/<dev>/tc/1/traffic_class).
func tosPath(ifname, rdmaDev string) string {
	return netPath(ifname, "/device/infiniband/"+rdmaDev+"/tc/1/traffic_class")
}

// The two congestion points of the ecn tree.
const (
	pointRP = "roce_rp"
	pointNP = "roce_np"
)

// ccFile maps the contract's DCQCN attribute names to debugfs cc_params file names.
var ccFile = map[string]string{
	"time_reset_us":                    "rp_time_reset",
	"byte_reset":                       "rp_byte_reset",
	"threshold":                        "rp_threshold",
	"ai_rate_mbps":                     "rp_ai_rate",
	"hai_rate_mbps":                    "rp_hai_rate",
	"min_rate_mbps":                    "rp_min_rate",
	"max_rate_mbps":                    "rp_max_rate",
	"dce_tcp_g":                        "rp_dce_tcp_g",
	"dce_tcp_rtt_us":                   "rp_dce_tcp_rtt",
	"initial_alpha":                    "rp_initial_alpha_value",
	"rate_reduce_monitor_period_us":    "rp_rate_reduce_monitor_period",
	"min_dec_factor_percent":           "rp_min_dec_fac",
	"gd":                               "rp_gd",
	"rate_to_set_on_first_cnp_mbps":    "rp_rate_to_set_on_first_cnp",
	"clamp_target_rate":                "rp_clamp_tgt_rate",
	"clamp_target_rate_after_time_inc": "rp_clamp_tgt_rate_ati",
	"min_time_between_cnps_us":         "np_min_time_between_cnps",
}

// cc_params files behind the required attributes cnp_dscp and cnp_priority.
const (
	ccCNPDSCP     = "np_cnp_dscp"
	ccCNPPrio     = "np_cnp_prio"
	ccCNPPrioMode = "np_cnp_prio_mode" // reset to 0 by the kernel whenever np_cnp_prio is written
)

// ccOrder is the order cc_params files are written in: the driver's creation order, except
// that np_cnp_prio_mode follows np_cnp_prio, since writing np_cnp_prio resets the mode.
var ccOrder = []string{
	"rp_clamp_tgt_rate", "rp_clamp_tgt_rate_ati", "rp_time_reset", "rp_byte_reset", "rp_threshold",
	"rp_ai_rate", "rp_max_rate", "rp_hai_rate", "rp_min_dec_fac", "rp_min_rate",
	"rp_rate_to_set_on_first_cnp", "rp_dce_tcp_g", "rp_dce_tcp_rtt", "rp_rate_reduce_monitor_period",
	"rp_initial_alpha_value", "rp_gd", "np_min_time_between_cnps", ccCNPDSCP, ccCNPPrio, ccCNPPrioMode,
}

// ccFilesFor lists the cc_params files d manages, in write order (nil d: none).
func ccFilesFor(d *fabric.DCQCN) []string {
	if d == nil {
		return nil
	}
	want := map[string]bool{ccCNPDSCP: true, ccCNPPrio: true}
	for _, m := range []map[string]int64{d.ReactionPoint, d.NotificationPoint} {
		for name := range m {
			if f, ok := ccFile[name]; ok {
				want[f] = true
			}
		}
	}
	var out []string
	for _, f := range ccOrder {
		if want[f] {
			out = append(out, f)
		}
	}
	return out
}

// shQuote quotes s for a POSIX shell: unchanged when it holds only characters no shell treats
// specially, else in single quotes, each embedded single quote closing the quoted part,
// adding a backslash-escaped quote and opening a new quoted part.
func shQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !safeRune(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func safeRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:,=+@%", r)
}

// shWrap runs script with sh -c, through sudo -n when sudo is set. sh -c gives the script POSIX
// semantics whatever the login shell of the SSH user is.
func shWrap(script string, sudo bool) string {
	cmd := "sh -c " + "'" + strings.ReplaceAll(script, "'", `'\''`) + "'"
	if sudo {
		return "sudo -n " + cmd
	}
	return cmd
}

func itoa(v int) string { return strconv.Itoa(v) }
