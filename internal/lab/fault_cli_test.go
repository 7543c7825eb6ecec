package lab

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// dropped types a line and waits for the switch to close the connection without answering it.
func (s *cliShell) dropped(line string) {
	s.t.Helper()
	s.send(line + "\n")
	waitClosed(s.t, s.client)
	// The echo may be lost with the connection; an answer must not come.
	if got := s.out.String()[s.seen:]; !strings.HasPrefix(line+"\r\n", got) {
		s.t.Errorf("the dropped line %q was answered: %q", line, got)
	}
}

// stalled types a line, waits until the device holds held operations in its stall (this line
// among them), checks that the line got no answer, and after release waits for the prompt.
func (s *cliShell) stalled(line, prompt string, faults *fault.Set, held int, release func()) string {
	s.t.Helper()
	s.send(line + "\n")
	for deadline := time.Now().Add(10 * time.Second); faults.Stalled() < held; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the stall holds %d operations, want %d", faults.Stalled(), held)
		}
	}
	if got := s.out.String()[s.seen:]; got != line+"\r\n" {
		s.t.Errorf("the stalled line %q was answered: %q", line, got)
	}
	release()
	return s.expect(prompt)
}

// cliFaultBasics checks refuse, stall (shell and exec) and slow on a CLI switch; login gives a
// shell at prompt.
func cliFaultBasics(t *testing.T, l *Lab, name, prompt string) {
	d := l.Inventory().Devices[name]
	unfault := func() {
		t.Helper()
		if err := l.ClearFaults(name); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("refuse", func(t *testing.T) {
		s := openCLIShell(t, d, prompt)
		if err := l.InjectFault(name, FaultRefuse); err != nil {
			t.Fatal(err)
		}
		waitClosed(t, s.client)
		if c, err := sshDial(t, d); err == nil {
			_ = c.Close()
			t.Fatal("a refusing switch let a client log in")
		}
		unfault()
		s = openCLIShell(t, d, prompt)
		if got := s.line("show hostname", prompt); !strings.Contains(got, name+"\r\n") {
			t.Errorf("after ClearFaults: %q", got)
		}
	})
	t.Run("stall", func(t *testing.T) {
		s := openCLIShell(t, d, prompt)
		c := sshClient(t, d)
		before := l.devices[name].(countedDevice).DeviceCounters().Connections
		if err := l.InjectFault(name, FaultStall); err != nil {
			t.Fatal(err)
		}
		done := make(chan string, 1)
		go func() {
			sess, err := c.NewSession()
			if err != nil {
				done <- err.Error()
				return
			}
			defer func() { _ = sess.Close() }()
			out, _ := sess.Output("show hostname")
			done <- string(out)
		}()
		// Both the exec request and the shell's line are held.
		got := s.stalled("show hostname", prompt, l.devices[name].(device.FaultTarget).FaultSet(), 2, func() {
			select {
			case out := <-done:
				t.Errorf("a stalled exec request answered %q", out)
			default:
			}
			unfault()
		})
		if !strings.Contains(got, name+"\r\n") {
			t.Errorf("the stalled line after ClearFaults: %q", got)
		}
		select {
		case out := <-done:
			if !strings.Contains(out, name+"\n") {
				t.Errorf("the stalled exec request after ClearFaults: %q", out)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("ClearFaults did not release the exec request")
		}
		if after := l.devices[name].(countedDevice).DeviceCounters().Connections; after != before {
			t.Errorf("the stall cost connections: %d -> %d", before, after)
		}
	})
	t.Run("slow", func(t *testing.T) {
		s := openCLIShell(t, d, prompt)
		const by = 300 * time.Millisecond
		if err := l.InjectSlow(name, by); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		s.line("show hostname", prompt)
		if took := time.Since(start); took < by {
			t.Errorf("a slow switch answered in %s, want at least %s", took, by)
		}
		unfault()
		s.line("show hostname", prompt)
	})
}

// waitPending waits for the switch to hold exactly one pending session, name, without a
// terminal: it notices the end of a connection (closed or dropped) a moment after the client
// does.
func waitPending(t *testing.T, sw *EOSSwitch, name string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		got := sw.Sessions()
		if slices.Equal(got, []EOSSession{{Name: name}}) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("sessions after the connection ended: %+v, want %s pending without a terminal", got, name)
		}
	}
}

// rejectOnce is fault.Reject on a CLI switch's shell, injected at the exec prompt: the
// transaction that open starts and end ends has each of its lines answered refused, and the
// one after it, next (each line and the prompt after it), applies.
type rejectOnce struct {
	open, end [2]string // a line and the prompt after it
	lines     []string
	refused   string
	next      [][2]string
	applied   string // in the running-config after next
}

// check types the two transactions on s, a shell of switch name: the reject disarms with the first, which leaves
// running (the switch's RunningConfig) as fresh; the second changes it.
func (r rejectOnce) check(t *testing.T, l *Lab, name string, s *cliShell, running func() string, fresh string) {
	t.Helper()
	s.line(r.open[0], r.open[1])
	s.wantAnswers(r.refused, r.open[1], r.lines...)
	if got := l.Faults(name); len(got) != 0 {
		t.Errorf("the reject did not disarm: %v", got)
	}
	s.line(r.end[0], r.end[1])
	if got := running(); got != fresh {
		t.Errorf("a rejected transaction changed the running-config:\n%s", got)
	}
	for _, line := range r.next {
		s.line(line[0], line[1])
	}
	if got := running(); !strings.Contains(got, r.applied) {
		t.Errorf("the transaction after the reject:\n%s", got)
	}
}

func TestEOSFaults(t *testing.T) {
	l, sw := startEOS(t)
	d := l.Inventory().Devices["eos-1"]
	cliFaultBasics(t, l, "eos-1", "eos-1>")
	fresh := sw.RunningConfig()
	priv := func() *cliShell {
		s := openEOSShell(t, d)
		s.line("enable", "eos-1#")
		return s
	}
	inject := func(k FaultKind) {
		t.Helper()
		if err := l.InjectFault("eos-1", k); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("drop", func(t *testing.T) {
		s := priv()
		inject(FaultDrop)
		s.line("configure session f1", "eos-1(config-s-f1)#")
		s.line("qos map dscp 10 to traffic-class 5", "eos-1(config-s-f1)#") // the first line runs
		commands := sw.Counters().Commands
		s.dropped("qos map dscp 11 to traffic-class 5")
		if got := sw.Counters().Commands; got != commands+1 {
			t.Errorf("the dropped line was not counted: %d -> %d", commands, got)
		}
		if got := sw.RunningConfig(); got != fresh {
			t.Errorf("a dropped session changed the running-config:\n%s", got)
		}
		waitPending(t, sw, "f1")
		if got := l.Faults("eos-1"); len(got) != 0 {
			t.Errorf("the drop did not disarm: %v", got)
		}
		// The pending session holds the line typed before the drop, not the dropped one.
		s = priv()
		s.line("configure session f1", "eos-1(config-s-f1)#")
		cand := s.line("show running-config", "eos-1(config-s-f1)#")
		if !strings.Contains(cand, "qos map dscp 10 to traffic-class 5") || strings.Contains(cand, "dscp 11") {
			t.Errorf("the pending session's candidate:\n%s", cand)
		}
		s.line("end", "eos-1#")

		// A commit is dropped too, from exec mode as well.
		inject(FaultDrop)
		s.dropped("configure session f1 commit")
		if got := sw.RunningConfig(); got != fresh || len(sw.Sessions()) != 1 {
			t.Errorf("a dropped commit: sessions %+v\n%s", sw.Sessions(), got)
		}
		s = priv()
		s.line("configure session f1", "eos-1(config-s-f1)#")
		inject(FaultDrop)
		s.dropped("commit")
		waitPending(t, sw, "f1")
		if got := sw.RunningConfig(); got != fresh || len(sw.Sessions()) != 1 {
			t.Errorf("a dropped commit: sessions %+v\n%s", sw.Sessions(), got)
		}
		s = priv()
		s.line("configure session f1 commit", "eos-1#")
		if got := sw.RunningConfig(); !strings.Contains(got, "qos map dscp 10 to traffic-class 5") || len(sw.Sessions()) != 0 {
			t.Errorf("the commit after the drops: sessions %+v\n%s", sw.Sessions(), got)
		}
		s.line("configure", "eos-1(config)#")
		s.line("no qos map dscp 10", "eos-1(config)#")
		s.line("end", "eos-1#")
		if got := sw.RunningConfig(); got != fresh {
			t.Fatalf("clean-up:\n%s", got)
		}
	})

	t.Run("reject", func(t *testing.T) {
		s := priv()
		inject(FaultReject)
		if got := s.line("show running-config", "eos-1#"); got != "show running-config\r\n"+strings.ReplaceAll(fresh, "\n", "\r\n")+"eos-1#" {
			t.Errorf("a read under reject: %q", got)
		}
		rejectOnce{
			open: [2]string{"configure session f2", "eos-1(config-s-f2)#"}, end: [2]string{"commit", "eos-1#"},
			lines:   []string{"qos map dscp 12 to traffic-class 5", "qos map dscp 13 to traffic-class 5"},
			refused: "% Unavailable command (not supported on this hardware platform)\r\n",
			next: [][2]string{{"configure session f3", "eos-1(config-s-f3)#"}, {"qos map dscp 12 to traffic-class 5", "eos-1(config-s-f3)#"},
				{"commit", "eos-1#"}},
			applied: "qos map dscp 12 to traffic-class 5",
		}.check(t, l, "eos-1", s, sw.RunningConfig, fresh)
	})
}

func TestNXOSFaults(t *testing.T) {
	l, sw := startNXOS(t)
	d := l.Inventory().Devices["nxos-1"]
	cliFaultBasics(t, l, "nxos-1", "nxos-1# ")
	fresh := sw.RunningConfig()
	inject := func(k FaultKind) {
		t.Helper()
		if err := l.InjectFault("nxos-1", k); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("drop", func(t *testing.T) {
		s := openCLIShell(t, d, "nxos-1# ")
		inject(FaultDrop)
		s.line("checkpoint f1", "nxos-1# ")
		s.line("configure terminal", "nxos-1(config)# ")
		s.line("class-map type qos match-any F1", "nxos-1(config-cmap-qos)# ") // the first line runs
		s.dropped("match dscp 26")
		// configure terminal applies each line at once: the first one stays.
		got := sw.RunningConfig()
		if !strings.Contains(got, "class-map type qos match-any F1\n") || strings.Contains(got, "match dscp 26") {
			t.Errorf("after the drop:\n%s", got)
		}
		// Recovery: roll back to the checkpoint taken before the transaction.
		s = openCLIShell(t, d, "nxos-1# ")
		if out := s.line("rollback running-config checkpoint f1", "nxos-1# "); !strings.Contains(out, "Rollback completed successfully") {
			t.Errorf("rollback: %q", out)
		}
		if got := sw.RunningConfig(); got != fresh {
			t.Errorf("after the rollback:\n%s", got)
		}
		s.line("no checkpoint f1", "nxos-1# ")
	})

	t.Run("reject", func(t *testing.T) {
		s := openCLIShell(t, d, "nxos-1# ")
		inject(FaultReject)
		rejectOnce{
			open: [2]string{"configure terminal", "nxos-1(config)# "}, end: [2]string{"end", "nxos-1# "},
			lines:   []string{"class-map type qos match-any F2", "policy-map type qos F2"},
			refused: `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"` + "\r\n",
			next: [][2]string{{"configure terminal", "nxos-1(config)# "}, {"class-map type qos match-any F2", "nxos-1(config-cmap-qos)# "},
				{"end", "nxos-1# "}},
			applied: "class-map type qos match-any F2\n",
		}.check(t, l, "nxos-1", s, sw.RunningConfig, fresh)
	})
}

// An exec request is not a configuration transaction: drop and reject wait for one.
func TestCLIExecLeavesOneShots(t *testing.T) {
	l, _ := startNXOS(t)
	d := l.Inventory().Devices["nxos-1"]
	for _, k := range []FaultKind{FaultDrop, FaultReject} {
		if err := l.InjectFault("nxos-1", k); err != nil {
			t.Fatal(err)
		}
	}
	c := sshClient(t, d)
	if out, _, status := runOn(t, c, "show hostname", ""); out != "nxos-1\n" || status != 0 {
		t.Errorf("exec under drop and reject: %q %d", out, status)
	}
	if got := l.Faults("nxos-1"); !slices.Equal(got, []FaultKind{FaultDrop, FaultReject}) {
		t.Errorf("faults %v", got)
	}
}
