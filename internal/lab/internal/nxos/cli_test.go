package nxos

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestNXOSCaret checks the caret line against the example of nxos-switch.md, character for
// character: the echoed command starts right after the prompt, so the caret counts it.
func TestNXOSCaret(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw, "configure terminal")
	want := "                ^\n% Invalid command at '^' marker.\n"
	if got := c.Run("polcy-map type qos X"); got != want {
		t.Errorf("nxos-1(config)# polcy-map type qos X:\n%s\nwant:\n%s", got, want)
	}
	// Extra blanks move the words, and the caret with them.
	want = strings.Repeat(" ", 8+17) + "^\n" + nxInvalid + "\n"
	c.Must("end")
	if got := c.Run("   show    ver   extra"); got != want {
		t.Errorf("blanks: %q, want %q", got, want)
	}
}

// TestNXOSErrors checks every error text of nxos-switch.md in each mode.
func TestNXOSErrors(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw)
	c.check([]nxCase{
		{"frobnicate", "frobnicate", nxInvalid},
		{"show", "$", nxIncomplete},
		{"show ver extra", "extra", nxInvalid},
		{"e", "e", nxAmbiguous}, // enable, exit
		{"c", "c", nxAmbiguous}, // configure, copy, checkpoint
		{"end", "end", nxInvalid},
		{"terminal width 10", "10", nxRange(24, 511)},
		{"terminal length 512", "512", nxRange(0, 511)},
		{"terminal length -1", "-1", nxInvalid},
		{"show running-config interface Ethernet1/5", "Ethernet1/5", nxInvalid},
		{"show running-config interface Ethernet2/1", "Ethernet2/1", nxInvalid},
		{"show running-config interface ethernet", "$", nxIncomplete},
		{"show running-config ipqos all", "all", nxInvalid},
		{"show checkpoint", "$", nxIncomplete},
		{"checkpoint", "$", nxIncomplete},
		{"checkpoint bad/name", "bad/name", nxInvalid},
		{"checkpoint " + strings.Repeat("x", 81), "xxx", nxInvalid},
		{"rollback running-config checkpoint NOPE atomic", "", "ERROR: Checkpoint NOPE does not exist"},
		{"rollback running-config checkpoint NOPE sometimes", "sometimes", nxInvalid},
		{"rollback startup-config checkpoint NOPE", "startup-config", nxInvalid},
		{"no checkpoint NOPE", "", "ERROR: Checkpoint NOPE does not exist"},
		{"no policy-map type qos X", "policy-map", nxInvalid}, // a configuration command
		{"copy running-config", "$", nxIncomplete},
	})
	c.Must("configure terminal")
	c.check([]nxCase{
		{"polcy-map type qos X", "polcy-map", nxInvalid},
		{"policy-map type q X", "q X", nxAmbiguous}, // qos, queuing
		{"policy-map type qos", "$", nxIncomplete},
		{"policy-map type qos bad!name", "bad!name", nxInvalid},
		{"policy-map type qos " + strings.Repeat("P", 41), "PPP", nxInvalid},
		{"policy-map type queuing default-8q-out-policy", "", "ERROR: default-8q-out-policy is a system-defined policy-map and cannot be modified"},
		{"class-map type qos match-some X", "match-some", nxInvalid},
		{"class-map type queuing X", "queuing", nxInvalid},
		{"no policy-map type qos NOPE", "", "ERROR: policy-map NOPE does not exist"},
		{"no class-map type qos NOPE", "", "ERROR: class-map NOPE does not exist"},
		{"interface Ethernet1/5", "Ethernet1/5", nxInvalid},
		{"interface Ethernet1/0", "Ethernet1/0", nxInvalid},
		{"interface ethernet", "$", nxIncomplete},
		{"interface ethernet 1/x", "1/x", nxInvalid},
		{"interface mgmt0", "mgmt0", nxInvalid},
		{"system", "$", nxIncomplete},
		{"hostname bad!name", "bad!name", nxInvalid},
		{"router bgp 65000", "router", nxInvalid},
		{"e", "e", nxAmbiguous}, // end, exit, enable
	})
	c.Must("class-map type qos match-any ROCE")
	c.check([]nxCase{
		{"match dscp 64", "64", nxRange(0, 63)},
		{"match dscp 0-64", "0-64", nxRange(0, 63)},
		{"match dscp 7-3", "7-3", nxInvalid},
		{"match dscp 1,,2", "1,,2", nxInvalid},
		{"match dscp 1-2-3", "1-2-3", nxInvalid},
		{"match dscp af31", "af31", nxInvalid},
		{"match dscp 1 2", "2", nxInvalid},
		{"match cos 8", "8", nxRange(0, 7)},
		{"match precedence 1", "precedence", nxInvalid},
		{"match", "$", nxIncomplete},
	})
	c.Must("policy-map type qos ROCE")
	c.Must("class ROCE")
	c.check([]nxCase{
		{"set qos-group 8", "8", nxRange(0, 7)},
		{"set cos 1", "cos", nxInvalid},
		{"set qos-group", "$", nxIncomplete},
		{"class NOPE", "", "ERROR: class-map NOPE does not exist"},
		{"cl ROCE", "cl", nxAmbiguous}, // class, class-map (of configure terminal)
	})
	c.Must("policy-map type network-qos NQ")
	c.Must("class type network-qos c-8q-nq3")
	c.check([]nxCase{
		{"pause pfc-cos 8", "8", nxRange(0, 7)},
		{"pause buffer-size 1 pause-threshold 1 resume-threshold 1", "buffer-size", nxInvalid},
		{"mtu 575", "575", nxRange(576, 9216)},
		{"mtu 9217", "9217", nxRange(576, 9216)},
		{"class type network-qos c-8q-nq8", "", "ERROR: class-map c-8q-nq8 does not exist"},
		{"class type queuing c-out-8q-q3", "queuing", nxInvalid},
	})
	c.Must("policy-map type queuing OUT")
	c.Must("class type queuing c-out-8q-q3")
	const wred = "random-detect minimum-threshold 150 kbytes maximum-threshold "
	c.check([]nxCase{
		{"bandwidth percent 101", "101", nxRange(0, 100)},
		{"bandwidth remaining 5", "5", nxInvalid},
		{"priority level 8", "8", nxRange(1, 7)},
		{"priority level 0", "0", nxRange(1, 7)},
		{"priority", "$", nxIncomplete},
		{wred + "99999 kbytes drop-probability 100 weight 0", "99999", nxRange(0, 51200)},
		{wred + "51 mbytes drop-probability 100 weight 0", "51", nxRange(0, 50)},
		{wred + "1500 parsecs drop-probability 100 weight 0", "parsecs", nxInvalid},
		{wred + "1500 kbytes drop-probability 101 weight 0", "101", nxRange(0, 100)},
		{wred + "1500 kbytes drop-probability 100 weight 16", "16", nxRange(0, 15)},
		{wred + "1500 kbytes drop-probability 100", "$", nxIncomplete},
		{wred + "1500 kbytes drop-probability 100 weight 0 ecn now", "now", nxInvalid},
		{"pause buffer-size 5000 pause-threshold 50", "$", nxIncomplete},
		{"pause buffer-size 4999 pause-threshold 50 resume-threshold 40", "4999", nxRange(5000, 268435456)},
		{"pause buffer-size 5000 pause-threshold 268435457 resume-threshold 40", "268435457", nxRange(0, 268435456)},
		{"class type queuing c-out-8q-q8", "", "ERROR: class-map c-out-8q-q8 does not exist"},
		// a global command typed in a submode: the error of the mode that got furthest
		{"policy-map type qos X Y", "Y", nxInvalid},
	})
	c.Must("system qos")
	c.check([]nxCase{
		{"service-policy type queuing input default-8q-in-policy", "input", nxInvalid},
		{"service-policy type queuing output NOPE", "", "ERROR: policy-map NOPE does not exist"},
		{"service-policy type network-qos OUT", "", "ERROR: policy-map OUT does not exist"}, // a queuing policy
		{"service-policy type qos", "$", nxIncomplete},
	})
	c.Must("interface Ethernet1/1")
	c.check([]nxCase{
		{"mtu 9217", "9217", nxRange(576, 9216)},
		{"priority-flow-control mode maybe", "maybe", nxInvalid},
		{"priority-flow-control", "$", nxIncomplete},
		{"priority-flow-control watch-dog-interval sometimes", "sometimes", nxInvalid},
		{"service-policy type qos input NOPE", "", "ERROR: policy-map NOPE does not exist"},
		{"service-policy type qos input NQ", "", "ERROR: policy-map NQ does not exist"}, // a network-qos policy
		{"service-policy type network-qos NQ", "network-qos", nxInvalid},
		{"service-policy type qos output ROCE", "output", nxInvalid},
		{"flowcontrol send maybe", "maybe", nxInvalid},
		{"description", "$", nxIncomplete},
		{"s", "s", nxAmbiguous}, // service-policy, shutdown, show, system
		{"no priority-flow-control", "$", nxIncomplete},
	})
	want := "\n!Command: show running-config ipqos\n\nversion 10.3(4a) Bios:version 05.47\n\n" +
		"class-map type qos match-any ROCE\npolicy-map type qos ROCE\n  class ROCE\n" +
		"policy-map type queuing OUT\n  class type queuing c-out-8q-q3\n" +
		"policy-map type network-qos NQ\n  class type network-qos c-8q-nq3\n"
	if got := sw.RunningConfig(); got != want {
		t.Errorf("errors changed the configuration:\n%s\nwant:\n%s", got, want)
	}
}

func TestNXOSModesAndAbbreviations(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw)
	c.Steps([]labtest.Step{
		{"", "nxos-1# "},
		{"enable", "nxos-1# "},
		{"conf", "nxos-1(config)# "},
		{"exit", "nxos-1# "},
		{"conf t", "nxos-1(config)# "},
		{"int eth1/1", "nxos-1(config-if)# "},
		{"exit", "nxos-1(config)# "},
		{"interface Ethernet1/2", "nxos-1(config-if)# "},
		{"int e1/3", "nxos-1(config-if)# "},
		{"INTERFACE ethernet 1/4", "nxos-1(config-if)# "},
		{"class-map type qos match-any CM", "nxos-1(config-cmap-qos)# "}, // a global command from a submode
		{"exit", "nxos-1(config)# "},
		{"class-map type qos CM2", "nxos-1(config-cmap-qos)# "},
		{"pol type qos P", "nxos-1(config-pmap-qos)# "},
		{"class CM", "nxos-1(config-pmap-c-qos)# "},
		{"exit", "nxos-1(config-pmap-qos)# "},
		{"class class-default", "nxos-1(config-pmap-c-qos)# "},
		{"class CM2", "nxos-1(config-pmap-c-qos)# "}, // a policy-map command from its class
		{"pol type network-qos NQ", "nxos-1(config-pmap-nqos)# "},
		{"class type network-qos c-8q-nq-default", "nxos-1(config-pmap-nqos-c)# "},
		{"exit", "nxos-1(config-pmap-nqos)# "},
		{"pol ty que Q", "nxos-1(config-pmap-que)# "},
		{"class type queuing c-in-q1", "nxos-1(config-pmap-c-que)# "},
		{"sh run ipqos", "nxos-1(config-pmap-c-que)# "}, // exec commands from any configuration mode
		{"sys qos", "nxos-1(config-sys-qos)# "},
		{"! a comment", "nxos-1(config-sys-qos)# "},
		{"end", "nxos-1# "},
		{"configure terminal", "nxos-1(config)# "},
		{"system qos", "nxos-1(config-sys-qos)# "},
		{"exit", "nxos-1(config)# "},
		{"hostname leaf-1", "leaf-1(config)# "},
		{"end", "leaf-1# "},
		{"term len 0", "leaf-1# "},
		{"terminal width 511", "leaf-1# "},
	})
	c.Answers("", []labtest.Answer{
		{"configure terminal", nxosConfigBanner},
		{"end", ""},
		{"terminal length 0", ""},
		{"show hostname", "leaf-1\n"},
		{"sh start", ""}, // nothing saved yet
		{"sh checkpoint summary", "User Checkpoints:\n" + strings.Repeat("-", 80) + "\n"},
		{"sh checkpoint summary user", "User Checkpoints:\n" + strings.Repeat("-", 80) + "\n"},
	})
	if got := c.Run("show version"); !strings.Contains(got, "  NXOS: version 10.3(4a)\n") || !strings.Contains(got, "  Device name: leaf-1\n") {
		t.Errorf("show version:\n%s", got)
	}
	c.WantClosed("exit", "exec mode")
}

// TestNXOSMatchLists: lists with ranges, repeated lines adding to the set, compact printing.
func TestNXOSMatchLists(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw, "conf t", "class-map type qos match-all CM")
	steps := []struct{ line, want string }{
		{"match dscp 26", "  match dscp 26\n"},
		{"match dscp 0-7,9", "  match dscp 0-7,9,26\n"},
		{"match dscp 11-13,63,8", "  match dscp 0-9,11-13,26,63\n"},
		{"no match dscp 5-7,12,63", "  match dscp 0-4,8-9,11,13,26\n"},
		{"match cos 3,5-7", "  match dscp 0-4,8-9,11,13,26\n  match cos 3,5-7\n"},
		{"no match dscp", "  match cos 3,5-7\n"},
		{"no match cos 3-7", ""},
	}
	for _, s := range steps {
		c.Must(s.line)
		want := "class-map type qos match-all CM\n" + s.want
		if got := sw.RunningConfig(); !strings.HasSuffix(got, "\n\n"+want) {
			t.Errorf("after %q:\n%s\nwant it to end with:\n%s", s.line, got, want)
		}
	}
	for set, want := range map[uint64]string{0: "", 1 << 63: "63", ^uint64(0): "0-63", 0b1010: "1,3", 0b110: "1-2", 0b1110111: "0-2,4-6"} {
		if got := compactList(set); got != want {
			t.Errorf("compactList(%b) = %q, want %q", set, got, want)
		}
	}
}

// TestNXOSReferences: what a policy-map, a class or a service-policy names must exist, and
// what is in use cannot be deleted; nothing changes when a line is refused.
func TestNXOSReferences(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw, "conf t")
	for _, l := range []string{
		"class-map type qos match-any ROCE", "policy-map type qos P", "class ROCE",
		"policy-map type network-qos NQ", "policy-map type queuing OUT",
		"interface Ethernet1/1", "service-policy type qos input P", "service-policy type queuing input OUT",
		"service-policy type queuing output default-8q-out-policy", // a system-defined policy is a valid target
		"system qos", "service-policy type qos input P", "service-policy type network-qos NQ", "exit",
	} {
		c.Must(l)
	}
	before := sw.RunningConfig()
	c.check([]nxCase{
		{"no class-map type qos ROCE", "", "ERROR: Class-map is in use, cannot delete"},
		{"no policy-map type qos P", "", "ERROR: Policy-map is in use, cannot delete"},
		{"no policy-map type queuing OUT", "", "ERROR: Policy-map is in use, cannot delete"},
		{"no policy-map type network-qos NQ", "", "ERROR: Policy-map is in use, cannot delete"},
		{"no policy-map type queuing NQ", "", "ERROR: policy-map NQ does not exist"}, // names are per type
	})
	if got := sw.RunningConfig(); got != before {
		t.Errorf("refused deletions changed the configuration:\n%s", got)
	}
	for _, l := range []string{"interface Ethernet1/1", "no service-policy type qos input P", "exit"} {
		c.Must(l)
	}
	c.check([]nxCase{{"no policy-map type qos P", "", "ERROR: Policy-map is in use, cannot delete"}}) // system qos still binds it
	for _, l := range []string{
		"system qos", "no service-policy type qos input P", "no service-policy type network-qos NQ", "exit",
		"no policy-map type qos P", "no class-map type qos ROCE", "no policy-map type network-qos NQ",
		"interface Ethernet1/1", "no service-policy type queuing input", "no service-policy type queuing output default-8q-out-policy",
		"exit", "no policy-map type queuing OUT",
	} {
		c.Must(l)
	}
	if got, fresh := sw.RunningConfig(), newNXOSRunning(t); got != fresh {
		t.Errorf("after deleting everything:\n%s\nwant:\n%s", got, fresh)
	}
}

// newNXOSRunning is a fresh switch's RunningConfig.
func newNXOSRunning(t *testing.T) string {
	t.Helper()
	sw := startNXOS(t)
	return sw.RunningConfig()
}

// TestNXOSDefaultsAndNoForms sets every line kind and takes it back with the no forms (or the
// default value): the running-config must be the fresh one again.
func TestNXOSDefaultsAndNoForms(t *testing.T) {
	sw := startNXOS(t)
	fresh := sw.RunningConfig()
	c := newNXOSCLI(t, sw, "configure terminal")
	set := []string{
		"class-map type qos match-any CM", "match dscp 1-3", "match cos 4",
		"policy-map type qos P", "class CM", "set qos-group 3", "class class-default", "set qos-group 0",
		"policy-map type network-qos NQ", "class type network-qos c-8q-nq3", "pause pfc-cos 3-4", "mtu 9216",
		"policy-map type queuing Q", "class type queuing c-out-8q-q3", "bandwidth remaining percent 50", "priority level 2",
		"random-detect minimum-threshold 1 mbytes maximum-threshold 2 mbytes drop-probability 5 weight 1",
		"class type queuing c-in-q3", "bandwidth percent 20", "pause buffer-size 102400 pause-threshold 40000 resume-threshold 38000",
		"system qos", "service-policy type network-qos NQ", "service-policy type queuing output Q", "service-policy type qos input P",
		"interface Ethernet1/2", "priority-flow-control mode on send-tlv", "priority-flow-control watch-dog-interval on",
		"flowcontrol send on", "flowcontrol receive on", "description to leaf-2", "mtu 9216", "no shutdown",
		"service-policy type qos input P", "service-policy type queuing output Q", "service-policy type queuing input Q",
	}
	c.Must(set...)
	if sw.RunningConfig() == fresh {
		t.Fatal("nothing changed")
	}
	unset := []string{
		"no priority-flow-control mode on send-tlv", "no priority-flow-control watch-dog-interval", "flowcontrol send off",
		"no flowcontrol receive", "no description", "no mtu", "shutdown", "no service-policy type qos input P",
		"no service-policy type queuing output", "no service-policy type queuing input Q",
		"priority-flow-control mode auto", "priority-flow-control watch-dog-interval off", // the defaults: no line
		"system qos", "no service-policy type network-qos NQ", "no service-policy type queuing output Q",
		"no service-policy type qos input", "exit",
		"policy-map type queuing Q", "class type queuing c-in-q3", "no bandwidth remaining percent", // not this class's form
		"no bandwidth percent 20", "no pause buffer-size", "class type queuing c-out-8q-q3", "no bandwidth remaining percent",
		"no priority", "no random-detect", "exit", "no class type queuing c-out-8q-q3", "no class type queuing c-in-q3",
		"policy-map type network-qos NQ", "class type network-qos c-8q-nq3", "no pause pfc-cos", "no mtu 9216", "exit",
		"no class type network-qos c-8q-nq3",
		"policy-map type qos P", "class CM", "no set qos-group", "exit", "no class CM", "no class class-default",
		"class-map type qos CM", "no match dscp 1-3", "no match cos 4", "exit",
		"no policy-map type qos P", "no policy-map type queuing Q", "no policy-map type network-qos NQ",
		"no class-map type qos match-any CM",
	}
	c.Must(unset...)
	if got := sw.RunningConfig(); got != fresh {
		t.Errorf("after the no forms:\n%s\nwant:\n%s", got, fresh)
	}
	if got := c.Run("show running-config interface Ethernet1/2"); !strings.HasSuffix(got, "\n\ninterface Ethernet1/2\n") {
		t.Errorf("interface back to its defaults:\n%s", got)
	}
}
