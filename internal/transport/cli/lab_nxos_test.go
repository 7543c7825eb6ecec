package cli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/event/eventtest"
)

// startNXOS starts a lab with one `nxos` switch.
func startNXOS(t *testing.T) (*lab.NXOSSwitch, lab.DeviceEntry) {
	t.Helper()
	l, d, err := tryStartLab(t, "nxos", nil)
	if err != nil {
		t.Fatal(err)
	}
	return l.NXOS("nxos-1"), d
}

// nxosRoCE is a RoCE QoS configuration in NX-OS's CLI: classification, a no-drop class with
// PFC and jumbo MTU, the system binding, and a port.
var nxosRoCE = []string{
	"class-map type qos match-any ROCE-roce", "match dscp 26", "exit",
	"policy-map type qos ROCE", "class ROCE-roce", "set qos-group 3", "exit", "exit",
	"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "pause pfc-cos 3", "mtu 9216", "exit", "exit",
	"system qos", "service-policy type network-qos ROCE-nq", "exit",
	"interface Ethernet1/1", "priority-flow-control mode on", "service-policy type qos input ROCE", "exit",
}

func TestLabNXOSCheckpointTransaction(t *testing.T) {
	sw, d := startNXOS(t)
	c := labClient(t, d, nil)
	mustConfigure(t, c, nxosRoCE...)
	running := sw.RunningConfig()
	for _, want := range []string{
		"class-map type qos match-any ROCE-roce\n  match dscp 26\n",
		"policy-map type qos ROCE\n  class ROCE-roce\n    set qos-group 3\n",
		"policy-map type network-qos ROCE-nq\n  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216\n",
		"system qos\n  service-policy type network-qos ROCE-nq\n",
		"interface Ethernet1/1\n  priority-flow-control mode on\n  service-policy type qos input ROCE\n",
	} {
		if !strings.Contains(running, want) {
			t.Errorf("running-config lacks %q:\n%s", want, running)
		}
	}
	for i := range 5 {
		out := mustShowLab(t, c, "show running-config ipqos")
		if !strings.Contains(out[0], "service-policy type network-qos ROCE-nq") {
			t.Fatalf("show #%d:\n%s", i, out[0])
		}
	}
	mustConfigure(t, c, "interface Ethernet1/2", "service-policy type qos input ROCE")
	noCheckpointsLeft(t, sw)
	if n := sw.Counters().Connections; n != 1 {
		t.Errorf("%d SSH connections for 7 operations, want 1", n)
	}
}

// noCheckpointsLeft fails unless every transaction removed its checkpoint.
func noCheckpointsLeft(t *testing.T, sw *lab.NXOSSwitch) {
	t.Helper()
	if cps := sw.Checkpoints(); len(cps) != 0 {
		t.Errorf("checkpoints left: %q", cps)
	}
}

func TestLabNXOSRejectedLineRollsBack(t *testing.T) {
	sw, d := startNXOS(t)
	c := labClient(t, d, nil)
	mustConfigure(t, c, nxosRoCE...)
	before := sw.RunningConfig()
	change := []string{"class-map type qos match-any ROCE-roce", "match dscp 24-25", "exit",
		"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "mtu 4200", "pause pfc-cos 3-4", "exit", "exit",
		"interface Ethernet1/2", "priority-flow-control mode on", "service-policy type qos input ROCE"}
	for _, tc := range []struct {
		name, bad, output string
		reject            bool
	}{
		{"RejectLines", "service-policy type qos input ROCE", `Unable to perform the action due to incompatibility:  Module 1 returned status "ACLQOS_ERROR: Invalid Class id : Max class reached"`, true},
		{"range", "mtu 99999", "% Invalid number, range is (576:9216) at '^' marker.", false},
		{"missing policy", "service-policy type qos input NOPE", "ERROR: policy-map NOPE does not exist", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := append([]string(nil), change...)
			if !tc.reject {
				lines = append(lines[:len(lines)-1], tc.bad)
			}
			if tc.reject {
				sw.RejectLines(tc.bad, tc.output)
				defer sw.RejectLines("", "")
			}
			err := c.Configure(context.Background(), lines)
			e := cliError(t, err, "configure")
			if !e.Rejected || !e.RolledBack || e.Line != tc.bad || e.Output != tc.output {
				t.Errorf("error = %+v", e)
			}
			if !strings.Contains(e.Error(), "the configuration was rolled back to checkpoint roce-") {
				t.Errorf("message = %v", e)
			}
			if after := sw.RunningConfig(); after != before {
				t.Errorf("running-config changed by a refused transaction:\n%s\nwas:\n%s", after, before)
			}
			noCheckpointsLeft(t, sw)
		})
	}
	if n := sw.Counters().Connections; n != 1 {
		t.Errorf("%d SSH connections, want 1", n)
	}
}

func TestLabNXOSSaveConfig(t *testing.T) {
	sw, d := startNXOS(t)
	c := labClient(t, d, func(c *cli.Config) { c.SaveConfig = true })
	mustConfigure(t, c, nxosRoCE...)
	if sw.StartupConfig() != sw.RunningConfig() || !strings.Contains(sw.StartupConfig(), "service-policy type network-qos ROCE-nq") {
		t.Errorf("startup-config:\n%s\nrunning-config:\n%s", sw.StartupConfig(), sw.RunningConfig())
	}
}

// TestLabNXOSYoungAndForeignCheckpointsKept: at connect the transport reads the checkpoints
// and the switch's clock; a roce- checkpoint seconds old belongs to a live transaction and a
// foreign one to someone else, so both stay. NX-OS has no configuration lock: the live
// transaction's checkpoint is the lock, so a change waits for it (here past its timeout: it
// fails naming it and changes nothing); once it is gone the change goes through.
func TestLabNXOSYoungAndForeignCheckpointsKept(t *testing.T) {
	sw, d := startNXOS(t)
	sh := openShell(t, d, "nxos-1# ")
	sh.line("checkpoint roce-0000000a", "nxos-1# ")
	sh.line("checkpoint before-upgrade", "nxos-1# ")
	log := &eventtest.Recorder{}
	c := labClient(t, d, func(c *cli.Config) { c.Logger = log; c.Timeout = 3 * time.Second })
	before := sw.RunningConfig()
	err := c.Configure(context.Background(), nxosRoCE)
	if err == nil || !strings.Contains(err.Error(), "another change is in progress on the switch (checkpoint roce-0000000a") ||
		!strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("a change while another run's checkpoint exists: %v", err)
	}
	if sw.RunningConfig() != before {
		t.Errorf("the waiting change touched the switch:\n%s", sw.RunningConfig())
	}
	if cps := sw.Checkpoints(); strings.Join(cps, " ") != "roce-0000000a before-upgrade" {
		t.Errorf("checkpoints = %q", cps)
	}
	// The other run finishes while this one waits: this one then goes through.
	go func() {
		// Once the client reports it waits (not before: a change that had not yet met the
		// checkpoint would prove nothing), the other run deletes its checkpoint.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) &&
			!strings.Contains(log.String(), "waiting for another transaction"); {
			time.Sleep(5 * time.Millisecond)
		}
		sh.line("no checkpoint roce-0000000a", "nxos-1# ")
	}()
	mustConfigure(t, c, nxosRoCE...)
	if cps := sw.Checkpoints(); strings.Join(cps, " ") != "before-upgrade" {
		t.Errorf("checkpoints = %q", cps)
	}
	if !strings.Contains(sw.RunningConfig(), "policy-map type network-qos ROCE-nq") {
		t.Errorf("the change did not go through after the wait:\n%s", sw.RunningConfig())
	}
	if events := log.String(); strings.Contains(events, "cannot read the device's clock") ||
		strings.Contains(events, "deleted stale checkpoint") || !strings.Contains(events, "waiting for another transaction") {
		t.Errorf("log:\n%s", events)
	}
}

// TestLabNXOSStaleCheckpointsDeleted: with the age limit lowered to 3s, a roce- checkpoint
// taken 3s before the client connects is deleted, by the switch's clock and its own summary
// format; a fresh one and a foreign one stay.
func TestLabNXOSStaleCheckpointsDeleted(t *testing.T) {
	sw, d := startNXOS(t)
	sh := openShell(t, d, "nxos-1# ")
	sh.line("checkpoint roce-0000000b", "nxos-1# ")
	sh.line("checkpoint before-upgrade", "nxos-1# ")
	time.Sleep(3100 * time.Millisecond)
	sh.line("checkpoint roce-0000000a", "nxos-1# ")
	sh.close()
	log := &eventtest.Recorder{}
	c := labClient(t, d, func(c *cli.Config) { c.Logger = log })
	cli.SetStaleCheckpointAge(c, 3*time.Second)
	mustShowLab(t, c, "show version")
	if cps := sw.Checkpoints(); strings.Join(cps, " ") != "before-upgrade roce-0000000a" {
		t.Errorf("checkpoints = %q", cps)
	}
	if events := log.String(); !strings.Contains(events, "CLI deleted stale checkpoint") ||
		!strings.Contains(events, "checkpoint:roce-0000000b") || strings.Contains(events, "checkpoint:roce-0000000a") {
		t.Errorf("log:\n%s", events)
	}
}
