package lab

// The `nxos` switch's exec-mode commands. They also run from every configuration mode, as on
// NX-OS, where `show running-config` or `checkpoint` need no `do`.

import (
	"fmt"
	"strings"
	"time"
)

func nxosExecTable() []nxosCmd {
	return []nxosCmd{
		{name: "enable", fn: cmdNXEnable},
		{name: "exit", fn: cmdNXLogout},
		{name: "terminal", fn: cmdNXTerminal},
		{name: "show", fn: cmdNXShow},
		{name: "configure", fn: cmdNXConfigure},
		{name: "copy", fn: cmdNXCopy},
		{name: "checkpoint", fn: cmdCheckpoint},
		{name: "rollback", fn: cmdRollback},
		{name: "no", fn: cmdNoCheckpoint},
	}
}

// cmdNXEnable: the login already has every privilege; NX-OS accepts enable silently.
func cmdNXEnable(_ *nxosCtx, a *cliArgs) *cliError { return a.done() }

func cmdNXLogout(x *nxosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.t.closed = true
	return nil
}

// cmdNXTerminal: `terminal length N` (0-511), `terminal width N` (24-511), both silent.
func cmdNXTerminal(_ *nxosCtx, a *cliArgs) *cliError {
	what, err := a.kw("length", "width")
	if err != nil {
		return err
	}
	lo := 0
	if what == "width" {
		lo = 24
	}
	if _, err := a.num(lo, 511); err != nil {
		return err
	}
	return a.done()
}

// cmdNXConfigure: `configure [terminal]`.
func cmdNXConfigure(x *nxosCtx, a *cliArgs) *cliError {
	if _, err := a.optKw("terminal"); err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	x.printf("Enter configuration commands, one per line. End with CNTL/Z.\n")
	x.next = nxosMode{kind: nxConfig}
	return nil
}

// cmdNXCopy: `copy running-config startup-config`.
func cmdNXCopy(x *nxosCtx, a *cliArgs) *cliError {
	if _, err := a.kw("running-config"); err != nil {
		return err
	}
	if _, err := a.kw("startup-config"); err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	x.sw.startup, x.sw.startupTime = x.sw.running.clone(), time.Now()
	x.printf("[########################################] 100%%\nCopy complete.\n")
	return nil
}

// cmdNXShow: show version|hostname|running-config|startup-config|checkpoint summary|lldp
// neighbors detail|queuing interface IF.
func cmdNXShow(x *nxosCtx, a *cliArgs) *cliError {
	what, err := a.kw("version", "hostname", "running-config", "startup-config", "checkpoint", "lldp", "queuing", "queueing")
	if err != nil {
		return err
	}
	sw := x.sw
	switch what {
	case "queuing", "queueing":
		return x.showQueuing(a)
	case "lldp":
		return x.showLLDP(a)
	case "running-config":
		return x.showRunning(a)
	case "checkpoint":
		return x.showCheckpoints(a)
	}
	if err := a.done(); err != nil {
		return err
	}
	switch what {
	case "version":
		x.printf("%s", sw.versionText())
	case "hostname":
		x.printf("%s\n", sw.running.hostname)
	default:
		if sw.startup != nil {
			x.printf("%s", sw.renderStartup())
		}
	}
	return nil
}

// showRunning: `show running-config [ipqos | interface [Ethernet1/N]]`.
func (x *nxosCtx) showRunning(a *cliArgs) *cliError {
	what, err := a.optKw("ipqos", "interface")
	if err != nil {
		return err
	}
	sw, c := x.sw, x.sw.running
	switch what {
	case "ipqos":
		if err := a.done(); err != nil {
			return err
		}
		x.printf("%s", sw.renderIPQoS(c, true))
	case "interface":
		port := 0
		if a.more() {
			if port, err = a.ethernetSlot(len(c.ifaces)); err != nil {
				return err
			}
		}
		if err := a.done(); err != nil {
			return err
		}
		x.printf("%s", sw.renderInterfaces(c, port))
	default:
		x.printf("%s", sw.renderFull(c))
	}
	return nil
}

func (sw *NXOSSwitch) versionText() string {
	up := time.Since(sw.started)
	return fmt.Sprintf(`Cisco Nexus Operating System (NX-OS) Software
TAC support: http://www.cisco.com/tac
Copyright (C) 2002-2023, Cisco and/or its affiliates.
All rights reserved.
The copyrights to certain works contained in this software are
owned by other third parties and used and distributed under their own
licenses, such as open source.  This software is provided "as is," and unless
otherwise stated, there is no warranty, express or implied, including but not
limited to warranties of merchantability and fitness for a particular purpose.

Software
  BIOS: version %s
  NXOS: version %s
  BIOS compile time:  05/17/2022
  NXOS image file is: bootflash:///nxos64-cs.%s.M.bin
  NXOS compile time:  12/8/2023 12:00:00 [12/08/2023 20:16:53]

Hardware
  cisco %s
  Intel(R) Xeon(R) CPU D-1528 @ 1.90GHz with 24632252 kB of memory.

  Device name: %s
  bootflash:  115805708 kB

Kernel uptime is %d day(s), %d hour(s), %d minute(s), %d second(s)

Last reset
  Reason: Unknown
`, nxosBIOS, nxosVersion, strings.NewReplacer("(", ".", ")", "").Replace(nxosVersion), sw.chassis, sw.running.hostname,
		int(up.Hours())/24, int(up.Hours())%24, int(up.Minutes())%60, int(up.Seconds())%60)
}
