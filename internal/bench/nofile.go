package bench

import "fmt"

// FilesPerDevice is the open files the bench process needs per lab device: its listening
// socket and the server side of the connections the provider processes of one Terraform
// command hold to it (one per process in a plan with snapshots, which Terraform may start
// while the previous one is still closing).
const FilesPerDevice = 4

// filesBase is what the bench needs besides the devices: Go's runtime, the logs, the pipes of
// the Terraform command it runs, the CA and inventory files.
const filesBase = 256

// NoFileLimit is the soft RLIMIT_NOFILE the bench needs for a lab of that many devices, given
// the current soft and hard limits: cur when it suffices, else the hard limit when that does,
// else an error saying what to raise. (Go raises the soft limit to the hard one at start-up
// on Linux, so in practice only the hard limit can fall short; its children get the original
// soft limit back, and Terraform and the providers, Go programs too, raise their own.)
func NoFileLimit(cur, hard uint64, devices int) (uint64, error) {
	need := uint64(devices*FilesPerDevice + filesBase)
	switch {
	case cur >= need:
		return cur, nil
	case hard >= need:
		return hard, nil
	}
	return cur, fmt.Errorf("RLIMIT_NOFILE: a lab of %d devices needs about %d open files, but the hard limit is %d: raise it (ulimit -Hn, or LimitNOFILE= in a systemd unit) or run a smaller BENCH_SIZE",
		devices, need, hard)
}
