package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// nvParam is one NV parameter of fakeNVRAM: values as numbers, names for an enum.
type nvParam struct {
	def, current, next uint64
	enum               map[uint64]string // nil: a plain number
	array              bool              // shown as Array[0..7], not a value the resource sets
}

// fakeNVRAM is an adapter behind sshConn as mstflint's mstconfig (on mlx5_0) shows and sets
// it: a read of eth0 prints the query's table of Default, Current and Next Boot; a set changes
// Next Boot, or, with refuse, prints that -E- line, exits refuseExit and changes nothing (some
// tool versions exit 0 on a refusal); with ignoreSet it says it applied but changes nothing
// (firmware that drops a value). Every command is kept.
type fakeNVRAM struct {
	params     map[string]*nvParam
	refuse     string
	refuseExit int
	ignoreSet  bool
	cmds       []string
}

func newFakeNVRAM() *fakeNVRAM {
	return &fakeNVRAM{params: map[string]*nvParam{
		"LINK_TYPE_P1":         {def: 2, current: 2, next: 2, enum: map[uint64]string{1: "IB", 2: "ETH"}},
		"ROCE_CC_PRIO_MASK_P1": {def: 255, current: 255, next: 255},
		"CNP_DSCP_P1":          {def: 48, current: 48, next: 48},
		"CNP_802P_PRIO_P1":     {def: 6, current: 6, next: 6},
		"ADVANCED_PCI_SETTINGS": {def: 0, current: 0, next: 0,
			enum: map[uint64]string{0: "False", 1: "True"}},
		"PRIO_TAG_REQUIRED_EN": {array: true},
	}}
}

func (p *nvParam) show(v uint64) string {
	switch {
	case p.array:
		return "Array[0..7]"
	case p.enum != nil:
		return fmt.Sprintf("%s(%d)", p.enum[v], v)
	}
	return strconv.FormatUint(v, 10)
}

// parse is what the tool makes of a value given to set: a number (C's base 0) or an enum name.
func (p *nvParam) parse(v string) (uint64, bool) {
	if n, err := strconv.ParseUint(v, 0, 64); err == nil {
		return n, p.enum == nil || p.enum[n] != ""
	}
	for n, name := range p.enum {
		if strings.EqualFold(name, v) {
			return n, true
		}
	}
	return 0, false
}

func (f *fakeNVRAM) Run(_ context.Context, cmd string, _ []byte) (ssh.Result, error) {
	f.cmds = append(f.cmds, cmd)
	if cmd == mlx5.FirmwareReadScript("eth0", false) {
		return ssh.Result{Stdout: []byte(f.query())}, nil
	}
	if _, set, ok := strings.Cut(cmd, "mstconfig -d mlx5_0 -y set "); ok {
		return f.set(strings.Fields(strings.TrimSuffix(set, "'")))
	}
	return ssh.Result{ExitCode: 127, Stderr: []byte("sh: 1: unexpected command")}, nil
}

// query prints what FirmwareReadScript prints on a host with mstflint only.
func (f *fakeNVRAM) query() string {
	var b strings.Builder
	b.WriteString("@@device mlx5_0\n@@tool mlxconfig\nsh: 1: mlxconfig: not found\n@@tool mstconfig\n\nDevice #1:\n----------\n\n")
	b.WriteString("Device type:    ConnectX6DX\nDevice:         mlx5_0\n\n")
	b.WriteString("Configurations:                              Default         Current         Next Boot\n")
	for _, name := range slices.Sorted(maps.Keys(f.params)) {
		p := f.params[name]
		mark := " "
		if p.next != p.def || p.next != p.current {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s        %-36s %-15s %-15s %s\n", mark, name, p.show(p.def), p.show(p.current), p.show(p.next))
	}
	b.WriteString("The '*' shows parameters with next value different from default/current value.\n@@end\n")
	return b.String()
}

// set applies NAME=value arguments all or none, as the tool writes one NVRAM transaction.
func (f *fakeNVRAM) set(args []string) (ssh.Result, error) {
	if f.refuse != "" {
		return ssh.Result{ExitCode: f.refuseExit, Stdout: []byte("Apply new Configuration? (y/n) [n] : y\n-E- " + f.refuse + "\n")}, nil
	}
	next := map[string]uint64{}
	for _, a := range args {
		name, v, _ := strings.Cut(a, "=")
		p, ok := f.params[name]
		n, valid := uint64(0), false
		if ok {
			n, valid = p.parse(v)
		}
		if !valid {
			return ssh.Result{ExitCode: 1, Stdout: []byte("-E- Bad argument: " + a + "\n")}, nil
		}
		next[name] = n
	}
	if !f.ignoreSet {
		for name, n := range next {
			f.params[name].next = n
		}
	}
	return ssh.Result{Stdout: []byte("Apply new Configuration? (y/n) [n] : y\nApplying... Done!\n-I- Please reboot machine to load new configurations.\n")}, nil
}

// sets are the set commands' arguments, one string a command.
func (f *fakeNVRAM) sets() []string {
	var out []string
	for _, c := range f.cmds {
		if _, set, ok := strings.Cut(c, " -y set "); ok {
			out = append(out, strings.TrimSuffix(set, "'"))
		}
	}
	return out
}

// nextBoot is every parameter's Next Boot value as the tool shows it.
func (f *fakeNVRAM) nextBoot() map[string]string {
	out := map[string]string{}
	for name, p := range f.params {
		out[name] = p.show(p.next)
	}
	return out
}

func firmwareTest(f *fakeNVRAM) *Firmware {
	return &Firmware{&mlx5Host{c: f, device: "sw", reads: newReads(testRegistry("mlx5", devices.Device{}), "sw")}}
}

// Create sets only what differs, in one set command; an update sets what changed and puts a
// parameter managed no more back to its value before the resource; destroy puts every managed
// parameter back, so the adapter's Next Boot values end as they began.
func TestFirmwareLifecycle(t *testing.T) {
	ctx := context.Background()
	f := newFakeNVRAM()
	fw := firmwareTest(f)
	before := f.nextBoot()

	got, prior, err := fw.Write(ctx, "eth0", map[string]string{"LINK_TYPE_P1": "ib", "ROCE_CC_PRIO_MASK_P1": "0x08", "CNP_DSCP_P1": "48"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := f.sets(); !slices.Equal(s, []string{"LINK_TYPE_P1=ib ROCE_CC_PRIO_MASK_P1=0x08"}) {
		t.Errorf("create sent %q, want one set of the two values that differ, in name order", s)
	}
	// The values as configured (the device's renderings mean the same), the running ones as
	// loaded, and a reboot pending.
	if want := map[string]string{"LINK_TYPE_P1": "ib", "ROCE_CC_PRIO_MASK_P1": "0x08", "CNP_DSCP_P1": "48"}; !maps.Equal(got.Parameters, want) {
		t.Errorf("parameters %v, want %v", got.Parameters, want)
	}
	if got.Current["LINK_TYPE_P1"] != "ETH(2)" || got.Current["ROCE_CC_PRIO_MASK_P1"] != "255" || !got.PendingReboot || got.Tool != "mstconfig" {
		t.Errorf("current %v pending %v tool %q", got.Current, got.PendingReboot, got.Tool)
	}
	var recorded map[string]string
	if err := json.Unmarshal(prior, &recorded); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"LINK_TYPE_P1": "ETH(2)", "ROCE_CC_PRIO_MASK_P1": "255", "CNP_DSCP_P1": "48"}; !maps.Equal(recorded, want) {
		t.Errorf("recorded %v, want the Next Boot values before the write %v", recorded, want)
	}

	// Update: LINK_TYPE_P1 leaves the configuration (back to ETH, sent as its number), the
	// mask changes again; the prior keeps the values before the first write.
	f.cmds = nil
	if _, prior, err = fw.Write(ctx, "eth0", map[string]string{"ROCE_CC_PRIO_MASK_P1": "16", "CNP_DSCP_P1": "48"}, []string{"LINK_TYPE_P1"}, prior); err != nil {
		t.Fatal(err)
	}
	if s := f.sets(); !slices.Equal(s, []string{"LINK_TYPE_P1=2 ROCE_CC_PRIO_MASK_P1=16"}) {
		t.Errorf("update sent %q", s)
	}
	recorded = nil
	if err := json.Unmarshal(prior, &recorded); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"ROCE_CC_PRIO_MASK_P1": "255", "CNP_DSCP_P1": "48"}; !maps.Equal(recorded, want) {
		t.Errorf("after update recorded %v, want %v", recorded, want)
	}

	f.cmds = nil
	if err := fw.Restore(ctx, "eth0", prior); err != nil {
		t.Fatal(err)
	}
	if s := f.sets(); !slices.Equal(s, []string{"ROCE_CC_PRIO_MASK_P1=255"}) {
		t.Errorf("destroy sent %q, want the one value that differs from before", s)
	}
	if after := f.nextBoot(); !maps.Equal(after, before) {
		t.Errorf("Next Boot after destroy %v, want as before %v", after, before)
	}

	// Imported (nothing recorded): destroy leaves the adapter alone.
	f.cmds = nil
	if err := fw.Restore(ctx, "eth0", nil); err != nil || len(f.cmds) != 0 {
		t.Errorf("destroy after import ran %q, %v", f.cmds, err)
	}
}

// A read shows the device's rendering of a value that does not match the configuration, and an
// import reads every parameter but arrays.
func TestFirmwareRead(t *testing.T) {
	ctx := context.Background()
	f := newFakeNVRAM()
	f.params["CNP_DSCP_P1"].next = 26
	fw := firmwareTest(f)
	got, err := fw.Read(ctx, "eth0", map[string]string{"CNP_DSCP_P1": "48", "LINK_TYPE_P1": "eth", "GONE_P1": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"CNP_DSCP_P1": "26", "LINK_TYPE_P1": "eth"}; !maps.Equal(got.Parameters, want) {
		t.Errorf("read %v, want %v (a parameter the device no longer lists is left out)", got.Parameters, want)
	}
	if !got.PendingReboot || got.Current["CNP_DSCP_P1"] != "48" {
		t.Errorf("Next Boot 26, running 48: pending %v current %v", got.PendingReboot, got.Current)
	}
	all, err := fw.Read(ctx, "eth0", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ADVANCED_PCI_SETTINGS", "CNP_802P_PRIO_P1", "CNP_DSCP_P1", "LINK_TYPE_P1", "ROCE_CC_PRIO_MASK_P1"}; !slices.Equal(Names(all.Parameters), want) {
		t.Errorf("import read %v, want %v", Names(all.Parameters), want)
	}
	if all.Parameters["ADVANCED_PCI_SETTINGS"] != "False(0)" {
		t.Errorf("import reads %q, want the device's rendering", all.Parameters["ADVANCED_PCI_SETTINGS"])
	}
	if _, err := fw.Read(ctx, "eth0; reboot", nil); err == nil || len(f.cmds) != 2 {
		t.Errorf("an invalid netdev name: %v, ran %d commands", err, len(f.cmds))
	}
}

// The plan-time check names what the device lacks, with its parameters of the same stem.
func TestFirmwareCheck(t *testing.T) {
	fw := firmwareTest(newFakeNVRAM())
	unknown, err := fw.Check(context.Background(), "eth0", []string{"LINK_TYPE_P1", "ROCE_CC_PRIO_MAKS_P1", "NOPE_AT_ALL"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"ROCE_CC_PRIO_MAKS_P1": `mstconfig -d mlx5_0 q on device "sw" lists no parameter ROCE_CC_PRIO_MAKS_P1 (similar: ROCE_CC_PRIO_MASK_P1)`,
		"NOPE_AT_ALL":          `mstconfig -d mlx5_0 q on device "sw" lists no parameter NOPE_AT_ALL (it lists 6)`,
	}
	if !maps.Equal(unknown, want) {
		t.Errorf("check %q, want %q", unknown, want)
	}
}

// A write the tool refuses, or one the firmware does not keep, is an error that records
// nothing; a name the device lacks or a value the provider does not send is refused before
// any set runs.
func TestFirmwareWriteErrors(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		fake   func(*fakeNVRAM)
		values map[string]string
		prior  Prior
		want   string
		sets   int
	}{
		{"refused", func(f *fakeNVRAM) {
			f.refuse, f.refuseExit = "The Device doesn't support ROCE_CC_PRIO_MASK_P1 parameter", 1
		},
			map[string]string{"ROCE_CC_PRIO_MASK_P1": "8"}, nil,
			"mstconfig refused the change (exit 1): The Device doesn't support ROCE_CC_PRIO_MASK_P1 parameter; the firmware configuration is as it was", 1},
		{"refused, exit 0", func(f *fakeNVRAM) { f.refuse = "Failed to set configuration" },
			map[string]string{"ROCE_CC_PRIO_MASK_P1": "8"}, nil,
			"mstconfig refused the change (exit 0): Failed to set configuration; the firmware configuration is as it was", 1},
		{"not kept", func(f *fakeNVRAM) { f.ignoreSet = true },
			map[string]string{"ROCE_CC_PRIO_MASK_P1": "8"}, nil,
			"mstconfig accepted the change but ROCE_CC_PRIO_MASK_P1 reads back as 255, not 8", 1},
		{"unknown name", nil, map[string]string{"ROCE_CC_PRIO_MASK_P9": "8"}, nil,
			"mstconfig -d mlx5_0 q lists no parameter ROCE_CC_PRIO_MASK_P9", 0},
		{"not a value", nil, map[string]string{"CNP_DSCP_P1": "8;reboot"}, nil,
			`parameter CNP_DSCP_P1 = "8;reboot" is not a name and value the provider sends`, 0},
		{"unreadable prior", nil, map[string]string{"CNP_DSCP_P1": "8"}, Prior("{"),
			"private state is unreadable", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeNVRAM()
			if c.fake != nil {
				c.fake(f)
			}
			before := f.nextBoot()
			got, prior, err := firmwareTest(f).Write(ctx, "eth0", c.values, nil, c.prior)
			if err == nil || !strings.Contains(err.Error(), c.want) || got != nil || prior != nil {
				t.Fatalf("got %+v %s %v, want %q", got, prior, err, c.want)
			}
			if n := len(f.sets()); n != c.sets {
				t.Errorf("ran %d set commands, want %d", n, c.sets)
			}
			if !maps.Equal(f.nextBoot(), before) {
				t.Errorf("Next Boot changed: %v", f.nextBoot())
			}
		})
	}
	if err := firmwareTest(newFakeNVRAM()).Restore(ctx, "eth0", Prior("[")); err == nil || !strings.Contains(err.Error(), "private state is unreadable") {
		t.Errorf("restore of an unreadable prior: %v", err)
	}
}

// The driver is for NIC hosts only.
func TestForFirmwareOnASwitch(t *testing.T) {
	_, err := ForFirmware(testRegistry("eos", devices.Device{}), "sw")
	if err == nil || err.Error() != `device "sw" has platform eos, which is not a NIC host` {
		t.Errorf("got %v", err)
	}
	if _, err := ForFirmware(testRegistry("mlx5", devices.Device{}), "other"); err == nil {
		t.Error("an unknown device opened")
	}
}
