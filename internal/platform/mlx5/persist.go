package mlx5

// Boot persistence. mlnx_qos, sysfs and debugfs settings live in the driver and the NIC's
// volatile firmware state: a reboot, a driver reload or a firmware reset (which re-probes the
// PCI function) loses them, and until someone applies again the host runs RoCE with trust pcp
// and no PFC. A persisted resource therefore installs one systemd unit per resource and netdev,
// /etc/systemd/system/roce-<kind>-<netdev>.service, that runs the resource's own writes (the
// commands ApplyScript sends, as root) whenever the netdev's device unit appears:
//
//   - WantedBy= and BindsTo= sys-subsystem-net-devices-<netdev>.device: udev's netdev appearing
//     (boot, modprobe, mlxfwreset) starts it; the netdev going away stops it, so it starts
//     again when the netdev comes back.
//   - Type=oneshot, RemainAfterExit=yes: `systemctl status` says whether the last run worked.
//   - Restart=on-failure (systemd >= 244 for oneshot units): the RDMA device (for roce_tos)
//     and debugfs (DCQCN, RequiresMountsFor=) may appear after the netdev; a run that came
//     too early fails and is retried.
//   - ExecStart runs the writes under flock on the netdev's lock file (LockPath), the same
//     lock the provider's writes hold, so a boot run and a Terraform apply never interleave.
//
// The provider does not start the unit when it installs it: the apply itself has just made
// the same writes (and holds the lock the unit would wait for). The unit file is the record
// of what is persisted: a refresh compares it, and its enablement, with the resource.

import (
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Kinds of boot unit, one per resource type.
const (
	KindNICQoS = "nic-qos"
	KindDCQCN  = "dcqcn"
)

// UnitDir is where the provider installs its units: the administrator's unit directory.
const UnitDir = "/etc/systemd/system"

// UnitName is the boot unit of a resource of kind on ifname.
func UnitName(kind, ifname string) string { return "roce-" + kind + "-" + ifname + ".service" }

// UnitPath is the unit's file.
func UnitPath(kind, ifname string) string { return UnitDir + "/" + UnitName(kind, ifname) }

// deviceUnit is the systemd device unit of netdev ifname (a name without '-', which systemd
// would escape; fabric's checkPersist refuses those).
func deviceUnit(ifname string) string { return "sys-subsystem-net-devices-" + ifname + ".device" }

// unitLockWait is how long a boot run waits for a provider write holding the netdev's lock.
const unitLockWait = "60"

// Unit renders the boot unit of kind (KindNICQoS with nic, KindDCQCN with dcqcn) on ifname:
// its ExecStart runs exactly the writes ApplyScript makes for that resource, with the RDMA
// device and PCI address s read.
func Unit(kind, ifname string, s *HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN) string {
	what, resource := "NIC QoS", "roce_nic_qos"
	if kind == KindDCQCN {
		what, resource = "DCQCN", "roce_dcqcn_profile"
	}
	cmds := writes("", ifname, s, nic, dcqcn, false).cmds
	dev := deviceUnit(ifname)
	lines := []string{
		"# Installed by terraform-provider-roce (" + resource + " on " + ifname + "): it writes the settings of",
		"# that resource again whenever " + ifname + " appears (boot, driver reload, firmware reset).",
		"# Change the Terraform configuration, not this file: an edit here shows as drift of persist.",
		"[Unit]",
		"Description=RoCE " + what + " of " + ifname + " (terraform-provider-roce " + resource + ")",
		"BindsTo=" + dev,
		"After=" + dev,
	}
	if kind == KindDCQCN {
		lines = append(lines, "RequiresMountsFor=/sys/kernel/debug")
	}
	lines = append(lines,
		"StartLimitIntervalSec=120",
		"StartLimitBurst=20",
		"",
		"[Service]",
		"Type=oneshot",
		"RemainAfterExit=yes",
		"Restart=on-failure",
		"RestartSec=5",
		"ExecStart=/usr/bin/flock -w "+unitLockWait+" "+LockPath(ifname)+" /bin/sh -c "+systemdQuote(strings.Join(cmds, " && ")),
		"",
		"[Install]",
		"WantedBy="+dev,
	)
	return strings.Join(lines, "\n") + "\n"
}

// systemdQuote double-quotes s for a unit file's command line (systemd.syntax(7), systemd.service(5)
// "Command lines"): backslash and double quote escaped, '%' doubled against specifier
// expansion, '$' doubled against environment variable substitution.
func systemdQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "$", "$$")
	return `"` + r.Replace(s) + `"`
}

// UnitFile is a unit the read found under UnitDir.
type UnitFile struct {
	Lines  []string // its non-empty lines (grep -H . prints no others)
	Wanted []string // the units whose .wants directory links to it
}

// Persisted reports whether the boot unit of kind on ifname is installed with content want
// and enabled (linked from the netdev's device unit): blank lines aside, the file must be
// what the provider would write now.
func (s *HostState) Persisted(kind string, want string) bool {
	return s.UnitEnabled(kind) && slices.Equal(s.Units[UnitName(kind, s.Interface)].Lines, nonEmptyLines(want))
}

// UnitEnabled reports whether the boot unit of kind on the netdev is installed and enabled,
// whatever it writes: an import, which does not know what the configuration manages, cannot
// tell a stale unit from a current one (the first refresh with a configuration can).
func (s *HostState) UnitEnabled(kind string) bool {
	u, ok := s.Units[UnitName(kind, s.Interface)]
	return ok && slices.Contains(u.Wanted, deviceUnit(s.Interface))
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// persist adds what makes the boot unit of kind match persist: installed and enabled with the
// rendering of nic or dcqcn, or removed (when s shows one).
func (w *script) persist(ifname string, s *HostState, persist bool, kind string, nic *fabric.NICQoS, dcqcn *fabric.DCQCN) {
	name := UnitName(kind, ifname)
	if !persist {
		if _, ok := s.Units[name]; ok {
			w.removeUnit(kind, ifname)
		}
		return
	}
	w.installUnit(kind, ifname, Unit(kind, ifname, s, nic, dcqcn))
}

// installUnit writes a unit file, reloads the manager and enables the unit. The content holds
// no backslash (dash's echo would interpret it) and no single quote: ApplyScript's commands
// are built from validated names and numbers.
func (w *script) installUnit(kind, ifname, content string) {
	path, name := w.root+UnitPath(kind, ifname), UnitName(kind, ifname)
	body := strings.TrimSuffix(content, "\n") // echo adds the last newline
	if w.sudo {
		w.cmds = append(w.cmds, "echo "+shQuote(body)+" | sudo -n tee "+shQuote(path)+" > /dev/null")
	} else {
		w.cmds = append(w.cmds, "echo "+shQuote(body)+" > "+shQuote(path))
	}
	w.run("systemctl", "daemon-reload")
	// enable prints "Created symlink ..." and, for a device unit (which has no unit file),
	// systemd's "added as a dependency to a non-existent unit" warning on stderr: expected.
	w.run("systemctl", "enable", name)
}

// removeUnit disables and deletes a unit, then reloads the manager.
func (w *script) removeUnit(kind, ifname string) {
	w.run("systemctl", "disable", UnitName(kind, ifname))
	w.run("rm", "-f", w.root+UnitPath(kind, ifname))
	w.run("systemctl", "daemon-reload")
}

// UnitRestoreScript puts the boot units of kinds on ifname back as prior shows them
// (re-installed and enabled, or removed when prior had none): the undo of a failed write. It
// goes on after a failure, so as much as possible is put back.
func UnitRestoreScript(ifname string, prior *HostState, sudo bool, kinds ...string) string {
	var parts []string
	for _, kind := range kinds {
		w := &script{sudo: sudo}
		if u, ok := prior.Units[UnitName(kind, ifname)]; ok {
			w.installUnit(kind, ifname, strings.Join(u.Lines, "\n")+"\n")
			if !slices.Contains(u.Wanted, deviceUnit(ifname)) {
				w.run("systemctl", "disable", UnitName(kind, ifname))
			}
		} else {
			w.removeUnit(kind, ifname)
		}
		parts = append(parts, strings.Join(w.cmds, " ; "))
	}
	if len(parts) == 0 {
		return shWrap("true", false)
	}
	return shWrap(strings.Join(parts, " ; "), false)
}

// RemoveUnitScript disables and deletes the boot unit of kind on ifname (a destroy).
func RemoveUnitScript(kind, ifname string, sudo bool) string {
	w := &script{sudo: sudo}
	w.removeUnit(kind, ifname)
	return w.String()
}

// ShJoin runs the commands (each one of this package's sh -c commands) one after the other
// in one sh -c; the exit status is the last one's. Empty commands are left out.
func ShJoin(cmds ...string) string {
	var parts []string
	for _, c := range cmds {
		if c != "" {
			parts = append(parts, c)
		}
	}
	return shWrap(strings.Join(parts, "; "), false)
}

// NoSystemd reports whether a write's output says the host has no systemctl (sudo's "sudo:
// systemctl: command not found", dash's "sh: 1: systemctl: not found"): persist cannot work
// there.
func NoSystemd(out string) bool {
	return strings.Contains(out, "systemctl: command not found") || strings.Contains(out, "systemctl: not found")
}
