// Package perftest builds the command lines of linux-rdma/perftest's RoCE tests (ib_write_bw,
// ib_send_bw, ib_write_lat, ib_send_lat) and parses what they print: the bandwidth table
// (`#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]`), the latency table
// (t_min ... 99.9% percentile, in usec) and the failures the client reports. The layouts are
// perftest's own (src/perftest_parameters.h RESULT_FMT*, REPORT_FMT*, at 6.29, commit 00b55b66),
// checked against real captures kept in testdata. Pure functions: no SSH, no Terraform.
package perftest

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Test is one perftest program.
type Test string

// The tests roce_perftest runs.
const (
	WriteBW  Test = "write_bw"
	SendBW   Test = "send_bw"
	WriteLat Test = "write_lat"
	SendLat  Test = "send_lat"
)

// Tests lists them in the order the docs give.
var Tests = []Test{WriteBW, SendBW, WriteLat, SendLat}

// Binary is the program's name: ib_<test>.
func (t Test) Binary() string { return "ib_" + string(t) }

// Latency reports a latency test (its table is the latency one).
func (t Test) Latency() bool { return t == WriteLat || t == SendLat }

// DefaultPort is perftest's TCP port for exchanging connection data (DEF_PORT 18515).
const DefaultPort = 18515

// The ranges perftest's parser accepts (linux-rdma/perftest@00b55b66 src/perftest_parameters.h
// MIN_GID_IX/MAX_GID_IX, MIN_ITER, and perftest_parameters.c's -s check, UINT_MAX/2): outside
// them it prints " Gid index should be between 0 and 64", " Iteration num should be between 5
// and ..." or " Message Size should be between 1 and 2147483647" and exits. MaxIterations is the
// lower of two releases' limits: 4294967296 upstream, 100000000 in 4.5-0.17 (Debian 12), so a
// configuration runs with either.
const (
	MaxGIDIndex   = 64
	MinIterations = 5
	MaxIterations = 100000000
	MaxSize       = 2147483647
)

// Options are the knobs roce_perftest exposes; zero values leave perftest's defaults.
type Options struct {
	Test   Test
	Device string // RDMA device, -d (mlx5_0)
	// GIDIndex selects the RoCE v2 GID, -x; nil leaves perftest's choice.
	GIDIndex *int
	// TrafficClass sets the IP traffic class (DSCP << 2), --tclass; nil leaves the NIC's.
	TrafficClass *int
	Size         int // message size in bytes, -s
	Iterations   int // -n
	Duration     int // seconds, -D (bandwidth tests; peak is not measured then)
	Port         int // -p
	// MiB leaves out --report_gbits: bandwidth tests print MiB/sec, which ParseBW converts
	// (two decimals of MiB/s resolve rates a hundred times smaller than two of Gb/s).
	MiB bool
}

var deviceName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Check refuses options perftest would not take, or that would not reach it as one argument.
func (o Options) Check() error {
	switch {
	case !o.Test.valid():
		return fmt.Errorf("test %q is not one of write_bw, send_bw, write_lat, send_lat", o.Test)
	case !deviceName.MatchString(o.Device):
		return fmt.Errorf("device %q is not an RDMA device name (letters, digits, '_', '.', '-')", o.Device)
	case o.GIDIndex != nil && (*o.GIDIndex < 0 || *o.GIDIndex > MaxGIDIndex):
		return fmt.Errorf("GID index %d is outside 0-%d", *o.GIDIndex, MaxGIDIndex)
	case o.Iterations != 0 && (o.Iterations < MinIterations || o.Iterations > MaxIterations):
		return fmt.Errorf("iterations %d is outside %d-%d", o.Iterations, MinIterations, MaxIterations)
	case o.Size > MaxSize:
		return fmt.Errorf("size %d is above %d", o.Size, MaxSize)
	case o.TrafficClass != nil && (*o.TrafficClass < 0 || *o.TrafficClass > 255):
		return fmt.Errorf("traffic class %d is outside 0-255", *o.TrafficClass)
	case o.Size < 0 || o.Iterations < 0 || o.Duration < 0 || o.Port < 0 || o.Port > 65535:
		return errors.New("size, iterations, duration and port must not be negative (port at most 65535)")
	case o.Duration > 0 && o.Test.Latency():
		return errors.New("duration applies to the bandwidth tests")
	}
	return nil
}

func (t Test) valid() bool {
	for _, x := range Tests {
		if t == x {
			return true
		}
	}
	return false
}

// Args is the argument vector of the server (server == "") or of the client connecting to
// server. Bandwidth is reported in Gb/s (--report_gbits) unless MiB is set. Check first: Args does not validate.
func (o Options) Args(server string) []string {
	args := []string{o.Test.Binary(), "-d", o.Device, "-F"}
	if !o.Test.Latency() && !o.MiB {
		args = append(args, "--report_gbits")
	}
	add := func(flag string, v int) {
		if v > 0 {
			args = append(args, flag, strconv.Itoa(v))
		}
	}
	if o.GIDIndex != nil {
		args = append(args, "-x", strconv.Itoa(*o.GIDIndex))
	}
	if o.TrafficClass != nil {
		args = append(args, "--tclass", strconv.Itoa(*o.TrafficClass))
	}
	add("-s", o.Size)
	add("-n", o.Iterations)
	add("-D", o.Duration)
	add("-p", o.Port)
	if server != "" {
		args = append(args, server)
	}
	return args
}

// BW is one row of a bandwidth table, bandwidths in Gb/s (10^9 bits per second).
type BW struct {
	Bytes, Iterations int64
	// PeakGbps is 0 with PeakMeasured false where perftest does not measure it (by duration,
	// more than 20000 iterations, the receive side of ib_send_bw): it prints 0.00.
	PeakGbps, AverageGbps float64
	PeakMeasured          bool
	MsgRateMpps           float64
}

// Latency is one row of a latency table, in microseconds.
type Latency struct {
	Bytes, Iterations                        int64
	Min, Max, Typical, Avg, Stdev, P99, P999 float64
}

// bwHeader matches RESULT_FMT_G and RESULT_FMT (MiB/sec since 24.07, MB/sec before: the same
// 2^20 bytes).
var bwHeader = regexp.MustCompile(`^\s*#bytes\s+#iterations\s+BW peak\[(Gb|MiB|MB)/sec\]\s+BW average\[(?:Gb|MiB|MB)/sec\]\s+MsgRate\[Mpps\]`)

var latHeader = regexp.MustCompile(`^\s*#bytes\s+#iterations\s+t_min\[usec\]\s+t_max\[usec\]\s+t_typical\[usec\]\s+t_avg\[usec\]\s+t_stdev\[usec\]\s+99% percentile\[usec\]\s+99\.9% percentile\[usec\]`)

// ParseBW returns the rows of the bandwidth table in out (one per message size; -a prints
// several). Lines between the header and the rows that are not rows (perftest's own stderr,
// such as "Conflicting CPU frequency values detected", lands there) are skipped.
func ParseBW(out string) ([]BW, error) {
	rows, unit, err := table(out, bwHeader, 5)
	if err != nil {
		return nil, err
	}
	factor := 1.0
	if unit != "Gb" {
		factor = float64(1<<20) * 8 / 1e9 // perftest's MiB (format_factor 0x100000) in Gb
	}
	var res []BW
	for _, f := range rows {
		r := BW{Bytes: int64(f[0]), Iterations: int64(f[1]), PeakGbps: f[2] * factor, AverageGbps: f[3] * factor, MsgRateMpps: f[4]}
		r.PeakMeasured = f[2] != 0
		res = append(res, r)
	}
	return res, nil
}

// ParseLatency returns the rows of the latency table in out.
func ParseLatency(out string) ([]Latency, error) {
	rows, _, err := table(out, latHeader, 9)
	if err != nil {
		return nil, err
	}
	var res []Latency
	for _, f := range rows {
		res = append(res, Latency{Bytes: int64(f[0]), Iterations: int64(f[1]), Min: f[2], Max: f[3], Typical: f[4], Avg: f[5],
			Stdev: f[6], P99: f[7], P999: f[8]})
	}
	return res, nil
}

// table finds header's table and returns its rows of n numbers, until perftest's closing
// line of dashes. The first capture group of header, if any, comes back as unit.
func table(out string, header *regexp.Regexp, n int) ([][]float64, string, error) {
	lines := strings.Split(strings.ReplaceAll(out, "\r", ""), "\n")
	for i, l := range lines {
		m := header.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		unit := ""
		if len(m) > 1 {
			unit = m[1]
		}
		var rows [][]float64
		for _, row := range lines[i+1:] {
			if strings.HasPrefix(strings.TrimSpace(row), "---") {
				break
			}
			if f, ok := numbers(row, n); ok {
				rows = append(rows, f)
			}
		}
		if len(rows) == 0 {
			return nil, "", errors.New("perftest printed its result header but no result row")
		}
		return rows, unit, nil
	}
	return nil, "", errors.New("no perftest result table in the output")
}

// numbers reads a row of exactly n numbers (perftest separates them with spaces and tabs).
func numbers(line string, n int) ([]float64, bool) {
	fields := strings.Fields(line)
	if len(fields) != n {
		return nil, false
	}
	out := make([]float64, n)
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// Failure kinds perftest reports, from its source (perftest_communication.c,
// perftest_resources.c, write_bw.c at 6.29).
var (
	// ErrUnreachable: the client found no server listening ("Couldn't connect to <host>:<port>").
	ErrUnreachable = errors.New("the perftest server was not reachable")
	// ErrNoDevice: "IB device <name> not found" or "No IB devices found".
	ErrNoDevice = errors.New("the RDMA device was not found")
	// ErrPortBusy: the server could not listen ("Couldn't listen to port <n>").
	ErrPortBusy = errors.New("the perftest port was in use")
)

var failures = []struct {
	re  *regexp.Regexp
	err error
}{
	{regexp.MustCompile(`Couldn't connect to \S+`), ErrUnreachable},
	{regexp.MustCompile(`IB device \S+ not found|No IB devices found`), ErrNoDevice},
	{regexp.MustCompile(`Couldn't listen to port \d+`), ErrPortBusy},
}

// Failure explains a perftest run that exited non-zero from what it printed: one of the
// errors above wrapped with perftest's own line, or its last line.
func Failure(output string) error {
	for _, f := range failures {
		if m := f.re.FindString(output); m != "" {
			return fmt.Errorf("%w: %s", f.err, m)
		}
	}
	lines := strings.Split(strings.TrimSpace(output), "\n")
	return fmt.Errorf("perftest failed: %s", strings.TrimSpace(lines[len(lines)-1]))
}
