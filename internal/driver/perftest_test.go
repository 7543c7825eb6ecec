package driver

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

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

func TestPerftestReturnsClientFiguresAndCleansUp(t *testing.T) {
	out, err := os.ReadFile("../platform/perftest/testdata/client_ib_send_bw_roce_report_gbits.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv, cli := &fakePerfHost{alive: true}, &fakePerfHost{clientOut: string(out)}
	res, err := perftestRun{server: srv, client: cli, serverName: "h2", clientName: "h1"}.run(context.Background(), perfReq(perftest.SendBW), "192.0.2.2", "ab12")
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

func TestPerftestCleansUpOnClientFailure(t *testing.T) {
	srv := &fakePerfHost{alive: true}
	cli := &fakePerfHost{clientOut: "IB device mlx5_0 not found\n Unable to find the Infiniband/RoCE device\n", clientExit: 1}
	_, err := perftestRun{server: srv, client: cli, serverName: "h2", clientName: "h1"}.run(context.Background(), perfReq(perftest.WriteLat), "192.0.2.2", "ab12")
	if !errors.Is(err, perftest.ErrNoDevice) {
		t.Errorf("error %v, want ErrNoDevice", err)
	}
	if !srv.ran("kill 4242") {
		t.Errorf("server not killed: %q", srv.cmds)
	}
}

func TestPerftestCleansUpOnTimeout(t *testing.T) {
	srv, cli := &fakePerfHost{alive: true}, &fakePerfHost{hang: true}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := perftestRun{server: srv, client: cli, serverName: "h2", clientName: "h1"}.run(ctx, perfReq(perftest.WriteBW), "192.0.2.2", "ab12")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the deadline", err)
	}
	if !srv.ran("kill 4242") {
		t.Errorf("server not killed after the timeout: %q", srv.cmds)
	}
}

func TestPerftestServerThatDiedIsReported(t *testing.T) {
	srv := &fakePerfHost{alive: false}
	cli := &fakePerfHost{clientOut: "Couldn't connect to 192.0.2.2:18515\n Unable to init the socket connection\n", clientExit: 1}
	_, err := perftestRun{server: srv, client: cli, serverName: "h2", clientName: "h1"}.run(context.Background(), perfReq(perftest.WriteBW), "192.0.2.2", "ab12")
	if !errors.Is(err, perftest.ErrPortBusy) {
		t.Errorf("error %v, want the server's own failure (port busy)", err)
	}
}

func TestPerftestRefusesBadAddress(t *testing.T) {
	srv, cli := &fakePerfHost{alive: true}, &fakePerfHost{}
	_, err := perftestRun{server: srv, client: cli}.run(context.Background(), perfReq(perftest.WriteBW), "a;reboot", "ab12")
	if err == nil || srv.ran("echo $!") {
		t.Errorf("error %v, commands %q: nothing may start", err, srv.cmds)
	}
}
