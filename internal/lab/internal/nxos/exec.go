package nxos

// The `nxos` switch's exec-mode commands. They also run from every configuration mode, as on
// NX-OS, where `show running-config` or `checkpoint` need no `do`.

import (
	"fmt"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

func nxosExecTable() []nxosCmd {
	return []nxosCmd{
		{Name: "enable", Fn: cmdNXEnable},
		{Name: "exit", Fn: cliswitch.NoArgs(logout)},
		{Name: "terminal", Fn: cmdNXTerminal},
		{Name: "show", Fn: cmdNXShow},
		{Name: "configure", Fn: cmdNXConfigure},
		{Name: "copy", Fn: cmdNXCopy},
		{Name: "checkpoint", Fn: cmdCheckpoint},
		{Name: "rollback", Fn: cmdRollback},
		{Name: "no", Fn: cmdNoCheckpoint},
	}
}

// cmdNXEnable: the login already has every privilege; NX-OS accepts enable silently.
func cmdNXEnable(_ *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal { return a.Done() }

// logout ends the terminal: the SSH layer closes the connection.
func logout(x *nxosCtx) { x.t.closed = true }

// cmdNXTerminal: `terminal length N` (0-511), `terminal width N` (24-511), both silent.
func cmdNXTerminal(_ *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	_, _, err := a.TerminalSize(24, 511)
	return err
}

// cmdNXConfigure: `configure [terminal]`.
func cmdNXConfigure(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.OptKw("terminal"); err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	x.printf("Enter configuration commands, one per line. End with CNTL/Z.\n")
	x.next = nxosMode{kind: nxConfig}
	return nil
}

// cmdNXCopy: `copy running-config startup-config`.
func cmdNXCopy(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Keywords("running-config", "startup-config"); err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	x.sw.startup, x.sw.startupTime = x.sw.running.clone(), time.Now()
	x.printf("[########################################] 100%%\nCopy complete, now saving to disk (please wait)...\nCopy complete.\n")
	return nil
}

// cmdNXShow: show version|hostname|running-config|startup-config|checkpoint summary|lldp
// neighbors detail|queuing interface IF.
func cmdNXShow(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	what, err := a.Kw("version", "hostname", "running-config", "startup-config", "checkpoint", "lldp", "queuing", "queueing")
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
	if err := a.Done(); err != nil {
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
func (x *nxosCtx) showRunning(a *cliswitch.Args) *cliswitch.Refusal {
	what, err := a.OptKw("ipqos", "interface")
	if err != nil {
		return err
	}
	sw, c := x.sw, x.sw.running
	switch what {
	case "ipqos":
		if err := a.Done(); err != nil {
			return err
		}
		x.printf("%s", sw.renderIPQoS(c, true))
	case "interface":
		port := 0
		if a.More() {
			if port, err = ethernetSlot(len(c.ifaces))(a); err != nil {
				return err
			}
		}
		if err := a.Done(); err != nil {
			return err
		}
		x.printf("%s", sw.renderInterfaces(c, port))
	default:
		x.printf("%s", sw.renderFull(c))
	}
	return nil
}

func (sw *Switch) versionText() string {
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
