package mlx5

import (
	"strings"
	"testing"
)

const (
	ccDir  = "/sys/kernel/debug/mlx5/0000:08:00.0/cc_params"
	npDir  = "/sys/class/net/eth0/ecn/roce_np"
	tcFile = "/sys/class/infiniband/mlx5_0/tc/1/traffic_class"
)

// The login user is not root: sysfs reads work, writes and all of debugfs
// need sudo, with the kernel's and the tools' words.
func TestHostPermissions(t *testing.T) {
	e := newHostEnv(t)
	e.Expect("cat "+npDir+"/cnp_dscp", "48\n", "", 0)
	e.Expect("echo 26 > "+npDir+"/cnp_dscp", "", "sh: 1: cannot create "+npDir+"/cnp_dscp: Permission denied\n", 2)
	e.Expect("cat "+ccDir+"/np_cnp_dscp", "", "cat: "+ccDir+"/np_cnp_dscp: Permission denied\n", 1)
	e.Expect("echo 26 > "+ccDir+"/np_cnp_dscp", "", "sh: 1: cannot create "+ccDir+"/np_cnp_dscp: Permission denied\n", 2)
	e.Expect("ls /sys/kernel/debug", "", "ls: cannot open directory '/sys/kernel/debug': Permission denied\n", 2)
	e.Expect("echo 1 | tee "+npDir+"/enable/3", "1\n", "tee: "+npDir+"/enable/3: Permission denied\n", 1)
	e.Expect("echo 106 > "+tcFile, "", "sh: 1: cannot create "+tcFile+": Permission denied\n", 2)
	e.Expect("cma_roce_tos -d mlx5_0 -t 106", "You must be root to run this\n", "", 1)

	// The same through sudo, read back through the other view of the
	// same firmware state.
	e.Expect("sudo -n sh -c 'echo 26 > "+npDir+"/cnp_dscp'", "", "", 0)
	e.Expect("sudo -n cat "+ccDir+"/np_cnp_dscp", "26\n", "", 0)
	e.Expect("echo 1 | sudo -n tee "+npDir+"/enable/3 > /dev/null", "", "", 0)
	e.Expect("echo 0 | sudo -n tee /sys/class/net/eth0/ecn/roce_rp/enable/5", "0\n", "", 0)
	e.Expect("cat /sys/class/net/eth0/ecn/roce_rp/enable/5 /sys/class/net/eth1/ecn/roce_rp/enable/5", "0\n1\n", "", 0)
	e.Expect("sudo -n sh -c 'echo 0x30 > "+ccDir+"/np_cnp_dscp; echo 3 > "+ccDir+"/np_cnp_prio'; cat "+npDir+"/cnp_dscp "+npDir+"/cnp_802p_prio",
		"48\n3\n", "", 0)
	e.Expect("sudo -n cat "+ccDir+"/np_cnp_prio_mode", "0\n", "", 0) // writing np_cnp_prio forces mode 0

	// Kernel parsing: the sysfs store takes sscanf %d and masks to the
	// field; debugfs takes kstrtou32 and refuses the rest.
	e.Expect("sudo -n sh -c 'echo 65 > "+npDir+"/cnp_dscp; echo \"  7 apples\" > "+npDir+"/cnp_802p_prio'; cat "+npDir+"/cnp_dscp "+npDir+"/cnp_802p_prio",
		"1\n7\n", "", 0)
	e.Expect("sudo -n sh -c 'echo abc > "+ccDir+"/rp_gd'", "", "sh: 1: echo: echo: I/O error\n", 1)
	e.Expect("sudo -n sh -c 'echo -5 > "+ccDir+"/rp_gd'", "", "sh: 1: echo: echo: I/O error\n", 1)
	e.Expect("echo 99999999999 | sudo -n tee "+ccDir+"/rp_gd", "99999999999\n", "tee: "+ccDir+"/rp_gd: Numerical result out of range\n", 1)
	e.Expect("echo x | sudo -n tee "+npDir+"/enable/2", "x\n", "tee: "+npDir+"/enable/2: Invalid argument\n", 1)
	e.Expect("sudo -n cat "+ccDir+"/rp_gd", "11\n", "", 0)

	// Files the kernel does not let anyone create, and the uevent store.
	e.Expect("sudo -n sh -c 'echo 1 > /sys/class/net/eth0/ecn/roce_np/nope'", "", "sh: 1: cannot create /sys/class/net/eth0/ecn/roce_np/nope: Permission denied\n", 2)
	e.Expect("sudo -n sh -c 'echo 1 > /nonexistent/file'", "", "sh: 1: cannot create /nonexistent/file: Directory nonexistent\n", 2)
	e.Expect("sudo -n sh -c 'echo 1 > /sys/class/net/eth0'", "", "sh: 1: cannot create /sys/class/net/eth0: Is a directory\n", 2)
	e.Expect("sudo -n sh -c 'echo change > /sys/class/net/eth0/device/uevent'", "", "", 0)

	// The global traffic class (MLNX_OFED): empty until set.
	e.Expect("cat "+tcFile, "", "", 0)
	e.Expect("sudo -n sh -c 'echo 106 > "+tcFile+"' && cat "+tcFile, "Global tclass=106\n", "", 0)
	e.Expect("sudo -n sh -c 'echo tclass=96 > "+tcFile+"' && cat "+tcFile, "Global tclass=96\n", "", 0)
	e.Expect("sudo -n sh -c 'echo 256 > "+tcFile+"'", "", "sh: 1: echo: echo: I/O error\n", 1)
	e.Expect("sudo -n sh -c 'echo -1 > "+tcFile+"' && cat "+tcFile, "", "", 0)

	// cma_roce_tos sets the RDMA-CM default, not the global class.
	e.Expect("sudo -n cma_roce_tos -d mlx5_1 -t 106", "106\n", "", 0)
	e.Expect("sudo -n cma_roce_tos -d mlx5_1; sudo -n cma_roce_tos; cat /sys/class/infiniband/mlx5_1/tc/1/traffic_class", "106\n0\n", "", 0)
	e.Expect("sudo -n cma_roce_tos -d mlx5_1 -t 300", "106\n", "/usr/sbin/cma_roce_tos: line 110: echo: write error: Numerical result out of range\n", 0)
	e.Expect("sudo -n cma_roce_tos -d mlx5_9 -t 106", "Failed to create configuration for mlx5_9\n", "mkdir: cannot create directory 'mlx5_9': No such device\n", 1)
	e.Expect("sudo -n cma_roce_tos -p 2", "Device mlx5_0 port 2 does not exist\n", "", 1)
}

// cma_roce_tos's own texts: mlnx-tools 8fbfd9c sbin/cma_roce_tos run by Debian's bash 5.2.15
// (getopts as a user, who stops at the root check; lines 109 and 110 in a copy whose lines 63-107
// were emptied, and a write to /dev/full for the format of echo's write error).
func TestCmaRoceTosTexts(t *testing.T) {
	h := startHost(t, "")
	const s = "/usr/sbin/cma_roce_tos"
	expectRuns(t, h, []hostCase{
		{"cma_roce_tos -x", "You must be root to run this\n", s + ": illegal option -- x\n", 1},
		{"cma_roce_tos -dmlx5_1 -q -t", "You must be root to run this\n", s + ": illegal option -- q\n" + s + ": option requires an argument -- t\n", 1},
		{"cma_roce_tos -h", cmaUsage, "", 0},
		{"sudo -n cma_roce_tos -t ''", "0\n", s + ": line 109: [: -ge: unary operator expected\n", 0},
		{"sudo -n cma_roce_tos -t abc", "0\n", s + ": line 109: [: abc: integer expression expected\n", 0},
		{"sudo -n cma_roce_tos -t 0x10", "0\n", s + ": line 109: [: 0x10: integer expression expected\n", 0},
		{"sudo -n cma_roce_tos -t '1 2'", "0\n", s + ": line 109: [: too many arguments\n", 0},
		{"sudo -n cma_roce_tos -t -5", "0\n", "", 0},
		{"sudo -n cma_roce_tos -t ' 010 '", "8\n", "", 0},
	})
}

func TestHostShell(t *testing.T) {
	e := newHostEnv(t)
	e.Expect("sudo -n sh -c 'true; false && echo A || echo B'", "B\n", "", 0)
	e.Expect("sudo -n sh -c 'echo A; false && echo B || echo C && echo D'", "A\nC\nD\n", "", 0)
	e.Expect("true && false || false; echo \"after\"", "after\n", "", 0)
	e.Expect("false; false", "", "", 1)
	e.Expect("echo one\necho two &&\necho three", "one\ntwo\nthree\n", "", 0)
	e.Expect(`echo 'single "q"' "double 'q' \" \\" back\ slash not#comment # a comment`,
		"single \"q\" double 'q' \" \\ back slash not#comment\n", "", 0)
	e.Expect("echo a | cat | grep -H .", "(standard input):a\n", "", 0)
	// procps-ng 4.0.2's pgrep (Debian bookworm), run on the build machine: its usage after a bad
	// option, glibc's regerror text after a bad pattern, exit 2 each
	e.Expect("pgrep", "", "pgrep: no matching criteria specified\nTry `pgrep --help' for more information.\n", 2)
	e.Expect("pgrep -z x 2>&1 | grep -c .", "36\n", "", 0) // the real one's 36 lines
	e.Expect("pgrep -z x 2>&1 | grep 'option\\|Usage\\|namespaces:\\|details'",
		"pgrep: invalid option -- 'z'\nUsage:\n pgrep [options] <pattern>\n                           the --ns option.\n"+
			"                           Available namespaces: ipc, mnt, net, pid, user, uts\nFor more details see pgrep(1).\n", "", 0)
	e.Expect("pgrep -z x 2>/dev/null", "", "", 2)
	e.Expect("pgrep 'a('", "", "pgrep: regex error: Unmatched ( or \\(\n", 2)
	e.Expect("pgrep '['", "", "pgrep: regex error: Invalid regular expression\n", 2)
	e.Expect("frobnicate --now", "", "sh: 1: frobnicate: not found\n", 127)
	e.Expect("true\nfrobnicate", "", "sh: 2: frobnicate: not found\n", 127)
	e.Expect("sudo -n frobnicate", "", "sudo: frobnicate: command not found\n", 1)
	e.Expect("sh -c 'frobnicate' named", "", "named: 1: frobnicate: not found\n", 127)
	e.Expect("cat /nope 2>&1", "cat: /nope: No such file or directory\n", "", 1)
	e.Expect("cat /nope 2>/dev/null; echo done", "done\n", "", 0)
	e.Expect("echo a &&", "", "sh: 1: Syntax error: end of file unexpected\n", 2)
	e.Expect("echo a; ; echo b", "", "sh: 1: Syntax error: \";\" unexpected\n", 2)
	e.Expect("echo first\necho 'open", "first\n", "sh: 2: Syntax error: Unterminated quoted string\n", 2)
	e.Expect("sh -e -c 'false; echo not reached'", "", "", 1)
	e.Expect("/usr/bin/mlnx_qos -i eth0 -P 0; /usr/sbin/cma_roce_tos", "0\nYou must be root to run this\n", "", 1)
	e.Expect("true &\necho $!", "4001\n", "", 0) // an asynchronous list: $! is its process (jobs.go)

	for _, unsupported := range []string{"echo $$", "echo $(id)", "echo `id`", "(true)", "if true; then true; fi", "A=1 true", "cat <<EOF"} {
		out, errOut, status := e.Run(unsupported)
		if status != 2 || out != "" || !strings.Contains(errOut, "lab: unsupported shell syntax") {
			t.Errorf("%q: exit %d, %q %q", unsupported, status, out, errOut)
		}
	}

	// Globs expand against what the user may read, sorted; no match
	// leaves the word as written.
	e.Expect("grep -H . /sys/class/net/eth0/ecn/roce_np/enable/*",
		"/sys/class/net/eth0/ecn/roce_np/enable/0:1\n/sys/class/net/eth0/ecn/roce_np/enable/1:1\n/sys/class/net/eth0/ecn/roce_np/enable/2:1\n/sys/class/net/eth0/ecn/roce_np/enable/3:1\n"+
			"/sys/class/net/eth0/ecn/roce_np/enable/4:1\n/sys/class/net/eth0/ecn/roce_np/enable/5:1\n/sys/class/net/eth0/ecn/roce_np/enable/6:1\n/sys/class/net/eth0/ecn/roce_np/enable/7:1\n", "", 0)
	e.Expect("ls -d /sys/class/net/eth*/ecn", "/sys/class/net/eth0/ecn\n/sys/class/net/eth1/ecn\n", "", 0)
	e.Expect("ls -j 2>&1", "ls: invalid option -- 'j'\nTry 'ls --help' for more information.\n", "", 2)
	e.Expect("echo /sys/class/net/e*/ecn /sys/class/net/[el]*[0-9o] '/sys/class/net/*' /sys/class/net/x*",
		"/sys/class/net/eth0/ecn /sys/class/net/eth1/ecn /sys/class/net/eth0 /sys/class/net/eth1 /sys/class/net/lo /sys/class/net/* /sys/class/net/x*\n", "", 0)
	e.Expect("grep -H . "+ccDir+"/*", "", "grep: "+ccDir+"/*: Permission denied\n", 2)
	e.Expect("sudo -n grep -H . "+ccDir+"/np_*", "", "grep: "+ccDir+"/np_*: No such file or directory\n", 2) // the user's shell could not expand it
	e.Expect("sudo -n sh -c 'grep -H . "+ccDir+"/np_*'",
		ccDir+"/np_cnp_dscp:48\n"+ccDir+"/np_cnp_prio:6\n"+ccDir+"/np_cnp_prio_mode:1\n"+ccDir+"/np_min_time_between_cnps:0\n", "", 0)
	e.Expect("grep -H . /sys/class/net/eth0/ecn/roce_np/cnp_dscp /nope "+tcFile,
		"/sys/class/net/eth0/ecn/roce_np/cnp_dscp:48\n", "grep: /nope: No such file or directory\n", 2)
	e.Expect("grep -H . "+tcFile, "", "", 1)
	e.Expect("grep -H . /sys/class/net", "", "grep: /sys/class/net: Is a directory\n", 2)
}

// Every debugfs parameter with its firmware default, through the glob the
// provider uses.
func TestHostDCQCNDefaults(t *testing.T) {
	e := newHostEnv(t)
	want := map[string]string{
		"rp_clamp_tgt_rate": "0", "rp_clamp_tgt_rate_ati": "1", "rp_time_reset": "300", "rp_byte_reset": "32767",
		"rp_threshold": "1", "rp_ai_rate": "5", "rp_max_rate": "0", "rp_hai_rate": "50", "rp_min_dec_fac": "50",
		"rp_min_rate": "1", "rp_rate_to_set_on_first_cnp": "0", "rp_dce_tcp_g": "1019", "rp_dce_tcp_rtt": "1",
		"rp_rate_reduce_monitor_period": "4", "rp_initial_alpha_value": "1023", "rp_gd": "11",
		"np_min_time_between_cnps": "0", "np_cnp_dscp": "48", "np_cnp_prio_mode": "1", "np_cnp_prio": "6",
	}
	out := e.Must("sudo -n sh -c 'grep -H . " + ccDir + "/*'")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d cc_params, want %d:\n%s", len(lines), len(want), out)
	}
	prev := ""
	for _, l := range lines {
		file, val, _ := strings.Cut(strings.TrimPrefix(l, ccDir+"/"), ":")
		if want[file] != val || file <= prev {
			t.Errorf("%s = %q (want %q, in sorted order)", file, val, want[file])
		}
		prev = file
	}
	rp := e.Must("cat /sys/class/net/eth1/ecn/roce_rp/rpg_time_reset /sys/class/net/eth1/ecn/roce_rp/clamp_tgt_rate_after_time_inc /sys/class/net/eth1/ecn/roce_np/min_time_between_cnps")
	if rp != "300\n1\n0\n" {
		t.Errorf("ecn sysfs defaults %q", rp)
	}
	ls := e.Must("ls /sys/class/net/eth0/ecn /sys/class/net/eth0/ecn/roce_np")
	if ls != "/sys/class/net/eth0/ecn:\nroce_np\nroce_rp\n\n/sys/class/net/eth0/ecn/roce_np:\ncnp_802p_prio\ncnp_dscp\nenable\nmin_time_between_cnps\n" {
		t.Errorf("ecn layout:\n%s", ls)
	}
}
