package driver

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/perftest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// fakePerfHost is one side of a perftest run: it answers the RDMA device lookup, starts the
// server (PID 4242), answers the client with clientOut/clientExit (or blocks until the context
// ends when hang is set), and records every command.
type fakePerfHost struct {
	mu         sync.Mutex
	clientOut  string
	clientExit int
	hang       bool
	alive      bool
	cmds       []string
}

func (f *fakePerfHost) Run(ctx context.Context, cmd string, _ []byte) (ssh.Result, error) {
	f.mu.Lock()
	f.cmds = append(f.cmds, cmd)
	f.mu.Unlock()
	switch {
	case strings.Contains(cmd, "/device/infiniband"):
		return ssh.Result{Stdout: []byte("mlx5_0\n")}, nil
	case strings.Contains(cmd, "echo $!"):
		return ssh.Result{Stdout: []byte("4242\n")}, nil
	case strings.Contains(cmd, "kill -0"):
		if f.alive {
			return ssh.Result{}, nil
		}
		return ssh.Result{ExitCode: 1}, nil
	case strings.Contains(cmd, "rm -f"):
		return ssh.Result{Stdout: []byte("Couldn't listen to port 18515\n")}, nil
	case strings.Contains(cmd, "ib_"):
		if f.hang {
			<-ctx.Done()
			return ssh.Result{}, ctx.Err()
		}
		return ssh.Result{Stdout: []byte(f.clientOut), ExitCode: f.clientExit}, nil
	}
	return ssh.Result{ExitCode: 127}, nil
}

func (f *fakePerfHost) ran(sub string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.cmds {
		if strings.Contains(c, sub) {
			return true
		}
	}
	return false
}

func perfReq(test perftest.Test) PerftestRequest {
	x := 3
	return PerftestRequest{Server: PerftestEnd{"h2", "eth0"}, Client: PerftestEnd{"h1", "eth0"},
		Options: perftest.Options{Test: test, GIDIndex: &x}}
}

// runPerf runs test from client h1 against server h2 at 192.0.2.2.
func runPerf(ctx context.Context, srv, cli *fakePerfHost, test perftest.Test) (PerftestResult, error) {
	return perftestRun{server: srv, client: cli, serverName: "h2", clientName: "h1"}.run(ctx, perfReq(test), "192.0.2.2", "ab12")
}

func TestPerftestReturnsClientFiguresAndCleansUp(t *testing.T) {
	out := golden.Read(t, "../platform/perftest/testdata/client_ib_send_bw_roce_report_gbits.txt")
	srv, cli := &fakePerfHost{alive: true}, &fakePerfHost{clientOut: out}
	res, err := runPerf(context.Background(), srv, cli, perftest.SendBW)
	if err != nil {
		t.Fatal(err)
	}
	if res.BW == nil || res.BW.AverageGbps != 9.81 {
		t.Errorf("result %+v", res.BW)
	}
	log := mlx5.PerftestLog(18515, "ab12")
	if !srv.ran("kill 4242") || !srv.ran("rm -f "+log) {
		t.Errorf("server not cleaned up: %q", srv.cmds)
	}
	if !cli.ran("ib_send_bw -d mlx5_0 -F --report_gbits -x 3 192.0.2.2") {
		t.Errorf("client command: %q", cli.cmds)
	}
}

// A run that fails reports why, and a server still running is killed.
func TestPerftestFailures(t *testing.T) {
	for name, tc := range map[string]struct {
		srv, cli *fakePerfHost
		timeout  time.Duration // 0: none
		test     perftest.Test
		want     error
	}{
		"client failure": {&fakePerfHost{alive: true},
			&fakePerfHost{clientOut: "IB device mlx5_0 not found\n Unable to find the Infiniband/RoCE device\n", clientExit: 1},
			0, perftest.WriteLat, perftest.ErrNoDevice},
		"timeout": {&fakePerfHost{alive: true}, &fakePerfHost{hang: true}, 50 * time.Millisecond, perftest.WriteBW, context.DeadlineExceeded},
		// The client's failure is the server's own (port busy), not a client error.
		"server that died": {&fakePerfHost{alive: false},
			&fakePerfHost{clientOut: "Couldn't connect to 192.0.2.2:18515\n Unable to init the socket connection\n", clientExit: 1},
			0, perftest.WriteBW, perftest.ErrPortBusy},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			_, err := runPerf(ctx, tc.srv, tc.cli, tc.test)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if tc.srv.alive && !tc.srv.ran("kill 4242") {
				t.Errorf("server not killed: %q", tc.srv.cmds)
			}
		})
	}
}

func TestPerftestRefusesBadAddress(t *testing.T) {
	srv, cli := &fakePerfHost{alive: true}, &fakePerfHost{}
	_, err := perftestRun{server: srv, client: cli}.run(context.Background(), perfReq(perftest.WriteBW), "a;reboot", "ab12")
	if err == nil || srv.ran("echo $!") {
		t.Errorf("error %v, commands %q: nothing may start", err, srv.cmds)
	}
}
