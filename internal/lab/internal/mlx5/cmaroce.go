package mlx5

// cma_roce_tos of mlnx-tools (sbin/cma_roce_tos, a bash script; mlx5-host.md
// "cma_roce_tos" cites its lines and the texts of bash, mkdir and the kernel): it sets and
// prints the rdma_cm default ToS of one port through configfs
// (/sys/kernel/config/rdma_cm/DEV/ports/PORT/default_roce_tos, kstrtou8
// base 0 on write, "%u\n" on read). That value only seeds the ToS of
// RDMA-CM connections; it is independent of MLNX_OFED's
// /sys/class/infiniband/DEV/tc/1/traffic_class, which overrides the class
// of every QP (mlx5_ib main_ext.c), so the lab keeps the two apart: setting
// one never shows in the other, as on a real host.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

const cmaScript = "/usr/sbin/cma_roce_tos"

const cmaUsage = "Set/Show RoCE default ToS of RDMA_CM applications\n\n" +
	"Usage:\n\tcma_roce_tos OPTIONS\nOptions:\n" +
	"\t-h              show this help\n" +
	"\t-d <dev>        use IB device <dev> (default mlx5_0)\n" +
	"\t-p <port>       use port <port> of IB device (default 1)\n" +
	"\t-t <tos>        set ToS of RoCE RDMA_CM applications (0)\n"

func (h *Host) cmdCmaRoceTos(e *sh.Env, args []string) int {
	device, port, mode := "mlx5_0", "1", "-1"
	// bash getopts "d:t:hp:": unknown options and missing arguments are
	// reported and otherwise ignored.
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 'h':
				fmt.Fprint(e.Stdout, cmaUsage)
				return 0
			case 'd', 't', 'p':
				var v string
				switch {
				case j+1 < len(a):
					v = a[j+1:]
				case i+1 < len(args):
					i++
					v = args[i]
				default:
					fmt.Fprintf(e.Stderr, "%s: option requires an argument -- %c\n", cmaScript, c)
					j = len(a)
					continue
				}
				switch c {
				case 'd':
					device = v
				case 't':
					mode = v
				default:
					port = v
				}
				j = len(a)
			default:
				fmt.Fprintf(e.Stderr, "%s: illegal option -- %c\n", cmaScript, c)
			}
		}
	}
	if !e.Root {
		fmt.Fprintln(e.Stdout, "You must be root to run this")
		return 1
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.rdmaPort(device)
	if p == nil {
		fmt.Fprintf(e.Stderr, "mkdir: cannot create directory '%s': No such device\n", device)
		fmt.Fprintf(e.Stdout, "Failed to create configuration for %s\n", device)
		return 1
	}
	if port != "1" {
		fmt.Fprintf(e.Stdout, "Device %s port %s does not exist\n", device, port)
		return 1
	}
	// Line 109, `if [ $MODE -ge 0 ]; then`: $MODE unquoted, so split into words, then bash's
	// test builtin (an integer is strtoimax base 10, blanks around it allowed). Several words
	// are "too many arguments" (assumed for words test reads as operators, such as `!`).
	words := strings.Fields(mode)
	var n int64
	var err error
	if len(words) == 1 {
		n, err = strconv.ParseInt(words[0], 10, 64)
	}
	switch {
	case len(words) == 0:
		fmt.Fprintf(e.Stderr, "%s: line 109: [: -ge: unary operator expected\n", cmaScript)
	case len(words) > 1:
		fmt.Fprintf(e.Stderr, "%s: line 109: [: too many arguments\n", cmaScript)
	case err != nil:
		fmt.Fprintf(e.Stderr, "%s: line 109: [: %s: integer expression expected\n", cmaScript, words[0])
	case n >= 0:
		// Line 110, `echo $MODE > default_roce_tos`: bash's echo reports the store's error.
		v, err := kstrtouN(words[0]+"\n", 8)
		if err != nil {
			fmt.Fprintf(e.Stderr, "%s: line 110: echo: write error: %s\n", cmaScript, err)
		} else {
			p.roceTOS = uint8(v)
		}
	}
	fmt.Fprintf(e.Stdout, "%d\n", p.roceTOS)
	return 0
}
