package mlx5

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sshd"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// HostUsername is the login of every lab NIC host: an ordinary user whose
// privileged reads and writes go through `sudo -n`, as the provider's
// `sudo` device setting expects.
const HostUsername = "roce"

// The models of an mlx5 host: its software, not its NIC.
const (
	// OFED is a host with NVIDIA's MLNX_OFED (DOCA-OFED) driver stack: mlnx_qos, the
	// /sys/class/net/IF/ecn tree and the RDMA device's tc/1/traffic_class.
	OFED = "ofed"
	// Inbox is a host with the distribution's (upstream) mlx5 driver: none of those, but
	// iproute2's dcb over the same dcbnl callbacks, and debugfs cc_params.
	Inbox = "inbox"
)

// DefaultNICPorts is the number of netdevs per host when Options.NICPorts
// is 0: one dual-port ConnectX adapter.
const DefaultNICPorts = 2

// Host is an `mlx5` NIC host: an SSH server (password or
// keyboard-interactive login, exec requests only) whose commands run in an
// emulated Linux userland with MLNX_OFED's tools and sysfs/debugfs trees
// for N ConnectX ports. Settings are volatile: Reboot restores the driver
// and firmware defaults, as a real reboot does.
type Host struct {
	name     string
	addr     string
	inv      device.Entry
	user     string
	password string
	latency  time.Duration
	srv      *sshd.Server
	wires    *cabling.Panel                             // what lldpd hears on each netdev
	room     *traffic.Room                              // perftest's servers and clients (perftest.go)
	fabric   atomic.Pointer[func(string) device.Device] // the lab's devices by name, for perftest's path

	// mu guards the NIC state, the emulated tree and the knobs below.
	mu           sync.Mutex
	ports        []*nicPort
	fs           *sh.FS
	firmwareDCBX bool
	lldpad       bool
	sudoPassword bool
	noECN        bool
	noSystemd    atomic.Bool // read by command lookup, without mu
	failWrites   string
	clock        func() time.Time // drives the traffic counters (now)

	tally   device.Tally      // requests are exec requests
	mlnxQos atomic.Int64      // mlnx_qos runs
	vfs     int               // SR-IOV VFs per port, in switchdev mode (AddVFs)
	faults  fault.Set         // injected faults (fault.go)
	sys     *sh.System        // what its shells see (internal/sh)
	systemd systemdState      // guarded by mu (systemd.go)
	nv      map[int]*nvConfig // adapters' NV configuration by adapter, guarded by mu (mstconfig.go)
	mft     atomic.Bool       // mlxconfig (NVIDIA MFT) instead of mstconfig
	inbox   atomic.Bool       // model Inbox: no mlnx_qos, no ecn tree, no traffic_class
}

// HostCounters are the exec requests and TCP connections a host received.
type HostCounters struct {
	Exec        int64
	Connections int64
	MlnxQos     int64 // mlnx_qos runs (each a Python start on a real host)
}

// Start starts an `mlx5` host listening on 127.0.0.1; it serves until Stop.
func Start(spec device.Spec) (device.Device, error) {
	h := &Host{
		name:     spec.Name,
		user:     HostUsername,
		password: spec.Password,
		latency:  spec.Latency,
		clock:    time.Now,
		wires:    spec.Wires,
		room:     spec.Perftest,
	}
	h.fs = &sh.FS{Mu: &h.mu, Cwd: "/home/" + h.user, FailWrites: &h.failWrites}
	h.sys = &sh.System{FS: h.fs, User: h.user, Programs: h.programs, Processes: h.processes,
		SudoPassword: func() bool {
			h.mu.Lock()
			defer h.mu.Unlock()
			return h.sudoPassword
		}}
	if spec.Model == Inbox {
		h.inbox.Store(true)
		h.noECN = true
	}
	for i := range spec.Ports {
		p := &nicPort{
			ifname: fmt.Sprintf("eth%d", i),
			rdma:   fmt.Sprintf("mlx5_%d", i),
			pci:    fmt.Sprintf("0000:%02x:00.%d", 8+i/2, i%2),
		}
		p.reset(false)
		p.ctr.reset(h.now())
		h.ports = append(h.ports, p)
	}
	h.buildTree()
	srv, err := sshd.Listen(h.sshConfig())
	if err != nil {
		return nil, err
	}
	h.srv, h.addr, h.inv = srv, srv.Addr(), srv.Entry(spec, h.user)
	h.inv.Sudo, h.inv.Model = true, spec.Model
	h.srv.Start()
	return h, nil
}

func (h *Host) Entry() device.Entry { return h.inv }

// Interfaces are the host's netdevs, eth0..ethN-1 (RDMA devices mlx5_0..).
func (h *Host) Interfaces() []string {
	out := make([]string, len(h.ports))
	for i, p := range h.ports {
		out[i] = p.ifname
	}
	return out
}

// Name is the device name, e.g. "mlx5-1".
func (h *Host) Name() string { return h.name }

// Address is the host:port of the SSH server.
func (h *Host) Address() string { return h.addr }

// Reboot resets every port to what a fresh boot gives: trust pcp, no
// DSCP map entries, PFC off, vendor ETS, firmware DCQCN parameters with
// ECN on every priority, no global traffic class, RDMA-CM ToS 0, every
// traffic counter back to zero and no storm. Knobs (firmware DCBX, lldpad,
// sudo, a missing ecn tree) describe the host's installation and survive.
//
// Then, as systemd does at boot, the enabled units start (systemd.go):
// those the netdevs' device units want and those multi-user.target wants,
// so a host whose settings were persisted has them back when Reboot
// returns.
//
// A Reboot is cold: the NIC firmware reloads, so the adapters' Next Boot configuration
// (mstconfig set) becomes current first (WarmReboot keeps it pending).
func (h *Host) Reboot() {
	h.mu.Lock()
	for i := range h.ports {
		nv := h.nvOf(i)
		for k, v := range nv.next {
			nv.cur[k] = v
		}
	}
	h.mu.Unlock()
	h.resetNICs()
	h.bootUnits(h.Interfaces(), true)
}

// DriverReload is `modprobe -r mlx5_ib mlx5_core; modprobe mlx5_core` (or a
// firmware reset, which re-probes the PCI functions alike): every port
// back to its defaults and counters from zero, as at a boot; the netdevs
// disappear and come back, so the units bound to their device units stop
// and the ones those device units want start again. Other units, and the
// manager's loaded unit files, are untouched.
func (h *Host) DriverReload() {
	h.resetNICs()
	h.mu.Lock()
	for _, ifn := range h.Interfaces() {
		for u := range h.systemd.runs {
			if boundTo(h.systemd.loaded[u], ifn) {
				delete(h.systemd.runs, u)
			}
		}
	}
	h.mu.Unlock()
	h.bootUnits(h.Interfaces(), false)
}

func (h *Host) resetNICs() {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	for i, p := range h.ports {
		p.reset(h.firmwareDCBX)
		h.applyNVLocked(i)
		p.ctr.reset(now)
	}
}

// now reads the host's clock; callers hold h.mu (tests swap the clock under it).
func (h *Host) now() time.Time { return h.clock() }

// SetDCBXFirmware makes DCBX firmware-controlled (the adapter's
// non-volatile setting, so it survives Reboot), or OS-controlled again.
func (h *Host) SetDCBXFirmware(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.firmwareDCBX = on
	for _, p := range h.ports {
		p.dcbxHost = !on
	}
}

// SetLLDPad starts or stops the host's lldpad service: `mlnx_qos` then
// warns, and `pgrep -x lldpad` finds it.
func (h *Host) SetLLDPad(running bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lldpad = running
}

// RequireSudoPassword makes sudo ask for a password (no NOPASSWD rule), so
// `sudo -n` fails with "sudo: a password is required".
func (h *Host) RequireSudoPassword(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sudoPassword = on
}

// FailWrites makes every later write to a file whose path contains substr fail with EIO, as
// when the firmware refuses a command; "" clears it.
func (h *Host) FailWrites(substr string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failWrites = substr
}

// RemoveECNTree makes the host look like an upstream kernel without
// MLNX_OFED: no /sys/class/net/IF/ecn directories. It lasts for the life
// of the lab.
func (h *Host) RemoveECNTree() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.noECN = true
	h.buildTreeLocked()
}

// AddVFs puts every port's eswitch in switchdev mode with n SR-IOV VFs (echo n >
// /sys/class/net/ethI/device/sriov_numvfs, devlink dev eswitch set ... mode switchdev): each
// VF J of port I is a netdev ethIvJ (udev's v-suffix naming) with its own PCI function
// (device/physfn leads to the port's) and RDMA device, and has a representor ethInpfIvfJ
// (phys_port_name pfIvfJ) on the port's RDMA device; the ports' phys_port_name reads pI.
// mlnx_qos on a VF or representor finds no DCB support (the "not supported" lines). It lasts
// for the life of the lab.
func (h *Host) AddVFs(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.vfs = n
	h.buildTreeLocked()
}

// RemoveSystemd makes the host one without systemd (a container host, an
// init other than systemd): no systemctl command. It lasts for the life of
// the lab.
func (h *Host) RemoveSystemd() { h.noSystemd.Store(true) }

// Run runs a script as the login user, as an SSH exec request would,
// without the network: for tests and for out-of-band changes.
func (h *Host) Run(script string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = h.runScript(script, false, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), status
}

// Counters returns how many exec requests and connections the host served.
func (h *Host) Counters() HostCounters {
	return HostCounters{Exec: h.tally.Requests.Load(), Connections: h.tally.Connections.Load(), MlnxQos: h.mlnxQos.Load()}
}

// DeviceCounters: requests are SSH exec requests, every one a read (a plan runs no other).
func (h *Host) DeviceCounters() device.Counters {
	c := h.tally.Counters()
	c.Reads = c.Requests
	return c
}

// ResetCounters sets every counter back to zero.
func (h *Host) ResetCounters() {
	h.tally.Reset()
	h.mlnxQos.Store(0)
}

func (h *Host) port(ifname string) *nicPort {
	for _, p := range h.ports {
		if p.ifname == ifname {
			return p
		}
	}
	return nil
}

func (h *Host) rdmaPort(dev string) *nicPort {
	for _, p := range h.ports {
		if p.rdma == dev {
			return p
		}
	}
	return nil
}

func (h *Host) buildTree() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buildTreeLocked()
}

// buildTreeLocked lays out the parts of the tree a QoS tool touches. The
// PCI function of netdev i is 0000:(08+i/2):00.(i%2), a dual-port
// ConnectX-5 (15b3:1017) per two netdevs.
func (h *Host) buildTreeLocked() {
	root := sh.NewDir(0o755)
	root.Add("dev/null", &sh.Node{Mode: 0o666, DevNull: true})
	root.Mkdirs("home/" + h.user)
	root.Mkdirs("sys/class/net/lo")
	for _, p := range h.ports {
		netdev := root.Mkdirs("sys/class/net/" + p.ifname)
		netdev.Add("device/uevent", ueventFile(p))
		netdev.Add("type", constFile("1\n")) // ARPHRD_ETHER
		netdev.Mkdirs("device/net/" + p.ifname)
		if !h.noECN {
			for _, proto := range []string{"roce_rp", "roce_np"} {
				dir := netdev.Mkdirs("ecn/" + proto)
				for prio := range 8 {
					dir.Add(fmt.Sprintf("enable/%d", prio), h.ecnEnable(p, proto, prio))
				}
				for i, c := range ccParams {
					if c.ecnDir == proto {
						dir.Children[c.ecnName] = h.ecnFile(p, i)
					}
				}
			}
		}
		ib := root.Mkdirs("sys/class/infiniband/" + p.rdma)
		if !h.inbox.Load() {
			ib.Add("tc/1/traffic_class", h.trafficClassFile(p)) // MLNX_OFED's
		}
		h.addHWCounters(ib, p)
		ib.Add("device/uevent", ueventFile(p))
		ib.Mkdirs("device/net/" + p.ifname)
		// In sysfs both paths are the one IB device directory under the PCI function
		// (/sys/class/infiniband/DEV is a symlink to .../<pci>/infiniband/DEV).
		netdev.Mkdirs("device/infiniband").Children[p.rdma] = ib
		cc := root.Mkdirs("sys/kernel/debug/mlx5/" + p.pci + "/cc_params")
		for i, c := range ccParams {
			cc.Children[c.name] = h.ccFile(p, i)
		}
	}
	h.addVFsLocked(root)
	root.Mkdirs("sys/class/net/lo").Add("type", constFile("772\n")) // ARPHRD_LOOPBACK
	root.Mkdirs("sys/kernel/debug").Mode = 0o700                    // debugfs is root's only
	// /etc and /tmp are disk filesystems: they survive a rebuild of the kernel's trees.
	if old := h.fs.Root; old != nil && old.Children["etc"] != nil {
		root.Children["etc"], root.Children["tmp"] = old.Children["etc"], old.Children["tmp"]
	} else {
		for _, d := range []string{"etc", "etc/systemd", "etc/systemd/system"} {
			root.Mkdirs(d).Disk = true
		}
		tmp := root.Mkdirs("tmp") // where perftest's server output goes (roce_perftest)
		tmp.Disk, tmp.Mode = true, 0o1777
	}
	h.fs.Root = root
}

// ueventFile is the PCI function's uevent as the kernel renders it; root
// may write an action to it (a no-op here), anything else is EINVAL.
func ueventFile(p *nicPort) *sh.Node {
	const vendor, device, subsys = 0x15b3, 0x1017, 0x0007
	body := fmt.Sprintf("DRIVER=mlx5_core\nPCI_CLASS=20000\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\n"+
		"PCI_SLOT_NAME=%s\nMODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00\n",
		vendor, device, vendor, subsys, p.pci, vendor, device, vendor, subsys)
	return &sh.Node{Mode: 0o644,
		Read: func() string { return body },
		Write: func(data string) error {
			action, _, _ := strings.Cut(strings.TrimSpace(data), " ")
			if !slices.Contains([]string{"add", "remove", "change", "move", "online", "offline", "bind", "unbind"}, action) {
				return sh.EINVAL
			}
			return nil
		}}
}

// constFile is a read-only sysfs attribute with a fixed value.
func constFile(body string) *sh.Node {
	return &sh.Node{Mode: 0o444, Read: func() string { return body }}
}

// addVFsLocked lays out the VFs and representors of AddVFs. Assumed: names, PCI addresses
// (bus 0x20+I, function J) and RDMA device numbers are the lab's; the sysfs shapes (physfn,
// phys_port_name, type) are the kernel's.
func (h *Host) addVFsLocked(root *sh.Node) {
	if h.vfs == 0 {
		return
	}
	next := len(h.ports)
	for i, p := range h.ports {
		root.Mkdirs("sys/class/net/"+p.ifname).Add("phys_port_name", constFile(fmt.Sprintf("p%d\n", i%2)))
		for j := range h.vfs {
			vf := fmt.Sprintf("%sv%d", p.ifname, j)
			pci := fmt.Sprintf("0000:%02x:00.%d", 0x20+i, j)
			rdma := fmt.Sprintf("mlx5_%d", next)
			next++
			nd := root.Mkdirs("sys/class/net/" + vf)
			nd.Add("type", constFile("1\n"))
			nd.Add("device/uevent", constFile(fmt.Sprintf("DRIVER=mlx5_core\nPCI_CLASS=20000\nPCI_ID=15B3:1018\nPCI_SUBSYS_ID=15B3:0007\n"+
				"PCI_SLOT_NAME=%s\nMODALIAS=pci:v000015B3d00001018sv000015B3sd00000007bc02sc00i00\n", pci)))
			nd.Mkdirs("device/physfn").Add("uevent", ueventFile(p))
			nd.Mkdirs("device/infiniband/" + rdma)
			nd.Mkdirs("device/net/" + vf)
			rep := root.Mkdirs("sys/class/net/" + fmt.Sprintf("%snpf%dvf%d", p.ifname, i%2, j))
			rep.Add("type", constFile("1\n"))
			rep.Add("phys_port_name", constFile(fmt.Sprintf("pf%dvf%d\n", i%2, j)))
			rep.Add("device/uevent", ueventFile(p))
			rep.Mkdirs("device/infiniband/" + p.rdma)
		}
	}
}

// runScript runs script as the login user (root after sudo), in the login
// directory, and returns its exit status.
func (h *Host) runScript(script string, root bool, stdin io.Reader, stdout, stderr io.Writer) int {
	return sh.NewShell(h.sys, root, "sh", h.fs.Cwd, stdin, stdout, stderr).Run(script)
}

// programs are the host's own programs by directory, besides those of every machine
// (shPrograms).
func (h *Host) programs() (bin, sbin map[string]sh.Program) {
	bin = map[string]sh.Program{"mlnx_qos": h.cmdMlnxQos, "systemctl": h.cmdSystemctl}
	for _, t := range perftestTests {
		bin[t.binary] = h.cmdPerftest(t) // perftest (the distributions' package installs in /usr/bin)
	}
	// iproute2 installs dcb in /sbin (/usr/sbin on a merged /usr); every current distribution
	// ships it, MLNX_OFED or not.
	sbin = map[string]sh.Program{"cma_roce_tos": h.cmdCmaRoceTos, "ethtool": h.cmdEthtool, "dcb": h.cmdDCB, "lldpcli": h.cmdLLDPCli}
	if h.noSystemd.Load() {
		delete(bin, "systemctl")
	}
	if h.inbox.Load() {
		delete(bin, "mlnx_qos") // mlnx-tools comes with MLNX_OFED (Debian does not package it)
	}
	if h.mft.Load() {
		bin["mlxconfig"] = h.cmdNVTool("mlxconfig")
	} else {
		bin["mstconfig"] = h.cmdNVTool("mstconfig")
	}
	return bin, sbin
}

// processes are what pgrep sees on the host: lldpad among them when it runs.
func (h *Host) processes() []sh.Process {
	h.mu.Lock()
	defer h.mu.Unlock()
	ps := []sh.Process{{PID: 1, Name: "systemd"}, {PID: 598, Name: "cron"}, {PID: 641, Name: "sshd"}}
	if h.lldpad {
		ps = append(ps, sh.Process{PID: 812, Name: "lldpad"})
	}
	return ps
}

// HoldLock takes the flock lock on path as another process on the host would (a concurrent
// writer), until release is called.
func (h *Host) HoldLock(path string) (release func()) {
	c := h.sys.Locks.Get(path)
	c <- struct{}{}
	return func() { <-c }
}
