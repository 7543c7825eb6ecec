package devices

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/nvue"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/tlsconf"
)

// Registry holds the resolved devices and their sessions. Sessions open on first use, never at
// construction, and are shared by every resource of the provider process.
type Registry struct {
	devices map[string]Device
	logger  Logger

	mu   sync.Mutex
	gnmi map[string]*gnmi.Client
	ssh  map[string]*ssh.Client
	cli  map[string]*cli.Client
	nvue map[string]*nvue.Client
	// turns hold each device's write turn (Exclusive).
	turns map[string]*writeTurn
	// queues hold each device's queued writes by kind (Write).
	queues map[string]any

	snaps snapshots
}

// Logger receives transport events (the provider bridges it to tflog); it satisfies every
// transport's logger interface.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
}

// TransportLogger is a Logger that can name the transport its events come from (tflog
// subsystems gnmi, ssh, cli).
type TransportLogger interface {
	Logger
	ForTransport(transport string) Logger
}

// loggerFor returns the logger for one transport's events.
func (r *Registry) loggerFor(transport string) Logger {
	if tl, ok := r.logger.(TransportLogger); ok {
		return tl.ForTransport(transport)
	}
	return r.logger
}

// NewRegistry returns a registry over resolved devices.
func NewRegistry(devs map[string]Device, logger Logger) *Registry {
	return &Registry{devices: devs, logger: logger, gnmi: map[string]*gnmi.Client{}, ssh: map[string]*ssh.Client{}, cli: map[string]*cli.Client{},
		nvue: map[string]*nvue.Client{}}
}

// Device returns a configured device by name.
func (r *Registry) Device(name string) (Device, bool) {
	d, ok := r.devices[name]
	return d, ok
}

// Names lists the configured devices, sorted.
func (r *Registry) Names() []string { return slices.Sorted(maps.Keys(r.devices)) }

// UnknownDeviceDetail explains a reference to a device that is not configured.
func (r *Registry) UnknownDeviceDetail(name string) string {
	names := r.Names()
	if len(names) == 0 {
		return fmt.Sprintf("Device %q is not in the provider's `devices` map, which is empty. Add it there with its address and platform.", name)
	}
	return fmt.Sprintf("Device %q is not in the provider's `devices` map (configured: %s). Add it there, or fix the name.", name, strings.Join(names, ", "))
}

// shared returns device name's client from *cache (read under the lock: Close replaces the
// maps), opening it on first use. A device reached over another transport is refused with
// notOver ("device %q has platform %s, which " + notOver).
func shared[C any](r *Registry, name, transport, notOver string, cache *map[string]C, open func(Device) C) (C, error) {
	var none C
	d, ok := r.devices[name]
	if !ok {
		return none, fmt.Errorf("%s", r.UnknownDeviceDetail(name))
	}
	if Transport(d.Platform) != transport {
		return none, fmt.Errorf("device %q has platform %s, which %s", name, d.Platform, notOver)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := (*cache)[name]; ok {
		return c, nil
	}
	c := open(d)
	(*cache)[name] = c
	return c, nil
}

// tlsEndpoint is how device name is reached over TLS (gNMI, NVUE).
func tlsEndpoint(name string, d Device) tlsconf.Endpoint {
	return tlsconf.Endpoint{Device: name, Address: d.Address, Username: d.Username, Password: d.Password,
		CACertificate: []byte(d.CACertificate), Insecure: d.Insecure}
}

// GNMI returns the shared gNMI client of a gNMI device.
func (r *Registry) GNMI(name string) (*gnmi.Client, error) {
	return shared(r, name, "gnmi", "is not reached over gNMI", &r.gnmi, func(d Device) *gnmi.Client {
		return gnmi.New(gnmi.Config{Endpoint: tlsEndpoint(name, d), Target: d.GNMITarget,
			Attempts: d.attempts(), Logger: r.loggerFor("gnmi")})
	})
}

// NVUE returns the shared NVUE REST client of a Cumulus Linux switch.
func (r *Registry) NVUE(name string) (*nvue.Client, error) {
	return shared(r, name, "nvue", "is not reached over NVUE", &r.nvue, func(d Device) *nvue.Client {
		return nvue.New(nvue.Config{Endpoint: tlsEndpoint(name, d), Timeout: d.Timeout, Retries: d.Retries, Logger: r.loggerFor("nvue")})
	})
}

// attempts is how the device's SSH and gNMI transports try an operation: its timeout and
// retries, the backoff the transports' own.
func (d Device) attempts() retry.Attempts {
	return retry.Attempts{Timeout: d.Timeout, Retries: d.Retries}
}

// sshConfig is how device name is reached over SSH, logging as transport. Without a pinned
// host key or a known_hosts file the user's ~/.ssh/known_hosts verifies the host.
func (r *Registry) sshConfig(name string, d Device, transport string) ssh.Config {
	known := d.KnownHostsFile
	if known == "" && d.HostKey == "" {
		known = "~/.ssh/known_hosts"
	}
	return ssh.Config{
		Device: name, Address: d.Address, Username: d.Username, Password: d.Password,
		PrivateKey: []byte(d.PrivateKey), HostKey: d.HostKey, KnownHostsFile: known,
		Insecure: d.Insecure, Attempts: d.attempts(), Logger: r.loggerFor(transport),
	}
}

// SSH returns the shared SSH client of a host reached over SSH (platform mlx5).
func (r *Registry) SSH(name string) (*ssh.Client, error) {
	return shared(r, name, "ssh", "is not a host reached over SSH", &r.ssh, func(d Device) *ssh.Client {
		return ssh.New(r.sshConfig(name, d, "ssh"))
	})
}

// scrapliPlatforms names scrapligo's platform definition of each CLI platform.
var scrapliPlatforms = map[string]string{"eos": "arista_eos", "nxos": "cisco_nxos"}

// CLI returns the shared CLI session of a switch configured over SSH (platforms eos, nxos).
func (r *Registry) CLI(name string) (*cli.Client, error) {
	return shared(r, name, "cli", "is not configured over a CLI", &r.cli, func(d Device) *cli.Client {
		return cli.New(cli.Config{Config: r.sshConfig(name, d, "cli"), Platform: scrapliPlatforms[d.Platform], SaveConfig: d.SaveConfig})
	})
}

// Close closes every open session.
func (r *Registry) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.gnmi))
	for n := range r.gnmi {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		_ = r.gnmi[n].Close()
	}
	r.gnmi = map[string]*gnmi.Client{}
	for _, c := range r.ssh {
		_ = c.Close()
	}
	r.ssh = map[string]*ssh.Client{}
	for _, c := range r.cli {
		_ = c.Close()
	}
	r.cli = map[string]*cli.Client{}
	for _, c := range r.nvue {
		_ = c.Close()
	}
	r.nvue = map[string]*nvue.Client{}
}
