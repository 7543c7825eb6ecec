package mlx5

// linux-rdma/perftest's RoCE tests on a lab host: ib_write_bw, ib_send_bw, ib_write_lat and
// ib_send_lat. A server (no host operand) listens on its TCP port and waits for one client; a
// client connects to the server's address and port (every lab host answers on 127.0.0.1: the
// port alone picks the server, traffic.Room) and the two measure the path between their
// ports over the lab's cabling with the model of perftest_path.go. What they print is
// perftest's own layout (mlx5-host.md, "perftest", cites the sources line by line).

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

type perftestKind struct {
	binary, verb  string // verb: testsStr[] in perftest_parameters.c
	latency, send bool
}

var perftestTests = []perftestKind{
	{binary: "ib_write_bw", verb: "RDMA_Write"},
	{binary: "ib_send_bw", verb: "Send", send: true},
	{binary: "ib_write_lat", verb: "RDMA_Write", latency: true},
	{binary: "ib_send_lat", verb: "Send", latency: true, send: true},
}

// Defaults of perftest_parameters.h: DEF_PORT, DEF_SIZE_BW, DEF_SIZE_LAT, DEF_ITERS,
// DEF_ITERS_WB, DEF_TX_BW, DEF_TX_LAT, DEF_CQ_MOD.
const (
	perfDefPort    = 18515
	perfDefSizeBW  = 65536
	perfDefSizeLat = 2
	perfDefIters   = 1000
	perfDefItersWB = 5000
	perfResultLine = "---------------------------------------------------------------------------------------\n"
	perfFmtG       = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
	perfFmtMiB     = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
	perfFmtLat     = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
)

// perftestRun is one command line.
type perftestRun struct {
	kind     perftestKind
	device   string
	gidIndex int // -1: perftest's default (none printed)
	tclass   int // -1: the NIC's
	size     int
	iters    int
	duration int
	port     int
	gbits    bool
	server   string // the host operand: a client
}

// parsePerftest reads the options perftest_parameters.c's parser_args takes that the lab
// implements, with their checks (the CHECK_VALUE macros of perftest_parameters.h, the -s case);
// a value they refuse, a missing argument and an option the lab does not know end the parse as
// there (glibc getopt_long's message, then perftest's "Invalid Command or flag." lines), and the
// test's main adds " Parser function exited with Error" (write_bw.c and the other three). The
// usage text perftest prints on stdout after an unknown option is left out (assumed), and so
// are the options the lab does not implement: they are refused as unknown (assumed).
func parsePerftest(kind perftestKind, args []string) (*perftestRun, string) {
	r := &perftestRun{kind: kind, gidIndex: -1, tclass: -1, port: perfDefPort}
	const parserErr = " Parser function exited with Error\n"
	const badFlag = " Invalid Command or flag.\n Please check command line and run again.\n\n" + parserErr
	// The long options' short equivalents (long_options[]); --tclass has none.
	long := map[string]string{"--ib-dev": "d", "--gid-index": "x", "--size": "s", "--iters": "n",
		"--duration": "D", "--port": "p", "--tclass": "tclass"}
	// getopt_long's messages name argv[0]: the command word as typed.
	for i := 1; i < len(args); i++ {
		a := args[i]
		var opt, val string
		switch {
		case a == "--": // the end of the options
			if i+1 < len(args) {
				r.server = args[len(args)-1]
			}
			i = len(args)
			continue
		case a == "--CPU-freq":
			continue
		case a == "--report_gbits":
			r.gbits = true
			continue
		case strings.HasPrefix(a, "--"):
			name, v, eq := strings.Cut(a, "=")
			if opt = long[name]; opt == "" {
				return nil, fmt.Sprintf("%s: unrecognized option '%s'\n", args[0], a) + badFlag
			}
			if val = v; !eq {
				if i+1 >= len(args) {
					return nil, fmt.Sprintf("%s: option '%s' requires an argument\n", args[0], name) + badFlag
				}
				i++
				val = args[i]
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// A cluster of short options: -F takes no argument, the others the rest of the
			// word or the next one.
			j := 1
			for j < len(a) && a[j] == 'F' {
				j++
			}
			if j == len(a) {
				continue
			}
			if opt = a[j : j+1]; !strings.Contains("dxsnDp", opt) {
				return nil, fmt.Sprintf("%s: invalid option -- '%s'\n", args[0], opt) + badFlag
			}
			if val = a[j+1:]; val == "" {
				if i+1 >= len(args) {
					return nil, fmt.Sprintf("%s: option requires an argument -- '%s'\n", args[0], opt) + badFlag
				}
				i++
				val = args[i]
			}
		default:
			r.server = a
			continue
		}
		if msg := r.set(opt, val); msg != "" {
			return nil, msg + parserErr
		}
	}
	if r.size == 0 {
		r.size = perfDefSizeBW
		if kind.latency {
			r.size = perfDefSizeLat
		}
	}
	return r, ""
}

// perfChecked are the options parser_args reads with a CHECK_VALUE macro: the name and C type
// its messages show.
var perfChecked = map[string]struct{ name, ctype string }{
	"x": {"Gid index", "uint8_t"}, "n": {"Iteration num", "uint64_t"}, "D": {"Duration period", "int"},
	"p": {"Port", "int"}, "tclass": {"traffic class", "uint16_t"},
}

// set takes one option's value as parser_args does (perftest 00b55b66), or says why not.
func (r *perftestRun) set(opt, v string) string {
	switch opt {
	case "d":
		r.device = v
		return ""
	case "s":
		// A K or M suffix, strtol base 0 with no check of what follows the number, cast to
		// uint64_t, then 1..UINT_MAX/2.
		factor := uint64(1)
		if strings.HasSuffix(v, "K") {
			v, factor = v[:len(v)-1], 1024
		} else if strings.HasSuffix(v, "M") {
			v, factor = v[:len(v)-1], 1024*1024
		}
		n, _ := cStrtol(v)
		size := uint64(n) * factor
		if size < 1 || size > 1<<31-1 {
			return " Message Size should be between 1 and 2147483647\n"
		}
		r.size = int(size)
		return ""
	}
	// CHECK_VALUE: strtol base 0, the whole argument a number, cast to the option's type.
	c := perfChecked[opt]
	n, rest := cStrtol(v)
	if rest != "" {
		return fmt.Sprintf(" %s argument %s should be %s\n", c.name, v, c.ctype)
	}
	switch opt {
	case "x": // CHECK_VALUE_IN_RANGE_UNS, MIN_GID_IX..MAX_GID_IX
		g := uint8(n)
		if g > 64 {
			return fmt.Sprintf(" %s should be between 0 and 64\n", c.name)
		}
		r.gidIndex = int(g)
	case "n": // CHECK_VALUE_IN_RANGE_UNS, MIN_ITER..MAX_ITER
		if u := uint64(n); u < 5 || u > 1<<32 {
			return fmt.Sprintf(" %s should be between 5 and 4294967296\n", c.name)
		}
		r.iters = int(n)
	case "D": // CHECK_VALUE_POSITIVE
		if int32(n) <= 0 {
			return fmt.Sprintf(" %s must be positive\n", c.name)
		}
		r.duration = int(int32(n))
	case "p":
		r.port = int(int32(n))
	case "tclass":
		r.tclass = int(uint16(n))
	}
	return ""
}

// cStrtol is C's strtol(s, &end, 0): leading blanks, a sign, 0x (hex) or 0 (octal) prefixes,
// clamped to a 64-bit long; rest is what end points to (all of s when there are no digits).
func cStrtol(s string) (n int64, rest string) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	base := uint64(10)
	switch {
	case len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X") && strings.ContainsRune("0123456789abcdefABCDEF", rune(t[2])):
		base, t = 16, t[2:]
	case strings.HasPrefix(t, "0"):
		base = 8
	}
	var u uint64
	digits, over := 0, false
	for ; digits < len(t); digits++ {
		c := t[digits]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			d = 99
		}
		if d >= base {
			break
		}
		if u > (1<<64-1-d)/base {
			over = true
		} else {
			u = u*base + d
		}
	}
	if digits == 0 {
		return 0, s
	}
	switch {
	case !neg && (over || u > 1<<63-1):
		n = 1<<63 - 1
	case neg && (over || u > 1<<63):
		n = -1 << 63
	case neg:
		n = -int64(u)
	default:
		n = int64(u)
	}
	return n, t[digits:]
}

// perfEnd is one side of a run as its host reads it when the run starts.
type perfEnd struct {
	host, ifname, rdma string
	qpn, psn           uint32
	gid                [16]byte
	pfcEn              uint8
	trustDSCP          bool
	dscp2prio          [64]uint8
	tclass             int // the traffic class the QP sends with
	ecn                [8]bool
}

// perfSession is what a client hands the server it connects to; the server answers on reply.
type perfSession struct {
	client perfEnd
	run    *perftestRun
	reply  chan perfResult
}

type perfResult struct {
	server  perfEnd
	figures perfFigures
}

// SetFabric gives the host the lab's devices by name, for perftest's path model.
func (h *Host) SetFabric(f func(string) device.Device) { h.fabric.Store(&f) }

// end reads port p's side of a run.
func (h *Host) end(p *nicPort, idx int, r *perftestRun) perfEnd {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := perfEnd{host: h.name, ifname: p.ifname, rdma: p.rdma, pfcEn: p.pfcEn, trustDSCP: p.trustDSCP, dscp2prio: p.dscp2prio}
	mac := cabling.MAC(h.name, idx+1)
	e.qpn = 0x100 | uint32(mac[5])<<4 | uint32(mac[4]&0xf)
	e.psn = uint32(mac[3])<<16 | uint32(mac[4])<<8 | uint32(mac[2])
	// The RoCE v2 IPv4 GID of the port's address: 10.<mac[3]>.<mac[4]>.<port+1> (assumed: lab
	// netdevs have no configured address; this is the one their GIDs show).
	copy(e.gid[10:], []byte{255, 255, 10, mac[3], mac[4], byte(idx + 1)})
	e.tclass = r.tclass & 0xff // ibv_ah_attr's grh.traffic_class is a uint8_t (perftest_resources.c)
	if r.tclass < 0 {
		e.tclass = max(p.trafficClass, 0)
	}
	prio := e.prio()
	if p.cong.enable != nil {
		e.ecn[prio] = p.cong.enable["roce_rp"][prio] != 0 && p.cong.enable["roce_np"][prio] != 0
	}
	return e
}

// prio is the priority the NIC sends RoCE with: by DSCP (the traffic class's upper six bits)
// when the port trusts DSCP, else the untagged frame's PCP 0.
func (e perfEnd) prio() int {
	if e.trustDSCP {
		return int(e.dscp2prio[e.tclass>>2])
	}
	return 0
}

// cmdPerftest is one of perftest's programs.
func (h *Host) cmdPerftest(kind perftestKind) sh.Program {
	return func(e *sh.Env, args []string) int {
		r, msg := parsePerftest(kind, args)
		if msg != "" {
			fmt.Fprint(e.Stderr, msg)
			return 1
		}
		idx := -1
		for i, p := range h.ports {
			if r.device == "" && i == 0 || p.rdma == r.device {
				idx = i
				break
			}
		}
		if idx < 0 {
			// ctx_find_dev (perftest_resources.c), then the test's main (write_bw.c).
			fmt.Fprintf(e.Stderr, "IB device %s not found\n Unable to find the Infiniband/RoCE device\n", r.device)
			return 1
		}
		if r.duration > 0 && kind.latency {
			r.duration = 0 // the lab does not print the duration latency table (RESULT_FMT_LAT_DUR)
		}
		me := h.end(h.ports[idx], idx, r)
		if r.server == "" {
			return h.perftestServer(e, r, me)
		}
		return h.perftestClient(e, r, me)
	}
}

func (h *Host) perftestServer(e *sh.Env, r *perftestRun, me perfEnd) int {
	fmt.Fprint(e.Stdout, "\n************************************\n* Waiting for client to connect... *\n************************************\n")
	accept, closeFn, ok := h.room.Listen(r.port)
	if !ok {
		fmt.Fprintf(e.Stderr, "Couldn't listen to port %d\n Unable to init the socket connection\n", r.port)
		return 1
	}
	defer closeFn()
	var sess *perfSession
	select {
	case v := <-accept:
		var ok bool
		if sess, ok = v.(*perfSession); !ok {
			return 1
		}
	case <-e.Killed():
		return 128 + 15 // SIGTERM: the shell's status for it
	}
	f := h.measure(sess.client, me, sess.run)
	sess.reply <- perfResult{server: me, figures: f}
	printPerftest(e.Stdout, r, me, sess.client, f, true)
	return 0
}

func (h *Host) perftestClient(e *sh.Env, r *perftestRun, me perfEnd) int {
	sess := &perfSession{client: me, run: r, reply: make(chan perfResult, 1)}
	host := r.server
	if host != "127.0.0.1" && host != "localhost" || !h.room.Connect(r.port, sess) {
		// ethernet_client_connect (perftest_communication.c), then the test's main.
		fmt.Fprintf(e.Stderr, "Couldn't connect to %s:%d\n Unable to init the socket connection\n", host, r.port)
		return 1
	}
	select {
	case res := <-sess.reply:
		printPerftest(e.Stdout, r, me, res.server, res.figures, false)
		return 0
	case <-e.Killed():
		return 128 + 15
	}
}

// measure is the server's side of a run: the figures of the path from the client's port to
// this one.
func (h *Host) measure(client, server perfEnd, r *perftestRun) perfFigures {
	var hops []cabling.Hop
	cabled := false
	if h.wires != nil {
		hops, cabled = h.wires.Path(client.host, client.ifname, server.host, server.ifname)
	}
	var lookup func(string) device.Device
	if f := h.fabric.Load(); f != nil {
		lookup = *f
	}
	return pathModel(client, server, hops, cabled, lookup, r)
}

// cHex is C's printf %#0Nx: no 0x prefix for zero (C99 7.19.6.1), zero-padded to width with it.
func cHex(v uint64, width int) string {
	if v == 0 {
		return strings.Repeat("0", width)
	}
	s := strconv.FormatUint(v, 16)
	if len(s)+2 < width {
		s = strings.Repeat("0", width-2-len(s)) + s
	}
	return "0x" + s
}

// printPerftest prints a run as perftest does: ctx_print_test_info, ctx_print_pingpong_data
// for each side, then the result table (print_report_bw's REPORT_FMT or print_report_lat's
// REPORT_FMT_LAT). The server prints no TX depth, the client no RX depth.
func printPerftest(w io.Writer, r *perftestRun, me, peer perfEnd, f perfFigures, server bool) {
	var b strings.Builder
	b.WriteString(perfResultLine)
	kind := "BW"
	if r.kind.latency {
		kind = "Latency"
	}
	fmt.Fprintf(&b, "                    %s %s Test\n", r.kind.verb, kind)
	fmt.Fprintf(&b, " Dual-port       : OFF\t\tDevice         : %s\n", me.rdma)
	b.WriteString(" Number of qps   : 1\t\tTransport type : IB\n")
	b.WriteString(" Connection type : RC\t\tUsing SRQ      : OFF\n")
	b.WriteString(" PCIe relax order: ON\t\tLock-free      : OFF\n")
	b.WriteString(" ibv_wr* API     : ON\t\tUsing Enhanced Reorder      : OFF\n")
	if !server {
		depth := 128
		if r.kind.latency {
			depth = 1
		}
		fmt.Fprintf(&b, " TX depth        : %d\n", depth)
	}
	if server && r.kind.send {
		b.WriteString(" RX depth        : 512\n")
	}
	if !r.kind.latency {
		b.WriteString(" CQ Moderation   : 100\n CQE Poll Batch  : Dynamic\n")
	}
	fmt.Fprintf(&b, " Mtu             : %d[B]\n", f.mtu)
	b.WriteString(" Link type       : Ethernet\n")
	if r.gidIndex >= 0 {
		fmt.Fprintf(&b, " GID index       : %d\n", r.gidIndex)
	}
	inline := 0
	switch {
	case r.kind.latency && r.kind.send:
		inline = 236 // DEF_INLINE_SEND_RC_UC
	case r.kind.latency:
		inline = 220 // DEF_INLINE_WRITE
	}
	fmt.Fprintf(&b, " Max inline data : %d[B]\n", inline)
	b.WriteString(" rdma_cm QPs\t : OFF\n Data ex. method : Ethernet\n")
	b.WriteString(perfResultLine)
	for i, e := range []perfEnd{me, peer} {
		side := []string{"local", "remote"}[i]
		fmt.Fprintf(&b, " %s address: LID %s QPN %s PSN %s", side, cHex(0, 4), cHex(uint64(e.qpn), 6), cHex(uint64(e.psn), 6))
		if !r.kind.send {
			fmt.Fprintf(&b, " RKey %s VAddr %s", cHex(0x1fff00, 8), cHex(0x7f0000000000|uint64(e.psn)<<12, 16))
		}
		b.WriteString("\n")
		if r.gidIndex >= 0 {
			g := e.gid
			fmt.Fprintf(&b, " GID: %02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d\n",
				g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15])
		}
	}
	b.WriteString(perfResultLine)
	iters := r.iters
	if iters == 0 {
		iters = perfDefIters
		if !r.kind.latency && !r.kind.send {
			iters = perfDefItersWB
		}
	}
	if r.kind.latency {
		b.WriteString(perfFmtLat)
		l := f.lat
		fmt.Fprintf(&b, " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
			r.size, iters, l.min, l.max, l.typical, l.avg, l.stdev, l.p99, l.p999)
	} else {
		peak, avg, rate := f.peakGbps, f.avgGbps, f.avgGbps*1e9/8/float64(r.size)/1e6
		if r.duration > 0 {
			peak = 0 // not measured by duration (perftest prints 0.00)
			iters = int(rate * 1e6 * float64(r.duration))
		}
		if server && r.kind.send {
			peak = 0 // the receive side of ib_send_bw does not measure its peak
		}
		hdr := perfFmtG
		if !r.gbits {
			hdr = perfFmtMiB
			peak, avg = peak*1e9/8/(1<<20), avg*1e9/8/(1<<20)
		}
		b.WriteString(hdr)
		fmt.Fprintf(&b, " %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f\n", r.size, iters, peak, avg, rate)
	}
	b.WriteString(perfResultLine)
	_, _ = io.WriteString(w, b.String())
}
