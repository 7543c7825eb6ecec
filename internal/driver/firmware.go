package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
)

// Patterns of roce_nic_firmware's names and values: the ones the platform sends (the provider
// declares them as schema validators, so the docs list them).
var (
	FirmwareName  = mlx5.FirmwareName
	FirmwareValue = mlx5.FirmwareValue
)

// FirmwareEqual reports whether a configured value means what the device shows (by number or
// enum name).
func FirmwareEqual(want, shown string) bool { return mlx5.FirmwareEqual(want, shown) }

// FirmwareConfig is what roce_nic_firmware manages: Next Boot values by parameter name, and
// what the device shows of them.
type FirmwareConfig struct {
	Interface string
	// Parameters are the configured values (as written: "ETH(2)", "2", "eth", "True"); on a
	// read, a value the device does not match is replaced by the device's rendering.
	Parameters map[string]string
	// Current are the values the running firmware loaded, as the tool prints them.
	Current map[string]string
	// PendingReboot: a managed Next Boot value differs from Current.
	PendingReboot bool
	Tool          string
}

// Firmware manages roce_nic_firmware on one host.
type Firmware struct{ h *mlx5Host }

// ForFirmware returns the roce_nic_firmware driver of a configured host.
func ForFirmware(reg *devices.Registry, device string) (*Firmware, error) {
	return over(openHost, func(h *mlx5Host) *Firmware { return &Firmware{h} })(reg, device)
}

func (f *Firmware) read(ctx context.Context, ifname string) (*mlx5.FirmwareState, error) {
	if err := checkNetdev(ifname); err != nil {
		return nil, err
	}
	return runRead(ctx, f.h, mlx5.FirmwareReadScript(ifname, f.h.sudo), "", func(out []byte) (*mlx5.FirmwareState, error) {
		return mlx5.ParseFirmwareRead(ifname, out)
	})
}

// Check reads the device and reports configured names it does not have (the plan-time check).
func (f *Firmware) Check(ctx context.Context, ifname string, names []string) (unknown map[string]string, err error) {
	st, err := f.read(ctx, ifname)
	if err != nil {
		return nil, err
	}
	unknown = map[string]string{}
	for _, n := range names {
		if _, ok := st.Params[n]; !ok {
			unknown[n] = fmt.Sprintf("%s -d %s q on device %q lists no parameter %s%s", st.Tool, st.Device, f.h.device, n, similar(st.Order, n))
		}
	}
	return unknown, nil
}

// similar names the device's parameters that share n's stem, as a hint.
func similar(order []string, n string) string {
	stem := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(n, "_P1"), "_P2"), "_0123456789")
	var out []string
	for _, o := range order {
		if len(stem) >= 4 && strings.HasPrefix(o, stem[:4]) {
			out = append(out, o)
		}
	}
	if len(out) == 0 || len(out) > 12 {
		return fmt.Sprintf(" (it lists %d)", len(order))
	}
	return " (similar: " + strings.Join(out, ", ") + ")"
}

// Read returns the managed parameters as the device has them; managed nil (an import) reads
// every parameter the device lists.
func (f *Firmware) Read(ctx context.Context, ifname string, managed map[string]string) (*FirmwareConfig, error) {
	st, err := f.read(ctx, ifname)
	if err != nil {
		return nil, err
	}
	if managed == nil {
		managed = map[string]string{}
		for name, p := range st.Params {
			if !strings.HasPrefix(p.Next, "Array[") { // array parameters are not values the resource sets
				managed[name] = p.Next
			}
		}
	}
	return view(ifname, st, managed), nil
}

func view(ifname string, st *mlx5.FirmwareState, managed map[string]string) *FirmwareConfig {
	c := &FirmwareConfig{Interface: ifname, Parameters: map[string]string{}, Current: map[string]string{}, Tool: st.Tool}
	for name, want := range managed {
		p, ok := st.Params[name]
		if !ok {
			continue // no longer listed: the plan shows it to be set again, and the check says why
		}
		c.Parameters[name] = p.Next
		if mlx5.FirmwareEqual(want, p.Next) {
			c.Parameters[name] = want
		}
		c.Current[name] = p.Current
		if !mlx5.FirmwareEqual(p.Next, p.Current) {
			c.PendingReboot = true
		}
	}
	return c
}

// Write sets values and verifies them; the prior (Next Boot values read before the first
// write of each name) is kept across updates for destroy. Names in drop are managed no more:
// they go back to their prior values.
func (f *Firmware) Write(ctx context.Context, ifname string, values map[string]string, drop []string, prior Prior) (*FirmwareConfig, Prior, error) {
	st, err := f.read(ctx, ifname)
	if err != nil {
		return nil, nil, err
	}
	before := map[string]string{}
	if err := decodeInto(prior, &before); err != nil {
		return nil, nil, err
	}
	set := map[string]string{}
	for name, v := range values {
		p, ok := st.Params[name]
		if !ok {
			return nil, nil, fmt.Errorf("%s -d %s q lists no parameter %s", st.Tool, st.Device, name)
		}
		if _, ok := before[name]; !ok {
			before[name] = p.Next
		}
		if !mlx5.FirmwareEqual(v, p.Next) {
			set[name] = v
		}
	}
	for _, name := range drop {
		if old, ok := before[name]; ok {
			if p, ok := st.Params[name]; ok && !mlx5.FirmwareEqual(old, p.Next) {
				set[name] = old
			}
			delete(before, name)
		}
	}
	if err := f.set(ctx, st, set); err != nil {
		return nil, nil, err
	}
	after, err := f.read(ctx, ifname)
	if err != nil {
		return nil, nil, fmt.Errorf("reading back: %w", err)
	}
	for name, v := range values {
		if p := after.Params[name]; !mlx5.FirmwareEqual(v, p.Next) {
			return nil, nil, fmt.Errorf("%s accepted the change but %s reads back as %s, not %s", st.Tool, name, p.Next, v)
		}
	}
	raw, err := json.Marshal(before)
	if err != nil {
		return nil, nil, err
	}
	return view(ifname, after, values), raw, nil
}

// Restore sets the managed names back to the Next Boot values read before create.
func (f *Firmware) Restore(ctx context.Context, ifname string, prior Prior) error {
	if len(prior) == 0 {
		return nil
	}
	before := map[string]string{}
	if err := decodeInto(prior, &before); err != nil {
		return err
	}
	st, err := f.read(ctx, ifname)
	if err != nil {
		return err
	}
	set := map[string]string{}
	for name, v := range before {
		if p, ok := st.Params[name]; ok && !mlx5.FirmwareEqual(v, p.Next) {
			set[name] = v
		}
	}
	return f.set(ctx, st, set)
}

// set runs one set command for every value (nothing when there is nothing to change): the
// tool writes them in one NVRAM transaction or refuses them all.
func (f *Firmware) set(ctx context.Context, st *mlx5.FirmwareState, values map[string]string) error {
	if len(values) == 0 {
		return nil
	}
	order := make([]string, 0, len(values))
	for name, v := range values {
		if !mlx5.ValidFirmwareName(name) || !mlx5.FirmwareValue.MatchString(v) {
			return fmt.Errorf("parameter %s = %q is not a name and value the provider sends", name, v)
		}
		order = append(order, name)
	}
	sort.Strings(order)
	defer f.h.wrote()
	res, err := f.h.c.Run(ctx, mlx5.FirmwareSetScript(st, values, order, f.h.sudo), nil)
	if err != nil {
		return err
	}
	out := string(append(res.Stdout, res.Stderr...))
	if res.ExitCode != 0 || !mlx5.SetApplied(out) {
		return fmt.Errorf("%s refused the change (exit %d): %s; the firmware configuration is as it was", st.Tool, res.ExitCode, mlx5.SetError(out))
	}
	return nil
}

// Names lists a map's keys in order.
func Names(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
