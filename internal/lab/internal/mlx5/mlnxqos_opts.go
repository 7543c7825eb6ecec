package mlx5

// Command-line parsing of mlnx_qos as Python's optparse does it (long
// options by unique prefix, "--opt=value", clustered short options,
// interspersed operands) and the bits of Python whose messages mlnx_qos
// prints: int() and repr().

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unicode"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/py"
)

type qosOpt struct {
	short, long string
	dest        string
	value       bool // takes an argument
	metavar     string
	help        string
}

// qosOptions is mlnx_qos' parser in definition order (--version and
// --help are optparse's own). The help texts are the lab's summaries.
var qosOptions = []qosOpt{
	{"", "--version", "version", false, "", "show program's version number and exit"},
	{"-h", "--help", "help", false, "", "show this help message and exit"},
	{"-f", "--pfc", "pfc", true, "LIST", "Set PFC on each priority 0..7, e.g. 0,0,0,1,0,0,0,0."},
	{"-F", "--specific_pfc", "specific_pfc", true, "LIST", "Set PFC on some priorities; x keeps one as it is."},
	{"-P", "--get_pfc", "get_pfc", true, "GET_PFC", "Print the PFC state of one priority."},
	{"-p", "--prio_tc", "prio_tc", true, "LIST", "Map the 8 priorities to traffic classes."},
	{"-s", "--tsa", "tsa", true, "LIST", "Transmission algorithm of each TC: strict, ets or vendor."},
	{"-t", "--tcbw", "tc_bw", true, "LIST", "Minimal bandwidth percent of each ETS TC; 0 for the others; sum 100."},
	{"-r", "--ratelimit", "ratelimit", true, "LIST", "Rate limit of each TC in Gbps."},
	{"-d", "--dcbx", "dcbx", true, "DCBX", "DCBX mode: fw (firmware controlled) or os (OS controlled)."},
	{"", "--trust", "trust", true, "TRUST", "Priority trust state: pcp or dscp."},
	{"", "--dscp2prio", "dscp2prio", true, "DSCP2PRIO", "set,DSCP,PRIO or del,DSCP,PRIO (repeatable), or flush."},
	{"", "--cable_len", "cable_len", true, "CABLE_LEN", "Cable length for the buffers' xoff and xon thresholds."},
	{"", "--prio2buffer", "prio2buffer", true, "LIST", "Map the 8 priorities to receive buffers."},
	{"", "--buffer_size", "buffer_size", true, "LIST", "Size of each of the 8 receive buffers in bytes."},
	{"-i", "--interface", "intf", true, "INTF", "Interface name"},
	{"-a", "", "printall", false, "", "Show all interface's TCs"},
}

const qosUsage = "Usage: mlnx_qos -i <interface> [options]\n"

// qosArgs is optparse's (options, args). A store option's value is nil
// when absent; Python tests most of them for truth, so "" counts as absent
// there (see truthy).
type qosArgs struct {
	vals      map[string]*string
	dscp2prio []string
	printall  bool
	help      bool
	version   bool
	operands  []string
}

func (a *qosArgs) truthy(dest string) bool { return a.vals[dest] != nil && *a.vals[dest] != "" }
func (a *qosArgs) get(dest string) string {
	if v := a.vals[dest]; v != nil {
		return *v
	}
	return ""
}

// parseQosArgs returns optparse's error message, if any (printed after the
// usage on stderr, exit status 2). --help and --version stop parsing where
// they appear, as their optparse actions exit at once.
func parseQosArgs(argv []string) (*qosArgs, string) {
	a := &qosArgs{vals: map[string]*string{}}
	store := func(o qosOpt, v string) {
		switch o.dest {
		case "dscp2prio":
			a.dscp2prio = append(a.dscp2prio, v)
		case "printall":
			a.printall = true
		case "help":
			a.help = true
		case "version":
			a.version = true
		default:
			a.vals[o.dest] = &v
		}
	}
	for len(argv) > 0 && !a.help && !a.version {
		arg := argv[0]
		argv = argv[1:]
		switch {
		case arg == "--":
			a.operands = append(a.operands, argv...)
			return a, ""
		case strings.HasPrefix(arg, "--"):
			name, value, explicit := strings.Cut(arg, "=")
			o, msg := matchLong(name)
			if msg != "" {
				return nil, msg
			}
			switch {
			case o.value && explicit:
				store(o, value)
			case o.value && len(argv) == 0:
				return nil, fmt.Sprintf("%s option requires 1 argument", o.long)
			case o.value:
				store(o, argv[0])
				argv = argv[1:]
			case explicit:
				return nil, fmt.Sprintf("%s option does not take a value", o.long)
			default:
				store(o, "")
			}
		case len(arg) > 1 && arg[0] == '-':
		shorts:
			for i := 1; i < len(arg); i++ {
				idx := slices.IndexFunc(qosOptions, func(o qosOpt) bool { return o.short == "-"+string(arg[i]) })
				if idx < 0 {
					return nil, "no such option: -" + string(arg[i])
				}
				o := qosOptions[idx]
				if !o.value {
					store(o, "")
					continue
				}
				switch {
				case i+1 < len(arg):
					store(o, arg[i+1:])
				case len(argv) == 0:
					return nil, fmt.Sprintf("%s option requires 1 argument", o.short)
				default:
					store(o, argv[0])
					argv = argv[1:]
				}
				break shorts
			}
		default:
			a.operands = append(a.operands, arg)
		}
	}
	return a, ""
}

func matchLong(name string) (qosOpt, string) {
	var hits []string
	for _, o := range qosOptions {
		if o.long == name {
			return o, ""
		}
		if o.long != "" && strings.HasPrefix(o.long, name) {
			hits = append(hits, o.long)
		}
	}
	switch len(hits) {
	case 0:
		return qosOpt{}, "no such option: " + name
	case 1:
		o, _ := matchLong(hits[0])
		return o, ""
	}
	slices.Sort(hits)
	return qosOpt{}, fmt.Sprintf("ambiguous option: %s (%s?)", name, strings.Join(hits, ", "))
}

// qosHelp is optparse's format_help layout (options column of 24, text
// wrapped at 78) over the lab's summaries.
func qosHelp() string {
	var b strings.Builder
	b.WriteString(qosUsage + "\nOptions:\n")
	for _, o := range qosOptions {
		var names []string
		if o.short != "" {
			names = append(names, o.short+map[bool]string{true: " " + o.metavar}[o.value])
		}
		if o.long != "" {
			names = append(names, o.long+map[bool]string{true: "=" + o.metavar}[o.value])
		}
		head := "  " + strings.Join(names, ", ")
		lines := wrapWords(o.help, 54)
		if len(head) > 22 {
			b.WriteString(head + "\n")
		} else if len(lines) > 0 {
			fmt.Fprintf(&b, "%-24s%s\n", head, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			b.WriteString(strings.Repeat(" ", 24) + l + "\n")
		}
	}
	return b.String()
}

func wrapWords(s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		if cur != "" && len(cur)+1+len(w) > width {
			lines = append(lines, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// pyInt is Python 3's int(s): surrounding white space, a sign, digits with
// single underscores between them. The error is ValueError's message.
func pyInt(s string) (*big.Int, string) {
	bad := "invalid literal for int() with base 10: " + py.Repr(s)
	t := strings.TrimFunc(s, unicode.IsSpace)
	sign := ""
	if t != "" && (t[0] == '+' || t[0] == '-') {
		sign, t = t[:1], t[1:]
	}
	if t == "" || t[0] == '_' || t[len(t)-1] == '_' || strings.Contains(t, "__") {
		return nil, bad
	}
	digits := strings.ReplaceAll(t, "_", "")
	if strings.Trim(digits, "0123456789") != "" {
		return nil, bad
	}
	v, ok := new(big.Int).SetString(sign+digits, 10)
	if !ok {
		return nil, bad
	}
	return v, ""
}
