// Package lab runs a simulated RoCE fabric on 127.0.0.1 for the demo, the
// acceptance tests and the benchmarks. Devices speak the same protocols as
// real ones (gNMI over TLS for `openconfig` and `sonic` switches) so that any
// standard client, not only the provider, can configure and read them.
//
// Logging: the gNMI datastore (openconfig/lemming and openconfig/gnmi's
// subscribe server) logs through glog, which writes files under os.TempDir()
// unless the process sets glog's -log_dir flag; rocelab points it at the lab
// directory.
package lab

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Options says which devices to start.
type Options struct {
	Switches map[string]int // platform -> count, e.g. {"openconfig": 2}
	Hosts    map[string]int // platform -> count, e.g. {"mlx5": 2}
	Ports    int            // interfaces per switch; 0 means 8
	NICPorts int            // netdevs per NIC host; 0 means 2
	Latency  time.Duration  // added before every RPC, to model a remote device
	// Models picks the model of each platform's devices, e.g. {"sonic": "Arista-7060CX-32S-C32"};
	// a platform left out gets its default. The inventory names it ("model").
	Models map[string]string
	// Cables replaces the default cabling (cabling.Panel.DefaultCables: host NICs to switch ports,
	// switches chained) when not nil; each device answers LLDP reads with its cables.
	Cables []Cable
	Dir    string // if set, Start writes inventory.json and ca.pem there
}

// DefaultPorts is the number of switch interfaces when Options.Ports is 0.
const DefaultPorts = 8

// Username is the login of every lab device.
const Username = "admin"

// Lab is a running set of simulated devices.
type Lab struct {
	ca       *pki.Authority
	names    []string // sorted
	devices  map[string]labDevice
	wires    *cabling.Panel
	stopOnce sync.Once
}

// Start starts every requested device on 127.0.0.1 with an OS-chosen port and
// returns once all of them accept connections. ctx bounds the start only; the
// devices run until Stop. Either every device starts or none is left running.
func Start(ctx context.Context, opts Options) (*Lab, error) {
	specs, err := plan(opts)
	if err != nil {
		return nil, err
	}
	ca, err := pki.NewAuthority()
	if err != nil {
		return nil, err
	}
	password, err := newPassword()
	if err != nil {
		return nil, err
	}
	l := &Lab{ca: ca, devices: make(map[string]labDevice, len(specs)), wires: cabling.NewPanel()}
	room := &traffic.Room{}

	// Devices start in parallel: a gNMI switch spends seconds building its
	// OpenConfig schema, and a lab of several switches should not pay that
	// serially.
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, s := range specs {
		s.spec.CA, s.spec.Username, s.spec.Password, s.spec.Wires, s.spec.Perftest = ca, Username, password, l.wires, room
		wg.Go(func() {
			d, err := s.start(s.spec)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", s.spec.Name, err))
				return
			}
			l.devices[s.spec.Name] = d
		})
	}
	wg.Wait()
	l.names = slices.Sorted(maps.Keys(l.devices))
	if err := errors.Join(errs...); err != nil {
		l.Stop()
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		l.Stop()
		return nil, err
	}
	for _, d := range l.devices {
		if h, ok := d.(*Host); ok {
			h.SetFabric(l.device)
		}
	}
	if err := l.cable(specs, opts.Cables); err != nil {
		l.Stop()
		return nil, err
	}
	if opts.Dir != "" {
		if err := writeFiles(opts.Dir, l.Inventory(), ca.PEM); err != nil {
			l.Stop()
			return nil, err
		}
	}
	return l, nil
}

type plannedDevice struct {
	spec  device.Spec
	start func(device.Spec) (labDevice, error)
}

// plan validates the whole request before anything starts, so a typo in the
// last platform does not leave half a lab behind.
func plan(opts Options) ([]plannedDevice, error) {
	ports := map[cabling.Role]int{cabling.Switch: opts.Ports, cabling.Host: opts.NICPorts}
	for role, def := range map[cabling.Role]int{cabling.Switch: DefaultPorts, cabling.Host: DefaultNICPorts} {
		switch {
		case ports[role] == 0:
			ports[role] = def
		case ports[role] < 0:
			return nil, fmt.Errorf("ports must be positive, got %d", ports[role])
		}
	}
	if opts.Latency < 0 {
		return nil, fmt.Errorf("latency must not be negative, got %s", opts.Latency)
	}
	for _, platform := range slices.Sorted(maps.Keys(opts.Models)) {
		if opts.Switches[platform] == 0 && opts.Hosts[platform] == 0 {
			return nil, fmt.Errorf("a model is given for platform %s, but no %s device is requested", platform, platform)
		}
	}
	var out []plannedDevice
	for _, group := range []struct {
		role   cabling.Role
		counts map[string]int
	}{{cabling.Switch, opts.Switches}, {cabling.Host, opts.Hosts}} {
		for _, platform := range slices.Sorted(maps.Keys(group.counts)) {
			count := group.counts[platform]
			if count < 0 {
				return nil, fmt.Errorf("platform %s: count must not be negative, got %d", platform, count)
			}
			if count == 0 {
				continue
			}
			start, err := lookupPlatform(platform, group.role)
			if err != nil {
				return nil, err
			}
			model, err := lookupModel(platform, opts.Models[platform])
			if err != nil {
				return nil, err
			}
			for n := 1; n <= count; n++ {
				out = append(out, plannedDevice{start: start, spec: device.Spec{
					Name:     fmt.Sprintf("%s-%d", platform, n),
					Platform: platform,
					Ports:    ports[group.role],
					Model:    model,
					Latency:  opts.Latency,
				}})
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no devices requested: set Switches or Hosts")
	}
	return out, nil
}

// cable plugs in the lab's cables: the given ones, or the default cabling.
func (l *Lab) cable(specs []plannedDevice, cables []Cable) error {
	for _, s := range specs {
		def := platforms[s.spec.Platform]
		l.wires.Add(s.spec.Name, cabling.Device{Platform: s.spec.Platform, Role: def.role, Ports: l.devices[s.spec.Name].Interfaces()})
	}
	if cables == nil {
		cables = l.wires.DefaultCables()
	}
	return l.wires.Connect(cables)
}

// newPassword is random per lab start so that an inventory from an old lab
// never logs into a new one.
func newPassword() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("password: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Stop stops every device. It is safe to call more than once.
func (l *Lab) Stop() {
	l.stopOnce.Do(func() {
		for _, d := range l.devices {
			d.Stop()
		}
	})
}

// Inventory describes the running devices in the contract's inventory.json
// shape.
func (l *Lab) Inventory() Inventory {
	inv := Inventory{
		Devices:    make(map[string]DeviceEntry, len(l.devices)),
		Interfaces: make(map[string][]string, len(l.devices)),
	}
	for name, d := range l.devices {
		inv.Devices[name] = d.Entry()
		inv.Interfaces[name] = d.Interfaces()
	}
	inv.Links = l.Cables()
	return inv
}

// device is the running device named name (nil when none): a host's perftest reads the
// switches on its path.
func (l *Lab) device(name string) labDevice { return l.devices[name] }

// deviceAs is the device with that name if it is a D (a platform's device type), or nil.
func deviceAs[D labDevice](l *Lab, name string) D {
	d, _ := l.devices[name].(D)
	return d
}

// Devices returns the device names, sorted.
func (l *Lab) Devices() []string { return slices.Clone(l.names) }

// CAPEM returns the PEM certificate of the CA that signed every TLS device.
func (l *Lab) CAPEM() []byte { return slices.Clone(l.ca.PEM) }

// Switch returns the gNMI switch with that name, or nil if there is none.
func (l *Lab) Switch(name string) *GNMISwitch { return deviceAs[*GNMISwitch](l, name) }

// SONiC returns the `sonic` switch with that name, or nil if there is none.
func (l *Lab) SONiC(name string) *SONiCSwitch { return deviceAs[*SONiCSwitch](l, name) }

// EOS returns the `eos` switch with that name, or nil if there is none.
func (l *Lab) EOS(name string) *EOSSwitch { return deviceAs[*EOSSwitch](l, name) }

// NXOS returns the `nxos` switch with that name, or nil if there is none.
func (l *Lab) NXOS(name string) *NXOSSwitch { return deviceAs[*NXOSSwitch](l, name) }

// Host returns the NIC host with that name, or nil if there is none.
func (l *Lab) Host(name string) *Host { return deviceAs[*Host](l, name) }

// KeepLogsIn points the OpenConfig datastore's glog output at dir instead of the system temp
// directory. Call it before Start (test mains and rocelab do).
func KeepLogsIn(dir string) {
	_ = flag.Set("log_dir", dir)
}
