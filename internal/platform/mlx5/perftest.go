package mlx5

import (
	"strconv"
	"strings"
)

// The shell side of roce_perftest on a host (DESIGN.md, "roce_perftest"): perftest's server
// runs in the background with its output in a log file and its PID printed, the client in the
// foreground; cleanup kills the server and removes the log whatever happened. Arguments are
// quoted one by one (perftest's builder has checked them); nothing runs under sudo: perftest
// needs only the RDMA device, which every user may open.

// PerftestLog is the server's log file for a run: port and a random token the driver made
// (lower-case hex), so two runs never share one.
func PerftestLog(port int, token string) string {
	return "/tmp/roce-perftest-" + strconv.Itoa(port) + "-" + token + ".log"
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shQuote(a)
	}
	return strings.Join(q, " ")
}

// PerftestServerScript starts args in the background with stdout and stderr in log, and prints
// its PID ($!).
func PerftestServerScript(args []string, log string) string {
	return shWrap(quoteArgs(args)+" >"+shQuote(log)+" 2>&1 &\necho $!", false)
}

// PerftestClientScript runs args in the foreground.
func PerftestClientScript(args []string) string { return shWrap(quoteArgs(args), false) }

// PerftestAliveScript exits 0 while process pid runs.
func PerftestAliveScript(pid int) string {
	return shWrap("kill -0 "+strconv.Itoa(pid)+" 2>/dev/null", false)
}

// PerftestCleanupScript prints the server's log, kills it if it still runs and removes the log;
// pid 0 (unknown) kills nothing (kill 0 would signal the script's own process group).
func PerftestCleanupScript(pid int, log string) string {
	kill := ""
	if pid > 0 {
		kill = "kill " + strconv.Itoa(pid) + " 2>/dev/null\n"
	}
	return shWrap("cat "+shQuote(log)+" 2>/dev/null\n"+kill+"rm -f "+shQuote(log)+"\ntrue", false)
}

// RDMADeviceScript lists the RDMA devices of netdev ifname (one, mlx5_N, for a ConnectX port).
func RDMADeviceScript(ifname string) string {
	return shWrap("ls "+shQuote(netPath(ifname, "/device/infiniband")), false)
}
