package mlx5

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// CheckNIC returns why roce_nic_qos cannot manage the netdev, every reason joined: the
// interface does not exist, mlnx_qos failed, DCBX is firmware-controlled or lldpad runs (either
// would overwrite the settings), or the driver has no trust state.
func (s *HostState) CheckNIC() error {
	if err := s.checkInterface(); err != nil {
		return err
	}
	if s.QoSError != nil {
		return s.QoSError
	}
	var errs []error
	if s.DCBX == DCBXFirmware {
		fix := "mlnx_qos -i " + s.Interface + " -d os"
		if s.Tool == ToolDCB {
			fix = "dcb dcbx set dev " + s.Interface + " host ieee"
		}
		errs = append(errs, fmt.Errorf("DCBX on %s is firmware-controlled: the NIC negotiates its QoS with the switch over LLDP "+
			"and would overwrite these settings. Switch to OS-controlled DCBX with `%s` (until reboot); "+
			"to keep it across reboots also disable firmware DCBX with `mlxconfig -d %s set LLDP_NB_DCBX_P1=0` "+
			"(P2 for the second port; roce_nic_firmware can set it) and reboot", s.Interface, fix, orUnknown(s.PCIAddress)))
	}
	if s.LLDPad {
		errs = append(errs, fmt.Errorf("lldpad runs on the host and would overwrite the QoS of %s through DCBX: stop and "+
			"disable it (`systemctl disable --now lldpad`) before managing the NIC with Terraform", s.Interface))
	}
	if s.Trust != string(fabric.TrustDSCP) && s.Trust != string(fabric.TrustPCP) {
		errs = append(errs, fmt.Errorf("mlnx_qos reports priority trust state %q on %s: the driver cannot switch between "+
			"PCP and DSCP trust (MLNX_OFED, or a kernel with mlx5 DCB trust support, is needed)", s.Trust, s.Interface))
	}
	return errors.Join(errs...)
}

// CheckNICIntent is CheckNIC plus what n in particular needs: roce_tos needs the RDMA device's
// MLNX_OFED traffic_class file.
func (s *HostState) CheckNICIntent(n fabric.NICQoS) error {
	if err := s.CheckNIC(); err != nil || n.RoCEToS == nil {
		return err
	}
	switch {
	case s.RDMADev == "":
		return fmt.Errorf("roce_tos: %s has no RDMA device: %s lists none%s. Is RoCE enabled on the NIC?",
			s.Interface, netPath(s.Interface, "/device/infiniband"), s.errorsUnder("/device/infiniband"))
	case !s.ToSSupported:
		return fmt.Errorf("roce_tos: the host has no %s: the per-device traffic class comes with the MLNX_OFED / "+
			"DOCA-OFED mlx5 driver; upstream kernels lack it. Leave roce_tos unset on this host",
			tosPath(s.Interface, s.RDMADev))
	}
	if e := s.errorsUnder("/traffic_class"); e != "" {
		return fmt.Errorf("roce_tos: cannot read %s%s", tosPath(s.Interface, s.RDMADev), e)
	}
	return nil
}

// CheckDCQCN returns why roce_dcqcn_profile d cannot be managed on the host: the interface, its
// PCI address, the ecn tree or the cc_params files d writes are missing or unreadable.
func (s *HostState) CheckDCQCN(d fabric.DCQCN) error {
	if err := s.checkInterface(); err != nil {
		return err
	}
	var errs []error
	if want := PrioMask(d.Priorities); !s.ECN && (s.CCPrioMask == nil || *s.CCPrioMask != want) {
		found := "the firmware's current mask could not be read: " + s.CCPrioMaskError
		if s.CCPrioMask != nil {
			found = fmt.Sprintf("the firmware's current mask is %d", *s.CCPrioMask)
		}
		errs = append(errs, fmt.Errorf("the host has no readable %s (and roce_np): the per-priority ecn sysfs tree comes "+
			"with the MLNX_OFED / DOCA-OFED mlx5 driver and does not exist on upstream (inbox) kernels, where the priorities "+
			"DCQCN runs on are the firmware's, and %s: set them with roce_nic_firmware, parameters = { ROCE_CC_PRIO_MASK_%s = \"%d\" } "+
			"(one bit per priority), and a cold reboot; this resource then writes the cc_params and reads the priorities from the firmware%s",
			netPath(s.Interface, "/ecn/roce_rp/enable"), found, firmwarePort(s.PCIAddress), want, s.errorsUnder("/ecn/")))
	} else if s.ECN {
		for p := range 8 {
			if s.RP[p] < 0 || s.NP[p] < 0 {
				errs = append(errs, fmt.Errorf("could not read %s and %s%s", ecnPath(s.Interface, pointRP, p),
					ecnPath(s.Interface, pointNP, p), s.errorsUnder("/enable/"+itoa(p))))
			}
		}
	}
	errs = append(errs, s.checkCC(ccFilesFor(&d)))
	return errors.Join(errs...)
}

func (s *HostState) checkCC(files []string) error {
	if s.PCIAddress == "" {
		return fmt.Errorf("cannot locate cc_params: no PCI_SLOT_NAME in %s%s",
			netPath(s.Interface, "/device/uevent"), s.errorsUnder("/device/uevent"))
	}
	dir := ccDir(s.PCIAddress)
	if s.CCParams == nil {
		errText := s.errorsUnder("/sys/kernel/debug")
		if strings.Contains(errText, "Operation not permitted") {
			// EPERM, not EACCES: the kernel's lockdown (Secure Boot) refuses debugfs to root too
			// (fs/debugfs/file.c debugfs_locked_down; kernel_lockdown(7)), so sudo cannot help.
			return fmt.Errorf("cannot read %s: the kernel is locked down (Secure Boot lockdown: "+
				"/sys/kernel/security/lockdown shows [integrity] or [confidentiality]), which closes debugfs even to root, "+
				"so DCQCN parameters cannot be read or set there; boot without lockdown, or set them in the NIC "+
				"firmware's NV parameters (mlxconfig or mstconfig)%s", dir, errText)
		}
		if strings.Contains(errText, "Permission denied") {
			return fmt.Errorf("cannot read %s: debugfs is readable by root only; set sudo = true for the device "+
				"(the user needs passwordless sudo for sh, mlnx_qos and tee)%s", dir, errText)
		}
		return fmt.Errorf("the host has no %s: debugfs is not mounted (`mount -t debugfs none /sys/kernel/debug`), or the "+
			"NIC firmware does not allow congestion-control query and modify%s", dir, errText)
	}
	var missing []string
	for _, f := range files {
		if _, ok := s.CCParams[f]; !ok {
			missing = append(missing, dir+"/"+f)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the host has no %s: the mlx5 driver is too old for these parameters; leave them unset",
			strings.Join(missing, ", "))
	}
	return nil
}

func (s *HostState) checkInterface() error {
	if len(s.Netdevs) == 0 || slices.Contains(s.Netdevs, s.Interface) {
		return nil
	}
	return fmt.Errorf("interface %q does not exist on the host; its netdevs are: %s", s.Interface, strings.Join(s.Netdevs, ", "))
}

// errorsUnder renders the recorded read errors of paths containing part, as " (path: error; ...)".
func (s *HostState) errorsUnder(part string) string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(s.Errors)) {
		if strings.Contains(p, part) {
			out = append(out, p+": "+s.Errors[p])
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

// show renders a path for a message, without the test root.

func orUnknown(s string) string {
	if s == "" {
		return "<pci-address>"
	}
	return s
}

// PrioMask is the firmware form of a priority set: bit p for priority p.
func PrioMask(priorities []int) uint64 {
	var mask uint64
	for _, p := range priorities {
		if p >= 0 && p < 8 {
			mask |= 1 << p
		}
	}
	return mask
}

// SetFirmware records, from the adapter's firmware configuration (fw, or why it could not be
// read), the Current ROCE_CC_PRIO_MASK of s's port: on a host without the ecn tree it is what
// the DCQCN priorities are.
func (s *HostState) SetFirmware(fw *FirmwareState, err error) {
	name := "ROCE_CC_PRIO_MASK_" + firmwarePort(s.PCIAddress)
	if err == nil && fw == nil {
		err = errors.New("no firmware query")
	}
	if err != nil {
		s.CCPrioMaskError = err.Error()
		return
	}
	p, ok := fw.Params[name]
	if !ok {
		s.CCPrioMaskError = fmt.Sprintf("%s -d %s q lists no %s", fw.Tool, fw.Device, name)
		return
	}
	v, num := fwNumber(p.Current)
	if !num {
		s.CCPrioMaskError = fmt.Sprintf("%s's current value %q is not a number", name, p.Current)
		return
	}
	s.CCPrioMask = &v
}

// firmwarePort is the _P<n> suffix of a PCI function's port in the adapter's NV configuration:
// function 0 is port 1, function 1 port 2 (a dual-port ConnectX has a PCI function per port).
func firmwarePort(pci string) string {
	if strings.HasSuffix(pci, ".1") {
		return "P2"
	}
	return "P1"
}

// CheckInterface returns why the netdev cannot carry a host resource at all (missing, not an
// mlx5 port), before the resource's own checks (CheckNICIntent, CheckDCQCN).
func (s *HostState) CheckInterface() error { return s.checkInterface() }
