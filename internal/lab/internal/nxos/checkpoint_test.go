package nxos

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

const nxosRollbackTranscript = "ADVISORY: Rollback operation started...\n" +
	"Modifying running configuration from another VSH terminal in parallel\n" +
	"is not recommended, as this may lead to Rollback failure.\n\n" +
	"Collecting Running-Config\nGenerating Rollback patch for switch profile\nRollback Patch is Empty\n" +
	"Collecting Running-Config\nGenerating Rollback Patch\nExecuting Rollback Patch\n" +
	"During CR operation,will retain L3 configuration\nwhen vrf member change on interface\n" +
	"Generating Running-config for verification\nGenerating Rollback Patch\n\nRollback completed successfully.\n"

var checkpointTime = regexp.MustCompile(`(?m)^Created at (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d:\d\d:\d\d \d\d [A-Z][a-z]{2} \d{4}$`)

// TestNXOSCheckpointRollback: a checkpoint is the whole configuration at that moment; rollback
// restores it byte for byte, however much changed since, and as often as asked.
func TestNXOSCheckpointRollback(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw, nxosDocConfig...)
	before, beforeFull := sw.RunningConfig(), withoutTimes(c.Run("show running-config"))
	if got := c.Run("checkpoint roce-4f1c2a9e"); got != ".Done\n" {
		t.Fatalf("checkpoint: %q", got)
	}
	if got := c.Run("checkpoint second description before the change"); got != ".Done\n" {
		t.Fatalf("checkpoint with a description: %q", got)
	}
	c.check([]nxCase{{"checkpoint roce-4f1c2a9e", "", "ERROR: Checkpoint name is already in use"}})
	if got := sw.Checkpoints(); !slices.Equal(got, []string{"roce-4f1c2a9e", "second"}) {
		t.Errorf("Checkpoints() = %v", got)
	}
	summary := c.Run("show checkpoint summary")
	size := thousands(len(c.Run("show running-config")))
	want := "User Checkpoints:\n" + strings.Repeat("-", 80) + "\n" +
		"1) roce-4f1c2a9e:\nCreated by admin\nCreated at T\nSize is " + size + " bytes\nDescription: None\n\n" +
		"2) second:\nCreated by admin\nCreated at T\nSize is " + size + " bytes\nDescription: before the change\n"
	if got := checkpointTime.ReplaceAllString(summary, "Created at T"); got != want {
		t.Errorf("show checkpoint summary:\n%s\nwant:\n%s", summary, want)
	}

	change := []string{
		"configure terminal", "hostname leaf-1", "class-map type qos match-any ROCE-roce", "match dscp 24-25",
		"policy-map type qos ROCE", "class ROCE-roce", "set qos-group 4", "exit", "no class class-default",
		"interface Ethernet1/1", "no service-policy type qos input ROCE", "priority-flow-control mode off",
		"interface Ethernet1/2", "no service-policy type qos input", "exit", "no policy-map type qos ROCE",
		"system qos", "no service-policy type network-qos", "exit", "no policy-map type network-qos ROCE-nq",
		"class-map type qos match-all NEW", "end",
	}
	for range 2 {
		c.Must(change...)
		if sw.RunningConfig() == before {
			t.Fatal("nothing changed")
		}
		if got := c.Run("rollback running-config checkpoint roce-4f1c2a9e atomic"); got != nxosRollbackTranscript {
			t.Errorf("rollback:\n%s\nwant:\n%s", got, nxosRollbackTranscript)
		}
		if got := sw.RunningConfig(); got != before {
			t.Errorf("after the rollback:\n%s\nwant:\n%s", got, before)
		}
		if got := withoutTimes(c.Run("show running-config")); got != beforeFull {
			t.Errorf("show running-config after the rollback:\n%s\nwant:\n%s", got, beforeFull)
		}
		if p := c.Term.Prompt(); p != "nxos-1# " {
			t.Errorf("the hostname came back but the prompt is %q", p)
		}
	}
	c.Must("no checkpoint second")
	c.check([]nxCase{{"no checkpoint second", "", "ERROR: Checkpoint second does not exist"}})
	if got := sw.Checkpoints(); !slices.Equal(got, []string{"roce-4f1c2a9e"}) {
		t.Errorf("Checkpoints() after no checkpoint = %v", got)
	}
	// The rollback modes all restore; atomic is the default; exec commands run in configuration.
	c.Must("configure terminal")
	c.Must("class-map type qos match-any LATER")
	if got := c.Run("rollback running-config checkpoint roce-4f1c2a9e"); got != nxosRollbackTranscript || sw.RunningConfig() != before {
		t.Errorf("rollback without a mode from configure terminal: %q\n%s", got, sw.RunningConfig())
	}
}

// TestNXOSRejectLinesAndCounters: RejectLines prints its message verbatim and applies nothing;
// show commands and empty lines are not refused or counted as configuration.
func TestNXOSRejectLinesAndCounters(t *testing.T) {
	sw := startNXOS(t)
	c := newNXOSCLI(t, sw, "configure terminal", "class-map type qos match-any ROCE", "policy-map type qos P", "class ROCE")
	before := sw.RunningConfig()
	// A captured refusal (nxos-switch.md, "Refusals and warnings"); the two spaces are NX-OS's.
	const refusal = `Unable to perform the action due to incompatibility:  Module 1 returned status "ACLQOS_ERROR: Invalid Class id : Max class reached"`
	sw.RejectLines("qos-group 3", refusal)
	if got := c.Run("set qos-group 3"); got != refusal+"\n" || sw.RunningConfig() != before {
		t.Errorf("a rejected line: %q\n%s", got, sw.RunningConfig())
	}
	if p := c.Term.Prompt(); p != "nxos-1(config-pmap-c-qos)# " {
		t.Errorf("a rejected line moved the terminal to %q", p)
	}
	if got := c.Run("show running-config ipqos"); !strings.Contains(got, "policy-map type qos P\n") {
		t.Errorf("RejectLines refused a show command: %q", got)
	}
	sw.RejectLines("", "")
	c.Must("set qos-group 3")
	if !strings.Contains(sw.RunningConfig(), "    set qos-group 3\n") {
		t.Errorf("after RejectLines(\"\", \"\"):\n%s", sw.RunningConfig())
	}
	sw.ResetCounters()
	c.Run("show hostname")
	c.Run("   ")
	c.Run("! a comment")
	c.Run("frobnicate")
	if got := sw.Counters(); got != (cliswitch.Counters{Commands: 2}) {
		t.Errorf("counters %+v, want 2 commands", got)
	}
}
