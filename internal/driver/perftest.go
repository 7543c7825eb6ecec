package driver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/perftest"
)

// The perftest vocabulary the provider speaks (the provider reaches platforms through the
// driver only).
type (
	PerftestOptions = perftest.Options
	PerftestTest    = perftest.Test
	PerftestBW      = perftest.BW
	PerftestLatency = perftest.Latency
)

// PerftestTests are the tests roce_perftest runs; PerftestDefaultPort is perftest's own port.
var PerftestTests = perftest.Tests

const PerftestDefaultPort = perftest.DefaultPort

// The ranges perftest's parser accepts, for the schema's validators (perftest.MaxGIDIndex...).
const (
	PerftestMaxGIDIndex   = perftest.MaxGIDIndex
	PerftestMinIterations = perftest.MinIterations
	PerftestMaxIterations = perftest.MaxIterations
	PerftestMaxSize       = perftest.MaxSize
)

// CheckPerftestHost reports, at plan time, a perftest end placed on a device that is not a host.
func CheckPerftestHost(dev devices.Device) error {
	if platforms[dev.Platform].host == nil {
		return fmt.Errorf("device %q has platform %s: perftest runs on NIC hosts (platform mlx5), not switches", dev.Name, dev.Platform)
	}
	return nil
}

// PerftestEnd is one side of a measurement: a host and its netdev.
type PerftestEnd struct{ Device, Interface string }

// PerftestRequest is a roce_perftest run. Options.Device is filled from each side's netdev.
type PerftestRequest struct {
	Server, Client PerftestEnd
	// Address is where the client reaches the server's perftest port; "" is the server
	// device's management address (the host of its SSH address).
	Address string
	Options perftest.Options
}

// PerftestResult is what the client reported: one of BW and Latency, for the test run.
type PerftestResult struct {
	BW                     *perftest.BW
	Latency                *perftest.Latency
	ServerRDMA, ClientRDMA string
	Address                string
}

// perftestRetry is how long the client waits before connecting again while the server, started
// but not yet listening, refuses it.
var perftestRetry = 200 * time.Millisecond

// cleanupTimeout bounds the cleanup that runs after the run's own context has ended.
const cleanupTimeout = 20 * time.Second

// RunPerftest runs req: the server side in the background on the server host, then the client
// on the client host, and returns the client's figures. The server is killed and its log
// removed on every way out (DESIGN.md, "roce_perftest").
func RunPerftest(ctx context.Context, reg *devices.Registry, req PerftestRequest) (PerftestResult, error) {
	var res PerftestResult
	server, err := openHost(reg, req.Server.Device)
	if err != nil {
		return res, fmt.Errorf("server: %w", err)
	}
	client, err := openHost(reg, req.Client.Device)
	if err != nil {
		return res, fmt.Errorf("client: %w", err)
	}
	addr := req.Address
	if addr == "" {
		dev, _ := reg.Device(req.Server.Device)
		host, _, err := net.SplitHostPort(dev.Address)
		if err != nil {
			host = dev.Address
		}
		addr = host
	}
	token := make([]byte, 6)
	_, _ = rand.Read(token)
	// The run is bounded by the two hosts' operation timeouts and the test's own duration: a
	// client that never reaches a listening server ends there, and cleanup still runs.
	sdev, _ := reg.Device(req.Server.Device)
	cdev, _ := reg.Device(req.Client.Device)
	ctx, cancel := context.WithTimeout(ctx, sdev.Timeout+cdev.Timeout+time.Duration(req.Options.Duration)*time.Second)
	defer cancel()
	return perftestRun{server: server.c, client: client.c, serverName: req.Server.Device, clientName: req.Client.Device}.
		run(ctx, req, addr, hex.EncodeToString(token))
}

// perftestRun joins the two hosts' connections (fakes in tests).
type perftestRun struct {
	server, client         sshConn
	serverName, clientName string
}

func (p perftestRun) rdmaDevice(ctx context.Context, c sshConn, device, ifname string) (string, error) {
	if err := checkNetdev(ifname); err != nil {
		return "", err
	}
	r, err := c.Run(ctx, mlx5.RDMADeviceScript(ifname), nil)
	if err != nil {
		return "", fmt.Errorf("device %q: %w", device, err)
	}
	names := strings.Fields(string(r.Stdout))
	if r.ExitCode != 0 || len(names) == 0 {
		return "", fmt.Errorf("device %q: %s has no RDMA device (is it a RoCE port of a ConnectX NIC?): %s", device, ifname,
			strings.TrimSpace(string(r.Stderr)))
	}
	return names[0], nil
}

func (p perftestRun) run(ctx context.Context, req PerftestRequest, addr, token string) (PerftestResult, error) {
	var res PerftestResult
	var err error
	if res.ServerRDMA, err = p.rdmaDevice(ctx, p.server, p.serverName, req.Server.Interface); err != nil {
		return res, err
	}
	if res.ClientRDMA, err = p.rdmaDevice(ctx, p.client, p.clientName, req.Client.Interface); err != nil {
		return res, err
	}
	res.Address = addr
	so, co := req.Options, req.Options
	so.Device, co.Device = res.ServerRDMA, res.ClientRDMA
	if err := so.Check(); err != nil {
		return res, err
	}
	if err := co.Check(); err != nil {
		return res, err
	}
	if !validAddress(addr) {
		return res, fmt.Errorf("server address %q is not a host name or IP address", addr)
	}
	port := so.Port
	if port == 0 {
		port = perftest.DefaultPort
	}
	log := mlx5.PerftestLog(port, token)
	started, err := p.server.Run(ctx, mlx5.PerftestServerScript(so.Args(""), log), nil)
	if err != nil {
		// The command may have started the server before the connection failed: clean up by
		// the log's name, which is all that is known.
		p.cleanupUnknown(log)
		return res, fmt.Errorf("starting the perftest server on %q: %w", p.serverName, err)
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(string(started.Stdout)))
	if started.ExitCode != 0 || perr != nil || pid <= 0 {
		p.cleanupUnknown(log)
		return res, fmt.Errorf("starting the perftest server on %q failed (exit %d): %s", p.serverName, started.ExitCode,
			strings.TrimSpace(string(append(started.Stdout, started.Stderr...))))
	}
	out, err := p.connect(ctx, co.Args(addr), pid)
	serverLog := p.cleanup(pid, log)
	if err != nil {
		if errors.Is(err, errServerExited) {
			return res, fmt.Errorf("the perftest server on %q exited before the client connected: %w", p.serverName, perftest.Failure(serverLog))
		}
		return res, err
	}
	if req.Options.Test.Latency() {
		rows, err := perftest.ParseLatency(out)
		if err != nil {
			return res, fmt.Errorf("the perftest client on %q: %w", p.clientName, err)
		}
		res.Latency = &rows[len(rows)-1]
	} else {
		rows, err := perftest.ParseBW(out)
		if err != nil {
			return res, fmt.Errorf("the perftest client on %q: %w", p.clientName, err)
		}
		res.BW = &rows[len(rows)-1]
	}
	return res, nil
}

var errServerExited = errors.New("server exited")

// connect runs the client until it connects: perftest does not retry a refused connection, and
// the server may not listen yet. Between tries it checks the server still runs.
func (p perftestRun) connect(ctx context.Context, args []string, pid int) (string, error) {
	for {
		r, err := p.client.Run(ctx, mlx5.PerftestClientScript(args), nil)
		if err != nil {
			return "", fmt.Errorf("running the perftest client on %q: %w", p.clientName, err)
		}
		out := string(append(r.Stdout, r.Stderr...))
		if r.ExitCode == 0 {
			return out, nil
		}
		ferr := perftest.Failure(out)
		if !errors.Is(ferr, perftest.ErrUnreachable) {
			return "", fmt.Errorf("the perftest client on %q failed (exit %d): %w", p.clientName, r.ExitCode, ferr)
		}
		alive, err := p.server.Run(ctx, mlx5.PerftestAliveScript(pid), nil)
		switch {
		case err != nil:
			return "", fmt.Errorf("checking the perftest server on %q: %w", p.serverName, err)
		case alive.ExitCode != 0:
			return "", errServerExited
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("the perftest client on %q could not reach the server before the timeout: %w", p.clientName, ferr)
		case <-time.After(perftestRetry):
		}
	}
}

// cleanup kills the server and removes its log, under a context of its own: it runs after a
// timeout too. It returns the log.
func (p perftestRun) cleanup(pid int, log string) string {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	r, err := p.server.Run(ctx, mlx5.PerftestCleanupScript(pid, log), nil)
	if err != nil {
		return ""
	}
	return string(r.Stdout)
}

// cleanupUnknown removes the log of a server whose PID is unknown. A server started without
// printing its PID is left to exit by itself (it serves one client at most).
func (p perftestRun) cleanupUnknown(log string) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	_, _ = p.server.Run(ctx, mlx5.PerftestCleanupScript(0, log), nil)
}

// validAddress: an IP address or a DNS name (letters, digits, '-', '.'), so it reaches
// perftest as one plain argument.
func validAddress(s string) bool {
	if net.ParseIP(s) != nil {
		return true
	}
	if s == "" || len(s) > 253 || s[0] == '-' {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '-' && r != '.'
	}) < 0
}

// ValidPerftestAddress reports whether a server address can be given to perftest.
func ValidPerftestAddress(s string) bool { return validAddress(s) }
