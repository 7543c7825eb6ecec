// Package mlx5 manages roce_nic_qos and roce_dcqcn_profile on Linux hosts with NVIDIA mlx5 NICs
// (ConnectX-4 and later): it builds the shell commands run over SSH exec and parses their
// output. Pure functions: no I/O. Every read is one command (ReadScript for one netdev,
// HostReadScript for all of a host's), every write is one command (ApplyScript, RestoreScript,
// RestoreFromSnapshot).
//
// # The shell subset (what the lab's simulated host must implement)
//
// The scripts use nothing beyond this, so a host (real or simulated) that implements it runs
// them exactly as /bin/sh does (TestScriptsRunInRealShell runs them through /bin/sh):
//
//   - Lists: commands separated by "; " or a newline; "&&" and "||" (left-associative, equal
//     precedence, as in sh). Pipelines "a | b". Exit status: the last command's.
//   - Redirections after the arguments: ">FILE" or "> FILE" (truncate and write),
//     "> /dev/null", "2>&1" (stderr to where stdout goes).
//   - Words: plain; single quotes (no escapes inside); double quotes; backslash escapes
//     outside quotes; a word may mix them (see the example after this list). No variables,
//     no $(...), no backquotes, no functions, no set -e; "for o in WORD...; do LIST; done"
//     with "$o" in double quotes (the dcb read); and in the host read:
//   - The host read (HostReadScript) also needs "cd DIR" (changes the directory relative
//     globs expand in), "for i in *; do LIST; done" (the loop variable set to each match of
//     the glob in turn, sorted; LIST is a list as above) and "$i" inside double quotes: alone
//     ("$i"), with other text ("@@netdev $i"), and in a word that mixes it with quoted and
//     unquoted parts and a glob (/sys/class/net/"$i"/ecn/roce_rp/enable/*: the value of i
//     is taken literally, only the unquoted "*" globs), "! PIPELINE" (the status inverted),
//     "grep -qsE ERE FILE..." (quiet, no message for an unreadable file, extended regexp).
//   - Globs: "*" in an unquoted part of a word, in any path component, expands to the sorted
//     matching paths; a word matching nothing stays literal, as in sh.
//   - Commands:
//     sh -c 'SCRIPT' (runs SCRIPT with these rules);
//     sudo -n COMMAND... (runs COMMAND as root; fails with "sudo: a password is required" when
//     the user may not);
//     echo WORD...; cat FILE...; tee FILE... (copies stdin to each FILE and to stdout);
//     ls DIR (one entry per line, sorted; "ls: cannot access 'DIR': No such file or
//     directory" on stderr, status 2);
//     grep -H . FILE... (each non-empty line of each file as "FILE:line"; per unreadable FILE
//     "grep: FILE: No such file or directory" or "grep: FILE: Permission denied" on stderr,
//     status 2 if any);
//     pgrep -x NAME (PIDs, one per line; status 1 and no output when none);
//     true; mlnx_qos (below); dcb (dcb.go); command -v NAME (the path, or status 127 and
//     nothing when absent); cma_roce_tos (accepted, unused by the provider);
//     ethtool -S IF (counters; see counters.go).
//   - Failing writes print the shell's message on stderr, e.g. "sh: 1: cannot create FILE:
//     Permission denied" for a redirect, "tee: FILE: Permission denied" or
//     "tee: FILE: Invalid argument", and the command fails (status 1).
//
// A quoted part, an escaped quote and a quoted part make the one word it's:
//
//	echo 'it'\''s'
//
// mlnx_qos: the provider runs `mlnx_qos -i IF -a` (print everything, all 8 TCs), and
// `mlnx_qos -i IF [--trust dscp|pcp] --pfc b0,...,b7 [-p t0,...,t7] [-s tsa0,...,tsa7 -t
// bw0,...,bw7]` and `mlnx_qos -i IF --dscp2prio set,D,P` (repeated, up to 64 times). After a
// change it prints the same report as a read. The report is mlnx_qos's pretty_print: see
// Mellanox/mlnx-tools python/mlnx_qos at 8fbfd9c, pretty_print() (TAB indentation, trailing spaces on the PFC
// rows, "tc: N ratelimit: unlimited, tsa: ets, bw: 50%", "\t priority:  3").
//
// # The read script and its markers
//
// ReadScript("eth0", true) is (one line):
//
//	sudo -n sh -c 'echo @@mlnx_qos; ! command -v mlnx_qos >/dev/null 2>&1 || mlnx_qos -i eth0 -a 2>&1 || echo @@failed;
//	echo @@dcb; ls /sys/class/net/eth0/device/infiniband >/dev/null 2>&1 && ! command -v mlnx_qos >/dev/null 2>&1 &&
//	for o in dcbx app pfc ets buffer; do echo "dcb $o:"; dcb -j "$o" show dev eth0 2>&1; done; echo @@uevent;
//	cat /sys/class/net/eth0/device/uevent 2>&1; echo @@infiniband;
//	ls /sys/class/net/eth0/device/infiniband 2>&1; echo @@values;
//	grep -H . /sys/class/net/eth0/ecn/roce_rp/enable/* /sys/class/net/eth0/ecn/roce_np/enable/*
//	/sys/kernel/debug/mlx5/*/cc_params/* /sys/class/net/eth0/device/infiniband/*/tc/1/traffic_class 2>&1;
//	echo @@units; grep -H . /etc/systemd/system/roce-*.service /etc/systemd/system/*.wants/roce-*.service 2>&1;
//	echo @@lldpad; pgrep -x lldpad; echo @@netdevs; ls /sys/class/net 2>&1; echo @@end'
//
// Its output is sections, each opened by a marker on a line of its own: @@mlnx_qos (the
// report, then @@failed if mlnx_qos exited non-zero; empty on a host without mlnx_qos), @@dcb
// (on a host without mlnx_qos, iproute2's dcb objects as JSON, each after a "dcb OBJ:" line;
// dcb.go), @@uevent (KEY=VALUE lines; PCI_SLOT_NAME
// is the PCI address naming the debugfs directory), @@infiniband (the netdev's RDMA device),
// @@values (grep -H lines "PATH:VALUE" and "grep: PATH: ERROR"), @@units (the same for the
// provider's boot units, persist.go, and the .wants links that enable them), @@lldpad (PIDs),
// @@netdevs, @@end. Without sudo the same script runs as sh -c '...' (debugfs is then unreadable and the
// DCQCN checks say so). The files a host provides for a netdev IF with PCI address P and RDMA
// device D, each holding a decimal and a newline:
//
//	/sys/class/net/IF/device/uevent                  ... PCI_SLOT_NAME=P ...
//	/sys/class/net/IF/device/infiniband/D/           a directory
//	/sys/class/net/IF/ecn/roce_rp/enable/0 .. 7      0 or 1 (MLNX_OFED only; 0644, root writes)
//	/sys/class/net/IF/ecn/roce_np/enable/0 .. 7      0 or 1
//	/sys/kernel/debug/mlx5/P/cc_params/<name>        u32; names in mlx5-cc_params-ecn-sysfs-layout.txt
//	                                                 (root only, 0600; np_cnp_prio writes set np_cnp_prio_mode to 0)
//	/sys/class/net/IF/device/infiniband/D/tc/1/traffic_class
//	                                                 "Global tclass=N" when set, empty when not; writing -1
//	                                                 unsets it, 0-255 sets it (MLNX_OFED only; root writes)
//
// # The host read
//
// HostReadScript(false) reads every netdev of the host at once (one line):
//
//	sh -c 'cd /sys/class/net && for i in *; do echo "@@netdev $i"; echo @@mlnx_qos;
//	ls /sys/class/net/"$i"/device/infiniband >/dev/null 2>&1 &&
//	! ls /sys/class/net/"$i"/device/physfn >/dev/null 2>&1 &&
//	! grep -qsE '\''^(32|pf[0-9]+[vs]f[0-9]+)$'\'' /sys/class/net/"$i"/type /sys/class/net/"$i"/phys_port_name &&
//	command -v mlnx_qos >/dev/null 2>&1 && mlnx_qos -i "$i" -a 2>&1 || echo @@failed;
//	ls /sys/class/net/"$i"/device/physfn >/dev/null 2>&1 ||
//	grep -qsE '\''^(32|pf[0-9]+[vs]f[0-9]+)$'\'' /sys/class/net/"$i"/type /sys/class/net/"$i"/phys_port_name && echo @@skipped;
//	echo @@dcb; ls /sys/class/net/"$i"/device/infiniband >/dev/null 2>&1 &&
//	! ls /sys/class/net/"$i"/device/physfn >/dev/null 2>&1 &&
//	! grep -qsE '\''^(32|pf[0-9]+[vs]f[0-9]+)$'\'' /sys/class/net/"$i"/type /sys/class/net/"$i"/phys_port_name &&
//	! command -v mlnx_qos >/dev/null 2>&1 && for o in dcbx app pfc ets buffer; do echo "dcb $o:"; dcb -j "$o" show dev "$i" 2>&1; done;
//	echo @@uevent; cat /sys/class/net/"$i"/device/uevent 2>&1;
//	echo @@infiniband; ls /sys/class/net/"$i"/device/infiniband 2>&1; echo @@values;
//	grep -H . /sys/class/net/"$i"/ecn/roce_rp/enable/* /sys/class/net/"$i"/ecn/roce_np/enable/*
//	/sys/class/net/"$i"/device/infiniband/*/tc/1/traffic_class 2>&1; done; echo @@cc_params;
//	grep -H . /sys/kernel/debug/mlx5/*/cc_params/* 2>&1;
//	echo @@units; grep -H . /etc/systemd/system/roce-*.service /etc/systemd/system/*.wants/roce-*.service 2>&1;
//	echo @@lldpad; pgrep -x lldpad; echo @@netdevs; ls /sys/class/net 2>&1; echo @@end'
//
// Its output is, per netdev, "@@netdev NAME" and the five per-netdev sections of the read
// script (@@mlnx_qos, @@dcb, @@uevent, @@infiniband, @@values without the cc_params lines; the
// @@mlnx_qos section of a VF, representor or IPoIB netdev holds @@failed and @@skipped instead
// of a report), then once
// @@cc_params (the grep lines of every PCI function's cc_params), @@units, @@lldpad, @@netdevs,
// @@end.
// ParseHostRead gives each netdev the state ParseRead gives for its own read script's output.
//
// # Decisions
//
// DSCP map comparison: dscp_to_priority is owned whole. Both sides are compared as 64-entry
// arrays (DSCPArray: unlisted DSCPs are priority 0), so {"26"=3} and {"0"=0, "26"=3} are equal
// and any DSCP changed on the host shows as drift. The map is compared and written only under
// trust dscp: under trust pcp mlnx_qos does not print it, and on mlx5 writing a DSCP entry
// switches the port back to DSCP trust (fabric's validation rejects a map with trust = pcp).
// NICQoSLike shapes the rebuilt state like the configuration where the two are equal.
//
// roce_tos: read from and written to the RDMA device's MLNX_OFED traffic_class file (the
// "Global tclass" of port 1), the effective ToS of every RoCE QP of the device: mlx5 applies it
// to each QP, RDMA-CM or not (NCCL's QPs too, overriding NCCL_IB_TC). `cma_roce_tos -d D -t
// TOS` only sets the RDMA-CM default, which the global class overrides, and it can only be read
// by naming D, which a one-command read does not know beforehand; so the provider does not use
// it. Unset on the host (empty file) reads as nil; restore writes -1 to unset it again. Hosts
// without the file (upstream kernels) get an error naming it.
//
// DCBX: mlnx_qos prints "DCBX mode: Firmware controlled" when the NIC firmware runs DCBX; its
// settings would override ours, so CheckNIC fails and says to run `mlnx_qos -i IF -d os` (and,
// across reboots, mlxconfig LLDP_NB_DCBX_P<port>=0). A running lldpad (pgrep, or mlnx_qos's
// own warning) fails CheckNIC too.
//
// Writes are idempotent: every managed value is written on each apply, whatever the host has.
// With sudo, privileged commands run as `sudo -n CMD` and files are written with
// `echo V | sudo -n tee FILE > /dev/null` (a shell redirect is opened by the unprivileged
// shell); without, `echo V > FILE`. The whole write runs as sh -c '...' with && between
// commands, so it stops at the first failure.
package mlx5
