package mlx5

// ethtool (ethtool.c of the ethtool package; Debian bookworm's ethtool 6.1 is the reference,
// mlx5-host.md "Traffic counters"), for the one operation a counter read uses:
// `ethtool -S IF` (--statistics), which needs no privilege (ETHTOOL_GSTATS is not a
// CAP_NET_ADMIN command). Every other option is refused the way ethtool refuses a command
// line it cannot parse; the lab does not emulate them.

import (
	"fmt"
	"io"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

const ethtoolBadArgs = "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n"

func (h *Host) cmdEthtool(e *sh.Env, args []string) int {
	args = args[1:]
	if len(args) > 0 && args[0] == "--debug" && len(args) > 1 {
		args = args[2:]
	}
	if len(args) != 2 || (args[0] != "-S" && args[0] != "--statistics") {
		// exit_bad_args(): an option the lab does not emulate, no device, or extra words
		// (do_gstats takes none after the device).
		fmt.Fprint(e.Stderr, ethtoolBadArgs)
		return 1
	}
	dev := args[1]
	if len(dev) >= 16 { // IFNAMSIZ
		// netlink/netlink.c netlink_run_handler: -S without --groups is an ioctl-only request,
		// and the ioctl fallback takes no longer name (ethtool 6.1; the older "Device name
		// longer than 15 characters" of ioctl_init is not reached any more).
		fmt.Fprintln(e.Stderr, "ioctl-only request, device name longer than 15 not supported")
		return 1
	}
	if p := h.port(dev); p != nil {
		_, _ = io.WriteString(e.Stdout, h.ethtoolStats(p))
		return 0
	}
	if dev == "lo" {
		// The loopback device has no driver statistics: the string set is empty.
		fmt.Fprintln(e.Stderr, "no stats available")
		return 94
	}
	// ETHTOOL_GSSET_INFO on a missing netdev: perror() of ENODEV.
	fmt.Fprintf(e.Stderr, "Cannot get stats strings information: %s\n", sh.ENODEV)
	return 96
}
