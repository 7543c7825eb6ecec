// Package device is what every device of the lab is built from and named by, whatever its
// family: the spec a constructor gets, the inventory entry it gives back, and the port and
// model naming the platforms share.
package device

import (
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Entry is one device as the provider configuration names it (lab.DeviceEntry).
type Entry struct {
	Address       string `json:"address"`
	Platform      string `json:"platform"`
	Username      string `json:"username"`
	Password      string `json:"password"`
	CACertificate string `json:"ca_certificate,omitempty"` // gNMI devices
	HostKey       string `json:"host_key,omitempty"`       // SSH devices
	Sudo          bool   `json:"sudo,omitempty"`           // mlx5 hosts
	Model         string `json:"model,omitempty"`          // the simulated model or SKU, where the platform has several
}

// Spec is everything a constructor gets: identity, credentials and the
// lab-wide knobs. Constructors listen before returning.
type Spec struct {
	Name     string // <platform>-<n>
	Platform string
	Ports    int    // switch front-panel ports, or a NIC host's netdevs
	Model    string // the model (SKU) simulated, for platforms with several
	Latency  time.Duration
	Username string
	Password string
	CA       *pki.Authority
	Wires    *cabling.Panel // what each port hears over LLDP
	Perftest *traffic.Room  // where hosts' perftest servers and clients meet
}

// ModelNames lists the names of a platform's model table, the default first.
func ModelNames[M any](models []M, name func(M) string) []string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = name(m)
	}
	return out
}

// ModelOf is the model named name in a platform's table, the default (first) when there is
// none: lookupModel has checked the name.
func ModelOf[M any](models []M, name func(M) string, want string) M {
	for _, m := range models {
		if name(m) == want {
			return m
		}
	}
	return models[0]
}

// EthernetNames is the front-panel naming of platforms that call ports
// Ethernet1..EthernetN.
func EthernetNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Ethernet%d", i+1)
	}
	return names
}

// EthernetSlotNames is the front-panel naming of platforms that number ports within a slot,
// Ethernet1/1..Ethernet1/N (NX-OS).
func EthernetSlotNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Ethernet1/%d", i+1)
	}
	return names
}

// Device is what package lab needs from every simulated device, whatever its family; each
// family's room exports a constructor returning one.
type Device interface {
	Entry() Entry
	// Interfaces are the device's ports (a switch's front panel, a NIC host's netdevs).
	Interfaces() []string
	// Stop closes the device's listener and connections, and waits for its servers to end.
	Stop()
}

// FaultTarget is what every device offers to fault injection (package lab's InjectFault).
type FaultTarget interface {
	FaultSet() *fault.Set
	// CloseConns closes every open connection of the device (fault.Refuse).
	CloseConns()
}

// Counters are the connections a device accepted and the requests it received
// (lab.DeviceCounters documents what each platform counts).
type Counters struct {
	Connections int64
	Requests    int64
	Reads       int64
	Writes      int64
}

// Tally is what a device counts as it serves, behind its DeviceCounters and ResetCounters:
// the connections it accepted (CountingListener's or the SSH server's N), the requests it
// answered and the reads among them.
type Tally struct {
	Connections, Requests, Reads atomic.Int64
}

// Counters are the counts now (Writes is not tallied).
func (t *Tally) Counters() Counters {
	return Counters{Connections: t.Connections.Load(), Requests: t.Requests.Load(), Reads: t.Reads.Load()}
}

// Reset sets every count back to zero.
func (t *Tally) Reset() {
	t.Connections.Store(0)
	t.Requests.Store(0)
	t.Reads.Store(0)
}

// Counted is what every platform's device offers to lab.DeviceCounters.
type Counted interface {
	DeviceCounters() Counters
	ResetCounters()
}

// CountingListener counts accepted connections in N: a client that redials per
// operation shows up here, not in the RPC counts.
type CountingListener struct {
	net.Listener
	N *atomic.Int64
}

// Accept counts the connection it returns.
func (l CountingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.N.Add(1)
	}
	return c, err
}
