package lab

// The `nxos` switch driven by scrapligo's cisco_nxos platform, an independent client that
// knows real NX-OS: its prompt patterns (with the trailing space), on-open commands (terminal
// width 511, terminal length 0) and failure strings (`% Invalid command`, `ERROR:`) must all
// work against the lab as they do against a switch.

import (
	"strings"
	"testing"
)

func TestNXOSWithScrapli(t *testing.T) {
	l, sw := startNXOS(t)
	drv := scrapliOpen(t, "cisco_nxos", l.Inventory().Devices["nxos-1"])

	show := func(cmd string) string {
		t.Helper()
		r, err := drv.SendCommand(cmd)
		if err != nil || r.Failed != nil {
			t.Fatalf("%s: %v %v\n%s", cmd, err, r.Failed, r.Result)
		}
		return r.Result
	}
	if got, want := withoutTimes(show("show running-config ipqos")), strings.TrimSpace(sw.RunningConfig()); strings.TrimSpace(got) != want {
		t.Errorf("scrapli read:\n%q\nwant:\n%q", got, want)
	}
	if got := show("show hostname"); got != "nxos-1" {
		t.Errorf("show hostname: %q", got)
	}

	// scrapli's cisco_nxos platform does not take a prompt containing "config-s" for
	// configuration mode, so (config-sys-qos)# must be left before the next operation, as on
	// a real switch.
	mr, err := drv.SendConfigs([]string{
		"class-map type qos match-any ROCE-roce", "match dscp 26",
		"policy-map type qos ROCE", "class ROCE-roce", "set qos-group 3",
		"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "pause pfc-cos 3", "mtu 9216",
		"system qos", "service-policy type network-qos ROCE-nq", "exit",
		"interface Ethernet1/1", "service-policy type qos input ROCE", "priority-flow-control mode on",
	})
	if err != nil || mr.Failed != nil {
		t.Fatalf("SendConfigs: %v %v\n%s", err, mr.Failed, mr.JoinedResult())
	}
	before := sw.RunningConfig()
	for _, want := range []string{"  class ROCE-roce\n    set qos-group 3\n", "system qos\n  service-policy type network-qos ROCE-nq\n",
		"interface Ethernet1/1\n  priority-flow-control mode on\n  service-policy type qos input ROCE\n"} {
		if !strings.Contains(before, want) {
			t.Errorf("configure terminal through scrapli: no %q in\n%s", want, before)
		}
	}

	mr, err = drv.SendConfigs([]string{"interface Ethernet1/2", "service-policy type qos input NOPE", "mtu 99999", "polcy-map type qos X"})
	if err != nil {
		t.Fatal(err)
	}
	// scrapli's failure strings cover `ERROR:` and `% Invalid command` but not NX-OS's
	// `% Invalid number, range is ...`: a client must look for it itself, on a real switch too.
	if mr.Failed == nil || mr.Responses[1].Failed == nil || mr.Responses[1].Result != "ERROR: policy-map NOPE does not exist" ||
		mr.Responses[2].Result != strings.Repeat(" ", 23)+"^\n% Invalid number, range is (576:9216) at '^' marker." ||
		mr.Responses[3].Failed == nil || mr.Responses[3].Result != strings.Repeat(" ", 19)+"^\n% Invalid command at '^' marker." {
		t.Errorf("refused lines: failed %v\n%q\n%q\n%q", mr.Failed, mr.Responses[1].Result, mr.Responses[2].Result, mr.Responses[3].Result)
	}
	if sw.RunningConfig() != before {
		t.Errorf("refused lines changed the configuration:\n%s", sw.RunningConfig())
	}

	t.Run("checkpoint and atomic rollback", func(t *testing.T) {
		if got := show("checkpoint roce-4f1c2a9e"); got != ".Done" {
			t.Errorf("checkpoint: %q", got)
		}
		mr, err := drv.SendConfigs([]string{
			"interface Ethernet1/1", "no service-policy type qos input ROCE", "exit", "no policy-map type qos ROCE",
			"class-map type qos match-all OTHER", "match cos 5",
		})
		if err != nil || mr.Failed != nil {
			t.Fatalf("changes: %v %v\n%s", err, mr.Failed, mr.JoinedResult())
		}
		if sw.RunningConfig() == before {
			t.Fatal("nothing changed")
		}
		got := show("rollback running-config checkpoint roce-4f1c2a9e atomic")
		if !strings.HasSuffix(got, "Generating Rollback Patch\n\nRollback completed successfully.") {
			t.Errorf("rollback: %q", got)
		}
		if sw.RunningConfig() != before {
			t.Errorf("after the rollback:\n%s\nwant:\n%s", sw.RunningConfig(), before)
		}
		r, err := drv.SendCommand("rollback running-config checkpoint NOPE atomic")
		if err != nil || r.Failed == nil || r.Result != "ERROR: Checkpoint NOPE does not exist" {
			t.Errorf("rollback to an unknown checkpoint: %v %v %q", err, r.Failed, r.Result)
		}
	})
}
