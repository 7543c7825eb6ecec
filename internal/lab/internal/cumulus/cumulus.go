// Package cumulus is the lab's `cumulus` switch: NVUE's REST API over HTTPS with the lab's CA
// and basic authentication, in front of room nvued, with fault injection per request
// (internal/lab/cumulus-switch.md).
package cumulus

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/nvued"
)

// Switch is a `cumulus` switch (lab.CumulusSwitch) as NVUE's REST API presents one: HTTPS with the lab's
// CA and basic authentication in front of internal/lab/internal/nvued (cumulus-switch.md).
type Switch struct {
	name, addr string
	ports      []string
	api        *nvued.Switch
	srv        *http.Server
	done       chan struct{}
	inv        device.Entry
	faults     fault.Set
	conns      fault.Conns

	tally device.Tally // requests are HTTP requests past TLS, reads configuration GETs
}

// Start starts a `cumulus` switch listening on 127.0.0.1; it serves until Stop.
func Start(spec device.Spec) (device.Device, error) {
	cert, err := spec.CA.ServerCertificate(spec.Name)
	if err != nil {
		return nil, err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	sw := &Switch{name: spec.Name, addr: lis.Addr().String(), done: make(chan struct{})}
	for i := 1; i <= spec.Ports; i++ {
		sw.ports = append(sw.ports, fmt.Sprintf("swp%d", i))
	}
	sw.api = nvued.New(nvued.Options{Hostname: spec.Name, Ports: sw.ports, Username: spec.Username, Password: spec.Password,
		Latency: spec.Latency, Neighbors: func() map[string]nvued.Neighbor { return nvueNeighbors(spec.Wires, spec.Name) }})
	sw.srv = &http.Server{Handler: http.HandlerFunc(sw.serve), ReadHeaderTimeout: 10 * time.Second,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	sw.inv = device.Entry{Address: sw.addr, Platform: spec.Platform, Username: spec.Username, Password: spec.Password,
		CACertificate: string(spec.CA.PEM)}
	go func() {
		defer close(sw.done)
		// ServeTLS returns ErrServerClosed when stop closes the server.
		_ = sw.srv.ServeTLS(fault.Listener{Listener: device.CountingListener{Listener: lis, N: &sw.tally.Connections},
			Faults: &sw.faults, Conns: &sw.conns}, "", "")
	}()
	return sw, nil
}

// nvueNeighbors is what each of the switch's ports hears, in NVUE's terms (cumulus-switch.md,
// LLDP).
func nvueNeighbors(wires *cabling.Panel, name string) map[string]nvued.Neighbor {
	out := map[string]nvued.Neighbor{}
	for port, ad := range wires.Heard(name) {
		out[port] = nvued.Neighbor{SystemName: ad.SystemName, ChassisID: cabling.MACColons(ad.ChassisMAC), PortName: ad.PortID,
			PortDescription: ad.PortDescr, PortType: ad.PortIDType}
	}
	return out
}

// serve counts a request that got through TLS, applies the switch's faults (fault.go),
// then answers it as NVUE.
func (sw *Switch) serve(w http.ResponseWriter, r *http.Request) {
	sw.tally.Requests.Add(1)
	if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/nvue_v1/revision") {
		sw.tally.Reads.Add(1)
	}
	sw.fault(r)
	sw.api.ServeHTTP(w, r)
}

// DeviceCounters: requests are HTTP requests past TLS; reads the GETs of configuration (not
// the polls of a revision's state).
func (sw *Switch) DeviceCounters() device.Counters { return sw.tally.Counters() }

// ResetCounters sets the request and connection counters back to zero.
func (sw *Switch) ResetCounters() { sw.tally.Reset() }

// Entry is the switch's inventory entry.
func (sw *Switch) Entry() device.Entry { return sw.inv }

// Interfaces are the front-panel ports, swp1..swpN.
func (sw *Switch) Interfaces() []string { return slices.Clone(sw.ports) }

// Stop closes the server and every connection, and waits for it to end.
func (sw *Switch) Stop() {
	sw.faults.Stop()
	_ = sw.srv.Close()
	<-sw.done
}

// Name is the device name, e.g. "cumulus-1".
func (sw *Switch) Name() string { return sw.name }

// Address is the host:port NVUE's API listens on.
func (sw *Switch) Address() string { return sw.addr }

// Applied returns a copy of the switch's applied NVUE configuration.
func (sw *Switch) Applied() map[string]any { return sw.api.Applied() }

// Revisions returns the state of each NVUE revision the switch holds, by id ("applied",
// "invalid", "pending", ...).
func (sw *Switch) Revisions() map[string]string { return sw.api.Revisions() }

// RejectApplies makes every later revision fail at apply with NVUE's config_invalid issue and
// reason, changing nothing; "" ends it.
func (sw *Switch) RejectApplies(reason string) { sw.api.Reject(reason) }

// Storm starts or stops a PFC pause storm on a port: while on, the link partner pauses the
// switch priorities of the port's PFC profile, ECN marks grow faster on its congestion-control
// traffic classes and the other queues discard (nvued's counters).
func (sw *Switch) Storm(ifname string, on bool) error {
	if !sw.api.Storm(ifname, on) {
		return fmt.Errorf("%s has no interface %q (interfaces: %s)", sw.name, ifname, strings.Join(sw.ports, ", "))
	}
	return nil
}
