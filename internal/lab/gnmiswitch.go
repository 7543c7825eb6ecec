package lab

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lgnmi "github.com/openconfig/lemming/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// GNMISwitch is an `openconfig` switch: a gNMI server over TLS whose datastore
// is openconfig/lemming's, so every Set is validated against the OpenConfig
// schema and rolled back whole when any part of it is invalid.
type GNMISwitch struct {
	name  string
	addr  string
	ports []string
	inv   DeviceEntry

	srv     *grpc.Server
	store   *lgnmi.Server
	stopped chan struct{}

	// mu makes each Set atomic with respect to Get: Get reads the datastore
	// leaf by leaf and must not see half of a Set.
	mu       sync.RWMutex
	failNext atomic.Pointer[string]
	counters rpcCounters
	traffic  switchCounters // interface and queue counters (gnmicounters.go), under mu
}

func startGNMISwitch(spec deviceSpec) (device, error) {
	cert, err := spec.ca.serverCertificate(spec.name)
	if err != nil {
		return nil, err
	}
	// lemming registers its own server on the grpc.Server it is given; ours
	// is registered on the real one instead, so lemming gets a throwaway.
	store, err := lgnmi.New(grpc.NewServer(), spec.name, nil)
	if err != nil {
		return nil, fmt.Errorf("gNMI datastore: %w", err)
	}
	sw := &GNMISwitch{
		name:    spec.name,
		ports:   ethernetNames(spec.ports),
		store:   store,
		stopped: make(chan struct{}),
	}
	sw.traffic = newSwitchCounters(sw.ports)
	if err := sw.addInterfaces(); err != nil {
		return nil, err
	}

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	g := &guard{username: spec.username, password: spec.password, latency: spec.latency, counters: &sw.counters}
	sw.srv = grpc.NewServer(
		grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})),
		grpc.ChainUnaryInterceptor(g.unary),
		grpc.ChainStreamInterceptor(g.stream),
	)
	gpb.RegisterGNMIServer(sw.srv, &gnmiService{Server: store, sw: sw})
	sw.addr = lis.Addr().String()
	sw.inv = DeviceEntry{
		Address:       sw.addr,
		Platform:      spec.platform,
		Username:      spec.username,
		Password:      spec.password,
		CACertificate: string(spec.ca.pem),
	}
	go func() {
		defer close(sw.stopped)
		_ = sw.srv.Serve(countingListener{Listener: lis, n: &sw.counters.connections})
	}()
	return sw, nil
}

// addInterfaces creates the front-panel ports as a real switch boots with
// them, so QoS configuration can reference existing interfaces.
func (sw *GNMISwitch) addInterfaces() error {
	type config struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		Enabled bool   `json:"enabled"`
	}
	type entry struct {
		Name   string `json:"name"`
		Config config `json:"config"`
	}
	req := &gpb.SetRequest{Prefix: &gpb.Path{Origin: lgnmi.OpenConfigOrigin}}
	for _, name := range sw.ports {
		body, err := json.Marshal(entry{Name: name, Config: config{Name: name, Type: "iana-if-type:ethernetCsmacd", Enabled: true}})
		if err != nil {
			return err
		}
		req.Update = append(req.Update, &gpb.Update{
			Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}},
			Val:  &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: body}},
		})
	}
	if _, err := sw.store.Set(context.Background(), req); err != nil {
		return fmt.Errorf("create interfaces: %w", err)
	}
	return nil
}

func (sw *GNMISwitch) entry() DeviceEntry   { return sw.inv }
func (sw *GNMISwitch) interfaces() []string { return slices.Clone(sw.ports) }

// stop closes the listener and every open stream at once: a long-lived
// Subscribe would make a graceful stop wait forever.
func (sw *GNMISwitch) stop() {
	sw.srv.Stop()
	<-sw.stopped
}

// Name is the device name, e.g. "openconfig-1".
func (sw *GNMISwitch) Name() string { return sw.name }

// Address is the host:port the switch listens on.
func (sw *GNMISwitch) Address() string { return sw.addr }

// FailNextSet makes the next Set fail with codes.FailedPrecondition and msg,
// changing nothing, as a device does when its configuration is locked by
// another session. The Set after that behaves normally.
func (sw *GNMISwitch) FailNextSet(msg string) { sw.failNext.Store(&msg) }

// Counters returns how many RPCs and connections the switch has received.
func (sw *GNMISwitch) Counters() Counters { return sw.counters.snapshot() }

// ResetCounters sets every counter back to zero, e.g. between benchmark runs.
func (sw *GNMISwitch) ResetCounters() { sw.counters.reset() }
