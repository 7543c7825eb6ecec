package gnmiswitch

import (
	"crypto/tls"
	"net"
	"sync/atomic"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// Endpoint is what every gNMI switch of the lab shares, whatever its
// datastore: a TLS listener signed by the lab CA, the credential and latency
// guard, RPC counters, the FailNextSet knob and injected faults (fault.go). A switch
// embeds it and calls listen with its own gNMI service.
type Endpoint struct {
	name    string
	addr    string
	inv     device.Entry
	srv     *grpc.Server
	stopped chan struct{}

	failNext atomic.Pointer[string]
	counters rpcCounters
	faults   fault.Set
	conns    fault.Conns
}

// listen starts serving impl on 127.0.0.1 with an OS-chosen port.
func (e *Endpoint) Listen(spec device.Spec, impl gpb.GNMIServer) error {
	cert, err := spec.CA.ServerCertificate(spec.Name)
	if err != nil {
		return err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	g := &guard{username: spec.Username, password: spec.Password, latency: spec.Latency, counters: &e.counters,
		faults: &e.faults, conns: &e.conns, rejectText: gnmiRejectText[spec.Platform],
		unauthenticated: gnmiUnauthenticatedText[spec.Platform]}
	e.name = spec.Name
	e.stopped = make(chan struct{})
	e.srv = grpc.NewServer(
		grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})),
		grpc.ChainUnaryInterceptor(g.unary),
		grpc.ChainStreamInterceptor(g.stream),
	)
	gpb.RegisterGNMIServer(e.srv, impl)
	e.addr = lis.Addr().String()
	e.inv = device.Entry{
		Address:       e.addr,
		Platform:      spec.Platform,
		Username:      spec.Username,
		Password:      spec.Password,
		CACertificate: string(spec.CA.PEM),
		Model:         spec.Model,
	}
	go func() {
		defer close(e.stopped)
		_ = e.srv.Serve(fault.Listener{Listener: device.CountingListener{Listener: lis, N: &e.counters.connections},
			Faults: &e.faults, Conns: &e.conns})
	}()
	return nil
}

func (e *Endpoint) Entry() device.Entry { return e.inv }

// Stop closes the listener and every open stream at once: a long-lived
// Subscribe would make a graceful stop wait forever.
func (e *Endpoint) Stop() {
	e.faults.Stop()
	e.srv.Stop()
	<-e.stopped
}

// RefuseSet is what every gNMI switch of the lab refuses before it reads a Set's paths: the
// failure FailNextSet armed (once), then union_replace, which neither datastore applies
// (lemming would silently ignore it; a device that does not support an operation says so).
func (e *Endpoint) RefuseSet(req *gpb.SetRequest) error {
	if msg := e.failNext.Swap(nil); msg != nil {
		return status.Error(codes.FailedPrecondition, *msg)
	}
	if len(req.GetUnionReplace()) > 0 {
		return status.Error(codes.Unimplemented, "union_replace is not supported")
	}
	return nil
}

// Name is the device name, e.g. "openconfig-1" or "sonic-1".
func (e *Endpoint) Name() string { return e.name }

// Address is the host:port the switch listens on.
func (e *Endpoint) Address() string { return e.addr }

// FailNextSet makes the next Set fail with codes.FailedPrecondition and msg,
// changing nothing, as a device does when its configuration is locked by
// another session. The Set after that behaves normally.
func (e *Endpoint) FailNextSet(msg string) { e.failNext.Store(&msg) }

// Counters returns how many RPCs and connections the switch has received.
func (e *Endpoint) Counters() Counters { return e.counters.snapshot() }

// DeviceCounters: requests are gNMI RPCs, reads Get and Subscribe, writes Set.
func (e *Endpoint) DeviceCounters() device.Counters {
	c := e.Counters()
	return device.Counters{Connections: c.Connections, Requests: c.Get + c.Set + c.Subscribe + c.Capabilities,
		Reads: c.Get + c.Subscribe, Writes: c.Set}
}

// ResetCounters sets every counter back to zero, e.g. between benchmark runs.
func (e *Endpoint) ResetCounters() { e.counters.reset() }
