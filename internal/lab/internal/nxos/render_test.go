package nxos

import (
	"os"
	"slices"
	"strings"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

// nxosDocConfig types the configuration of nxos-switch.md's `show running-config ipqos`
// example, in an order unlike the printed one (the switch sorts it).
var nxosDocConfig = []string{
	"configure terminal",
	"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "mtu 9216", "pause pfc-cos 3",
	"class-map type qos match-any ROCE-roce", "match dscp 26",
	"class-map type qos match-any ROCE-cnp", "match dscp 48",
	"policy-map type qos ROCE",
	"class ROCE-cnp", "set qos-group 6",
	"class class-default", "set qos-group 0",
	"class ROCE-roce", "set qos-group 3", // class-default stays last
	"policy-map type queuing ROCE-out",
	"class type queuing c-out-8q-q-default", "bandwidth remaining percent 50",
	"class type queuing c-out-8q-q3", "bandwidth remaining percent 50",
	"random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn",
	"class type queuing c-out-8q-q6", "priority level 1",
	"class type queuing c-out-8q-q1", "bandwidth remaining percent 0",
	"class type queuing c-out-8q-q2", "bandwidth remaining percent 0",
	"class type queuing c-out-8q-q4", "bandwidth remaining percent 0",
	"class type queuing c-out-8q-q5", "bandwidth remaining percent 0",
	"class type queuing c-out-8q-q7", "bandwidth remaining percent 0",
	"system qos", "service-policy type network-qos ROCE-nq",
	"interface Ethernet1/2", "service-policy type queuing output ROCE-out", "service-policy type qos input ROCE",
	"interface Ethernet1/1", "service-policy type qos input ROCE", "service-policy type queuing output ROCE-out",
	"priority-flow-control watch-dog-interval on", "priority-flow-control mode on",
	"end",
}

// docExample is the `show running-config ipqos` block of nxos-switch.md without its time lines.
func docExample(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../nxos-switch.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "## show running-config ipqos\n```\n")
	block, _, ok2 := strings.Cut(after, "```\n")
	if !ok || !ok2 {
		t.Fatal("no show running-config ipqos example in nxos-switch.md")
	}
	return withoutTimes(block)
}

func TestNXOSRunningConfigGolden(t *testing.T) {
	sw := startNXOS(t)
	goldenfile.Check(t, "testdata/running-config-fresh.golden", sw.RunningConfig())
	c := newNXOSCLI(t, sw, nxosDocConfig...)
	goldenfile.Check(t, "testdata/running-config-roce.golden", sw.RunningConfig())
	if got, want := sw.RunningConfig(), docExample(t); got != want {
		t.Errorf("RunningConfig differs from nxos-switch.md's example:\n%s\nwant:\n%s", got, want)
	}
	show := c.Run("show running-config ipqos")
	if withoutTimes(show) != sw.RunningConfig() || !strings.HasPrefix(show, "\n!Command: show running-config ipqos\n!Running configuration last done at: ") ||
		!strings.Contains(show, "\n!Time: ") {
		t.Errorf("show running-config ipqos:\n%s", show)
	}
	goldenfile.Check(t, "testdata/running-config-interface.golden", withoutTimes(c.Run("sh run int e1/1")))
	full := withoutTimes(c.Run("show running-config"))
	body := strings.TrimPrefix(sw.RunningConfig(), "\n!Command: show running-config ipqos\n\nversion 10.3(4a) Bios:version 05.47\n")
	wantFull := "\n!Command: show running-config\n\nversion 10.3(4a) Bios:version 05.47\nhostname nxos-1\n" + body +
		"\ninterface Ethernet1/3\n\ninterface Ethernet1/4\n"
	if full != wantFull {
		t.Errorf("show running-config:\n%s\nwant:\n%s", full, wantFull)
	}
}

// nxosAzureLines are the configuration lines of the shared sample (Azure Local's reference TOR
// configuration), comments and `!` separators left out.
func nxosAzureLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/nxos-running-config-ipqos-1.txt") // a copy of the shared sample
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "#") && s != "!" {
			out = append(out, l)
		}
	}
	return out
}

// nxosUnsupported are the sample's lines outside the lab's QoS subset: invalid commands.
var nxosUnsupported = []string{"switchport", "spanning-tree", "no logging"}

// TestNXOSAzureSample types the sample in and prints it back: the lines outside the QoS subset
// are invalid commands, the rest reads back with the same meaning in NX-OS's order (the
// sample's order is its author's, see its header).
func TestNXOSAzureSample(t *testing.T) {
	sw := startNXOS(t, func(s *device.Spec) { s.Ports = 48 })
	lines := nxosAzureLines(t)
	c := newNXOSCLI(t, sw, "configure terminal")
	for _, l := range lines {
		out := c.Run(l)
		unsupported := slices.ContainsFunc(nxosUnsupported, func(p string) bool { return strings.HasPrefix(strings.TrimSpace(l), p) })
		if unsupported != strings.HasSuffix(out, nxInvalid+"\n") || (!unsupported && out != "") {
			t.Errorf("%q: %q", l, out)
		}
	}
	goldenfile.Check(t, "testdata/running-config-azure.golden", sw.RunningConfig())
	var sample []string
	for _, l := range lines {
		if !slices.ContainsFunc(nxosUnsupported, func(p string) bool { return strings.HasPrefix(strings.TrimSpace(l), p) }) {
			sample = append(sample, l)
		}
	}
	got, want := blocks(sw.RunningConfig()), blocks(strings.Join(sample, "\n"))
	for head, body := range want {
		if strings.HasPrefix(head, "interface ") {
			continue // description, mtu, no shutdown: not ipqos
		}
		if !slices.Equal(got[head], body) {
			t.Errorf("%s: %q, want %q", head, got[head], body)
		}
	}
	if len(got) != len(want) {
		t.Errorf("blocks %v, want %v", got, want)
	}
	// The interface as a whole, in the sample's (device) order.
	iface := withoutTimes(c.Run("show running-config interface Ethernet1/17"))
	wantIface := "\n!Command: show running-config interface Ethernet1/17\n\nversion 10.3(4a) Bios:version 05.47\n\n" +
		strings.Join(sample[len(sample)-6:], "\n") + "\n"
	if iface != wantIface {
		t.Errorf("show running-config interface Ethernet1/17:\n%s\nwant:\n%s", iface, wantIface)
	}
	if !strings.Contains(sw.RunningConfig(), "\ninterface Ethernet1/17\n  priority-flow-control mode on send-tlv\n  service-policy type qos input AZLocal_SERVICES\n") {
		t.Errorf("the interface's ipqos lines:\n%s", sw.RunningConfig())
	}
}

// blocks reads a configuration text as its top-level lines, each with the sorted lines under
// it (a class's lines prefixed by the class), so that two texts that differ only in order
// compare equal.
func blocks(text string) map[string][]string {
	out := map[string][]string{}
	var head, class string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "!") || strings.HasPrefix(l, "version "):
		case !strings.HasPrefix(l, " "):
			head, class = l, ""
			out[head] = []string{}
		case strings.HasPrefix(l, "    "):
			out[head] = append(out[head], class+" / "+strings.TrimSpace(l))
		default:
			class = strings.TrimSpace(l)
			out[head] = append(out[head], class)
		}
	}
	for _, b := range out {
		slices.Sort(b)
	}
	return out
}

func TestNXOSCopyRunStart(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw, nxosDocConfig...)
	if sw.StartupConfig() != "" {
		t.Errorf("a switch that never saved has a startup-config:\n%s", sw.StartupConfig())
	}
	if got := c.Run("copy running-config startup-config"); got != "[########################################] 100%\nCopy complete, now saving to disk (please wait)...\nCopy complete.\n" {
		t.Errorf("copy running-config startup-config: %q", got)
	}
	saved := sw.RunningConfig()
	if sw.StartupConfig() != saved {
		t.Errorf("startup-config:\n%s\nwant:\n%s", sw.StartupConfig(), saved)
	}
	full := withoutTimes(c.Run("show running-config"))
	for _, l := range []string{"configure terminal", "hostname leaf-1", "class-map type qos LATER", "end"} {
		c.Must(l)
	}
	if sw.StartupConfig() != saved {
		t.Errorf("the startup-config followed the running-config without a copy:\n%s", sw.StartupConfig())
	}
	show := c.Run("show startup-config")
	if !strings.Contains(show, "\n!Startup config saved at: ") ||
		strings.Replace(withoutTimes(show), "!Command: show startup-config", "!Command: show running-config", 1) != full {
		t.Errorf("show startup-config:\n%s\nwant (as show running-config was):\n%s", show, full)
	}
	c.Run("copy run start")
	if sw.StartupConfig() != sw.RunningConfig() || !strings.Contains(sw.StartupConfig(), "class-map type qos match-all LATER") {
		t.Errorf("copy run start:\n%s", sw.StartupConfig())
	}
}
