package eos

import (
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestEOSErrors checks every error text of eos-switch.md: the interactive CLI names no token.
func TestEOSErrors(t *testing.T) {
	sw := startEOS(t)
	c := newEOSCLI(t, sw)
	const priv = "% Invalid input (privileged mode required)\n"
	c.Answers("exec ", []labtest.Answer{
		{"configure", priv},
		{"conf t", priv},
		{"show running-config", priv},
		{"sh start", priv},
		{"show configuration sessions", priv},
		{"write memory", priv},
		{"no configure session x", priv},
		{"frobnicate", "% Invalid input\n"},
		{"show", "% Incomplete command\n"},
		{"show ver extra", "% Invalid input\n"},
		{"terminal", "% Incomplete command\n"},
		{"terminal length -1", "% Invalid input\n"},
		{"terminal width 5", "% Invalid input\n"},
		{"e", "% Ambiguous command\n"}, // enable, exit
	})
	c.Must("enable")
	if got := c.Run("c"); got != "% Ambiguous command\n" { // configure, copy
		t.Errorf("c: %q", got)
	}
	c.Must("configure terminal")
	c.Answers("config ", []labtest.Answer{
		{"qos map dscp 64 to traffic-class 1", "% Invalid input\n"},
		{"qos map dscp 1 2 x to traffic-class 1", "% Invalid input\n"},
		{"qos map dscp 1 to traffic-class 8", "% Invalid input\n"},
		{"qos map dscp 1 to traffic-class 1 drop-precedence 3", "% Invalid input\n"},
		{"qos map dscp 1 to traffic-class", "% Incomplete command\n"},
		{"qos map dscp to traffic-class 1", "% Invalid input\n"},
		{"qos map dscp", "% Incomplete command\n"},
		{"qos map cos 8 to traffic-class 1", "% Invalid input\n"},
		{"qos map traffic-class 1 to tx-queue 8", "% Invalid input\n"},
		{"qos map traffic-class 1 to dscp 8", "% Invalid input\n"},
		{"no qos map dscp 64", "% Invalid input\n"},
		{"qos map exp 1 to traffic-class 1", "% Invalid input\n"},
		{"interface Ethernet5", "% Invalid input\n"},
		{"interface Management1", "% Invalid input\n"},
		{"interface", "% Incomplete command\n"},
		{"hostname bad!name", "% Invalid input\n"},
		{"e", "% Ambiguous command\n"}, // end, exit
		{"commit", "% Invalid input\n"},
		{"router bgp 65000", "% Invalid input\n"},
	})
	c.Must("qos profile ROCE")
	c.Must("tx-queue 3")
	c.Answers("tx-queue ", []labtest.Answer{
		{"bandwidth percent 0", "% Invalid input\n"},
		{"bandwidth percent 101", "% Invalid input\n"},
		{"priority", "% Incomplete command\n"},
		{"random-detect ecn minimum-threshold 10 parsecs maximum-threshold 20 kbytes", "% Invalid input\n"},
		{"random-detect ecn minimum-threshold 0 kbytes maximum-threshold 20 kbytes", "% Invalid input\n"},
		{"random-detect ecn minimum-threshold 10 mbytes maximum-threshold 300 mbytes", "% Invalid input\n"},
		{"random-detect ecn minimum-threshold 10 kbytes maximum-threshold 20 kbytes max-mark-probability 0", "% Invalid input\n"},
		{"random-detect ecn minimum-threshold 10 kbytes maximum-threshold 20 kbytes weight 16", "% Invalid input\n"},
		{"random-detect ecn minimum-threshold 10 kbytes maximum-threshold 20 kbytes weight 1 weight 2", "% Invalid input\n"},
		{"random-detect ecn minimum-threshold 200 kbytes maximum-threshold 100 kbytes", "% Minimum threshold must be less than or equal to maximum threshold\n"},
		{"random-detect ecn minimum-threshold 2 mbytes maximum-threshold 1500 kbytes", "% Minimum threshold must be less than or equal to maximum threshold\n"},
		{"random-detect ecn minimum-threshold 20 segments maximum-threshold 10 segments", "% Minimum threshold must be less than or equal to maximum threshold\n"},
		// a global command typed in a submode: the error of the mode that got furthest
		{"qos map dscp 64 to traffic-class 1", "% Invalid input\n"},
		{"tx-queue 8", "% Invalid input\n"},
		{"priority-flow-control p", "% Ambiguous command\n"}, // priority, pause
		{"priority-flow-control priority 8 no-drop", "% Invalid input\n"},
		{"priority-flow-control pause watchdog port timer timeout 0 polling-interval auto recovery-time 1", "% Invalid input\n"},
		{"priority-flow-control pause watchdog port timer timeout 60.01 polling-interval auto recovery-time 1", "% Invalid input\n"},
		{"priority-flow-control pause watchdog port timer timeout 0.005 polling-interval auto recovery-time 1", "% Invalid input\n"},
		{"priority-flow-control pause watchdog port timer timeout 1 polling-interval soon recovery-time 1", "% Invalid input\n"},
		{"priority-flow-control pause watchdog port action shout", "% Invalid input\n"},
		{"priority-flow-control pause watchdog port timer timeout 1 polling-interval auto", "% Incomplete command\n"},
	})
	c.Must("interface Et1")
	c.Answers("interface ", []labtest.Answer{
		{"mtu 67", "% Invalid input\n"},
		{"mtu 9215", "% Invalid input\n"},
		{"flowcontrol send maybe", "% Invalid input\n"},
		{"service-profile", "% Incomplete command\n"},
		{"s", "% Ambiguous command\n"}, // service-profile, show
		{"no priority-flow-control", "% Incomplete command\n"},
	})
	if got := sw.RunningConfig(); !strings.Contains(got, "qos profile ROCE\n   !\n   tx-queue 3\n!\ninterface Ethernet1\n!\n") {
		t.Errorf("errors changed the configuration:\n%s", got)
	}
}

func TestEOSModesAndAbbreviations(t *testing.T) {
	sw := startEOS(t)
	c := newEOSCLI(t, sw)
	c.Steps([]labtest.Step{
		{"", "eos-1>"},
		{"en", "eos-1#"},
		{"disable", "eos-1>"},
		{"enable", "eos-1#"},
		{"conf", "eos-1(config)#"},
		{"exit", "eos-1#"},
		{"conf t", "eos-1(config)#"},
		{"int Et1", "eos-1(config-if-Et1)#"},
		{"interface eth2", "eos-1(config-if-Et2)#"},
		{"interface Ethernet 3", "eos-1(config-if-Et3)#"},
		{"int e4", "eos-1(config-if-Et4)#"},
		{"exit", "eos-1(config)#"},
		{"qos profile ROCE", "eos-1(config-qos-profile-ROCE)#"},
		{"tx-queue 3", "eos-1(config-qos-profile-ROCE-txq-3)#"},
		{"exit", "eos-1(config-qos-profile-ROCE)#"},
		{"tx-queue 5", "eos-1(config-qos-profile-ROCE-txq-5)#"},
		{"qos trust cos", "eos-1(config-qos-profile-ROCE)#"}, // a profile command from a queue
		{"tx-queue 3", "eos-1(config-qos-profile-ROCE-txq-3)#"},
		{"interface Ethernet2", "eos-1(config-if-Et2)#"}, // a global command from a queue
		{"! a comment", "eos-1(config-if-Et2)#"},
		{"sh run int Et2", "eos-1(config-if-Et2)#"},
		{"end", "eos-1#"},
		{"terminal length 0", "eos-1#"},
	})
	c.Answers("", []labtest.Answer{
		{"terminal length 0", "Pagination disabled.\n"},
		{"term len 25", "Pagination set to 25 lines.\n"},
		{"terminal width 32767", "Width set to 32767 columns.\n"},
		{"show hostname", "Hostname: eos-1\nFQDN:     eos-1\n"},
		{"sh startup-config", ""},
		{"sh conf sess", "Maximum number of completed sessions: 1\nMaximum number of pending sessions: 5\n\n" +
			"  Name                State         User       Terminal\n  ------------------- ------------- ---------- --------\n"},
		{"show running-config | section x | json", "% This is an unconverted command\n{\n    \"errors\": [\n        \"This is an unconverted command\"\n    ]\n}\n"},
		{"show running-config |", "% Incomplete command\n"},
		{"show running-config | grep x", "% Invalid input\n"},
		{"show running-config | include (", "% Invalid input\n"},
	})
	if got := c.Run("show version"); !strings.Contains(got, "Arista DCS-7280SR3-48YC8\n") || !strings.Contains(got, "Software image version: 4.31.2F\n") {
		t.Errorf("show version:\n%s", got)
	}
	if got := c.Run("show qos maps"); !strings.Contains(got, "  tc-dp:     1-1  0-1  2-1") {
		t.Errorf("show qos maps:\n%s", got)
	}
	c.WantClosed("exit", "privileged exec")
}

// TestEOSDefaultsAndNoForms sets everything and takes it back with the no forms: the
// running-config must be the fresh one again.
func TestEOSDefaultsAndNoForms(t *testing.T) {
	sw := startEOS(t)
	fresh := sw.RunningConfig()
	c := newEOSCLI(t, sw, "enable", "configure")
	set := []string{
		"qos map dscp 8 9 to traffic-class 3 drop-precedence 2", "qos map cos 3 4 to traffic-class 6", "qos map traffic-class 6 to tx-queue 2",
		"qos map dscp 26 to traffic-class 5", "qos profile ROCE", "qos trust dscp", "priority-flow-control on",
		"priority-flow-control priority 3 no-drop", "priority-flow-control pause watchdog", "tx-queue 3", "bandwidth percent 30", "priority strict",
		"random-detect ecn minimum-threshold 1 kbytes maximum-threshold 2 kbytes", "interface Ethernet1", "service-profile ROCE",
		"priority-flow-control on", "priority-flow-control priority 4 drop", "priority-flow-control pause watchdog",
		"priority-flow-control pause watchdog port action errdisable",
		"priority-flow-control pause watchdog port timer timeout 1 polling-interval 0.1 recovery-time 2 forced",
		"flowcontrol send on", "flowcontrol receive off", "description to leaf-2", "mtu 9214",
	}
	c.Must(set...)
	if sw.RunningConfig() == fresh {
		t.Fatal("nothing changed")
	}
	unset := []string{
		"no priority-flow-control on", "no priority-flow-control priority 4", "no priority-flow-control pause watchdog",
		"no priority-flow-control pause watchdog port action", "no priority-flow-control pause watchdog port timer",
		"no flowcontrol send", "no flowcontrol receive off", "no description", "no mtu", "no service-profile",
		"exit", "no qos map dscp 8 9 to traffic-class 3", "no qos map cos 3 4", "no qos map traffic-class 6 to tx-queue",
		"qos map dscp 26 to traffic-class 3", // the default value is no line
		"qos profile ROCE", "tx-queue 3", "no bandwidth percent", "no random-detect ecn", "no priority",
		"no tx-queue 3", "no qos trust", "no priority-flow-control priority 3", "exit", "no qos profile ROCE", "no qos profile NOPE",
	}
	c.Must(unset...)
	if got := sw.RunningConfig(); got != fresh {
		t.Errorf("after the no forms:\n%s\nwant:\n%s", got, fresh)
	}
	c.Must("interface Ethernet2")
	c.Must("mtu 1500")
	c.Must("exit")
	c.Must("no interface Et2")
	if got := sw.RunningConfig(); got != fresh {
		t.Errorf("no interface did not reset the port:\n%s", got)
	}
	c.Must("hostname leaf-1")
	if p := c.Term.Prompt(); p != "leaf-1(config)#" || !strings.Contains(sw.RunningConfig(), "! device: leaf-1 (DCS-7280SR3-48YC8, EOS-4.31.2F)\n") {
		t.Errorf("hostname: prompt %q\n%s", p, sw.RunningConfig())
	}
}

func TestEOSRejectLinesAndWriteMemory(t *testing.T) {
	sw := startEOS(t)
	c := newEOSCLI(t, sw, "enable")
	if sw.StartupConfig() != "" {
		t.Errorf("a fresh switch has a startup-config:\n%s", sw.StartupConfig())
	}
	c.Must("configure terminal")
	before := sw.RunningConfig()
	sw.RejectLines("traffic-class 3", unavailable) // a captured refusal (eos-switch.md, "Refusals")
	if got := c.Run("qos map dscp 10 to traffic-class 3"); got != "% "+unavailable+"\n" || sw.RunningConfig() != before {
		t.Errorf("a rejected line: %q\n%s", got, sw.RunningConfig())
	}
	if got := c.Run("show running-config | include traffic-class 3"); got != "" {
		t.Errorf("RejectLines refused a show command: %q", got)
	}
	sw.RejectLines("", "")
	c.Must("qos map dscp 10 to traffic-class 3")
	if got := c.Run("write memory"); got != "Copy completed successfully.\n" || sw.StartupConfig() != sw.RunningConfig() {
		t.Errorf("write memory: %q\n%s", got, sw.StartupConfig())
	}
	c.Must("qos map dscp 11 to traffic-class 3")
	if strings.Contains(sw.StartupConfig(), "dscp 10 11") {
		t.Error("the startup-config followed the running-config without write memory")
	}
	c.Must("end")
	if got := c.Run("copy running-config startup-config"); got != "Copy completed successfully.\n" || sw.StartupConfig() != sw.RunningConfig() {
		t.Errorf("copy running-config startup-config: %q", got)
	}
	if got := c.Run("show startup-config"); got != sw.RunningConfig() {
		t.Errorf("show startup-config:\n%s", got)
	}
	n := sw.Counters().Commands
	c.Run("show hostname")
	c.Run("   ")
	if got := sw.Counters().Commands; got != n+1 {
		t.Errorf("commands counted %d, want %d", got, n+1)
	}
}

func TestEOSCrypt(t *testing.T) {
	// openssl passwd -6 -salt abcdefgh secret
	const want = "$6$abcdefgh$ltjgWl6579NluT/Vi1nwEvcil.G5Nbc4NiXZaNGStk8PSwGfQv72N2CKPPrVACtLtip/cZ/1GM/O6IND4WQhG."
	if got := sha512Crypt("secret", "abcdefgh"); got != want {
		t.Errorf("sha512Crypt = %s, want %s", got, want)
	}
	if s := newCryptSalt(); len(s) != 16 || strings.Trim(s, cryptAlphabet) != "" {
		t.Errorf("salt %q", s)
	}
}

// TestEOSUptimeText: show version's Uptime in the forms of EOS 4.28 and later captures
// (eos-switch.md, "Exec commands").
func TestEOSUptimeText(t *testing.T) {
	for _, c := range []struct {
		up   time.Duration
		want string
	}{
		{57 * time.Minute, "57 minutes"},
		{2*time.Hour + 5*time.Minute, "2 hours and 5 minutes"},
		{40*time.Hour + 45*time.Minute, "1 day, 16 hours and 45 minutes"},
		{7*24*time.Hour + 90*time.Minute, "1 week, 0 days, 1 hour and 30 minutes"},
		{10*24*time.Hour + 7*time.Hour + 5*time.Minute + 30*time.Second, "1 week, 3 days, 7 hours and 5 minutes"},
		{0, "0 minutes"},
	} {
		if got := uptimeText(c.up); got != c.want {
			t.Errorf("uptimeText(%v) = %q, want %q", c.up, got, c.want)
		}
	}
}
