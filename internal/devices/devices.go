// Package devices resolves the provider's device inventory (defaults, per-device overrides and
// environment variables) and keeps one lazily opened session per device for the life of the
// provider process.
package devices

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Platforms, in the order the docs list them.
var Platforms = []string{"openconfig", "sonic", "eos", "nxos", "cumulus", "mlx5"}

// Transport names how a platform is reached.
func Transport(platform string) string {
	switch platform {
	case "openconfig", "sonic":
		return "gnmi"
	case "eos", "nxos":
		return "cli"
	case "mlx5":
		return "ssh"
	case "cumulus":
		return "nvue"
	}
	return ""
}

// OverTLS reports whether a platform's transport is TLS (gNMI, NVUE's HTTPS), whose check
// `insecure` turns off; the others are SSH, checked by host key.
func OverTLS(platform string) bool {
	t := Transport(platform)
	return t == "gnmi" || t == "nvue"
}

// Environment variables that supply provider-wide credentials.
const (
	EnvUsername   = "ROCE_USERNAME"
	EnvPassword   = "ROCE_PASSWORD"
	EnvPrivateKey = "ROCE_PRIVATE_KEY"
)

// DefaultTimeout and DefaultRetries apply when the configuration leaves them out.
const (
	DefaultTimeout = 30 * time.Second
	DefaultRetries = 3
)

// NamePattern is what a device name may look like: it is the first part of every import ID,
// which splits on the first "/".
var NamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$`)

// Settings are the provider-wide values; a nil pointer means "not configured".
type Settings struct {
	Username       *string
	Password       *string
	PrivateKey     *string
	KnownHostsFile *string
	CACertificate  *string
	// Insecure skips TLS verification (gNMI devices); InsecureHostKey skips SSH host-key
	// verification (CLI switches and hosts). Two flags, so turning one off never turns off
	// the other.
	Insecure        *bool
	InsecureHostKey *bool
	Timeout         *string
	Retries         *int64
	// PerResourceReads turns the per-process read snapshots off: one read per resource.
	PerResourceReads *bool
}

// Spec is one entry of the `devices` map; nil pointers inherit the provider-wide value.
type Spec struct {
	Address         string
	Platform        string
	Username        *string
	Password        *string
	PrivateKey      *string
	CACertificate   *string
	HostKey         *string
	Insecure        *bool
	InsecureHostKey *bool
	GNMITarget      *string
	Sudo            *bool
	SaveConfig      *bool
	// PerResourceReads overrides the provider-wide setting for this device.
	PerResourceReads *bool
	// Model is the device's hardware model or SKU, as configured (informational).
	Model *string
	// Hostname is the name the device's LLDP neighbours see (its system name), where the
	// device does not report it or reports another one.
	Hostname *string
}

// Device is a fully resolved device.
type Device struct {
	Name           string
	Address        string
	Platform       string
	Username       string
	Password       string
	PrivateKey     string
	KnownHostsFile string
	CACertificate  string
	HostKey        string
	// Insecure: the device's identity is not verified (its transport's check is off: TLS for
	// gNMI, the host key for SSH), from insecure or insecure_host_key.
	Insecure   bool
	GNMITarget string
	Sudo       bool
	// SaveConfig saves the running configuration to startup after each change (CLI switches).
	SaveConfig bool
	// PerResourceReads makes every resource read the device itself instead of sharing the
	// process's one read of the device (for devices that cannot answer large reads).
	PerResourceReads bool
	// Model is the configured hardware model or SKU ("" when not set).
	Model string
	// Hostname, when set, stands in for the system name the device reports (LLDP links).
	Hostname string
	Timeout  time.Duration
	Retries  int
}

// Problem is a configuration error, attached to an attribute path of the provider block:
// Attr is the top-level attribute and Device (when set) the key in `devices`.
type Problem struct {
	Attr    string
	Device  string
	Field   string
	Summary string
	Detail  string
}

// Resolve merges provider-wide settings, environment variables and per-device overrides.
// Precedence: device override, then provider attribute, then environment variable.
func Resolve(s Settings, specs map[string]Spec, getenv func(string) string) (map[string]Device, []Problem) {
	var probs []Problem
	timeout := DefaultTimeout
	if s.Timeout != nil {
		d, err := time.ParseDuration(*s.Timeout)
		if err != nil || d <= 0 {
			probs = append(probs, Problem{Attr: "timeout", Summary: "Invalid timeout",
				Detail: fmt.Sprintf("timeout %q is not a positive duration such as \"30s\" or \"2m\".", *s.Timeout)})
		} else {
			timeout = d
		}
	}
	retries := DefaultRetries
	if s.Retries != nil {
		if *s.Retries < 0 || *s.Retries > 10 {
			probs = append(probs, Problem{Attr: "retries", Summary: "Invalid retries",
				Detail: fmt.Sprintf("retries is %d; use 0 to 10.", *s.Retries)})
		} else {
			retries = int(*s.Retries)
		}
	}
	base := Device{
		Username:       pick(s.Username, getenv(EnvUsername)),
		Password:       pick(s.Password, getenv(EnvPassword)),
		PrivateKey:     pick(s.PrivateKey, getenv(EnvPrivateKey)),
		KnownHostsFile: pick(s.KnownHostsFile, ""),
		CACertificate:  pick(s.CACertificate, ""),
		Timeout:        timeout,
		Retries:        retries,
	}
	if s.PerResourceReads != nil {
		base.PerResourceReads = *s.PerResourceReads
	}
	out := make(map[string]Device, len(specs))
	for _, name := range slices.Sorted(maps.Keys(specs)) {
		sp := specs[name]
		if !NamePattern.MatchString(name) {
			probs = append(probs, Problem{Attr: "devices", Device: name, Summary: "Invalid device name",
				Detail: fmt.Sprintf("Device name %q must start with a letter or digit and hold only letters, digits, '_', '.', ':' and '-' (no '/': resource IDs are <device>/<name>), at most 63 characters.", name)})
			continue
		}
		if Transport(sp.Platform) == "" {
			probs = append(probs, Problem{Attr: "devices", Device: name, Field: "platform", Summary: "Unknown platform",
				Detail: fmt.Sprintf("Device %q has platform %q; use one of %s.", name, sp.Platform, strings.Join(Platforms, ", "))})
			continue
		}
		if sp.Address == "" {
			probs = append(probs, Problem{Attr: "devices", Device: name, Field: "address", Summary: "Missing address",
				Detail: fmt.Sprintf("Device %q needs an address such as \"10.0.0.1:9339\".", name)})
			continue
		}
		d := base
		d.Name, d.Address, d.Platform = name, sp.Address, sp.Platform
		d.Username = pick(sp.Username, d.Username)
		d.Password = pick(sp.Password, d.Password)
		d.PrivateKey = pick(sp.PrivateKey, d.PrivateKey)
		d.CACertificate = pick(sp.CACertificate, d.CACertificate)
		d.HostKey = pick(sp.HostKey, "")
		d.GNMITarget = pick(sp.GNMITarget, "")
		d.Model = pick(sp.Model, "")
		d.Hostname = pick(sp.Hostname, "")
		var flag, other *bool
		var flagName, otherName, kind string
		if OverTLS(sp.Platform) {
			kind = "gNMI over TLS"
			if Transport(sp.Platform) == "nvue" {
				kind = "HTTPS (NVUE)"
			}
			flag, other, flagName, otherName = first(sp.Insecure, s.Insecure), sp.InsecureHostKey, "insecure", "insecure_host_key"
		} else {
			flag, other, flagName, otherName, kind = first(sp.InsecureHostKey, s.InsecureHostKey), sp.Insecure, "insecure_host_key", "insecure", "SSH"
		}
		if other != nil {
			probs = append(probs, Problem{Attr: "devices", Device: name, Field: otherName, Summary: otherName + " does not apply to this device",
				Detail: fmt.Sprintf("Device %q (platform %s) is reached over %s: %s turns off its identity check. %s is for %s devices.",
					name, sp.Platform, kind, flagName, otherName, map[string]string{"insecure": "TLS (gNMI, NVUE)", "insecure_host_key": "SSH"}[otherName])})
			continue
		}
		d.Insecure = flag != nil && *flag
		d.Sudo = sp.Sudo != nil && *sp.Sudo
		d.SaveConfig = sp.SaveConfig != nil && *sp.SaveConfig
		if sp.PerResourceReads != nil {
			d.PerResourceReads = *sp.PerResourceReads
		}
		out[name] = d
	}
	return out, probs
}

// InsecureDevices lists, sorted, the devices whose TLS or host-key verification is off.
func InsecureDevices(devs map[string]Device) []string {
	var out []string
	for name, d := range devs {
		if d.Insecure {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func pick(v *string, fallback string) string {
	if v != nil {
		return *v
	}
	return fallback
}

func first(a, b *bool) *bool {
	if a != nil {
		return a
	}
	return b
}
