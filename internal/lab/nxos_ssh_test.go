package lab

import (
	"fmt"
	"strings"
	"testing"
)

// TestNXOSLineDiscipline: the prompt ends with a space, the caret counts it through the pty,
// Ctrl-C abandons a line, Ctrl-Z leaves configuration, Ctrl-D logs out at the exec prompt only.
func TestNXOSLineDiscipline(t *testing.T) {
	l, sw := startNXOS(t)
	s := openCLIShell(t, l.Inventory().Devices["nxos-1"], "nxos-1# ")
	s.wantTyped("\\r\\n", "show hostname\r\n", "nxos-1# ", "show hostname\r\nnxos-1\r\nnxos-1# ")
	s.wantTyped("configure terminal", "conf t\r", "nxos-1(config)# ",
		"conf t\r\nEnter configuration commands, one per line. End with CNTL/Z.\r\nnxos-1(config)# ")
	s.wantTyped("caret through the pty", "polcy-map type qos X\n", "nxos-1(config)# ",
		"polcy-map type qos X\r\n                ^\r\n% Invalid command at '^' marker.\r\nnxos-1(config)# ")
	s.wantTyped("erasing", "int e1/2\x7f1\x1b[A\n", "nxos-1(config-if)# ", "int e1/2\b \b1\r\nnxos-1(config-if)# ")
	s.wantCtrlC(sw.Switch, "shutdown", "nxos-1(config-if)# ")
	s.send("\x04") // ignored in a configuration mode
	s.send("no shut\x1a")
	if got := s.expect("nxos-1# "); got != "no shut^Z\r\nnxos-1# " || strings.Contains(execOut(t, l.Inventory().Devices["nxos-1"], "sh run int e1/1"), "no shutdown") {
		t.Errorf("Ctrl-Z: %q", got)
	}
	s.wantLogout("Ctrl-D at the exec prompt", "\x1a\x04")
}

// TestNXOSCheckpointOutlivesConnection: a checkpoint taken on one connection rolls back on
// the next.
func TestNXOSCheckpointOutlivesConnection(t *testing.T) {
	l, sw := startNXOS(t)
	d := l.Inventory().Devices["nxos-1"]
	s := openCLIShell(t, d, "nxos-1# ")
	s.line("configure terminal", "(config)# ")
	s.line("class-map type qos match-any ROCE", "(config-cmap-qos)# ")
	s.line("match dscp 26", "(config-cmap-qos)# ")
	s.line("end", "nxos-1# ")
	before := sw.RunningConfig()
	if got := s.line("checkpoint roce-4f1c2a9e", "nxos-1# "); got != "checkpoint roce-4f1c2a9e\r\n.Done\r\nnxos-1# " {
		t.Errorf("checkpoint: %q", got)
	}
	s.line("configure terminal", "(config)# ")
	s.line("no class-map type qos ROCE", "(config)# ")
	_ = s.client.Close()

	s = openCLIShell(t, d, "nxos-1# ")
	if got := s.line("show checkpoint summary", "nxos-1# "); !strings.Contains(got, "\r\n1) roce-4f1c2a9e:\r\nCreated by admin\r\n") {
		t.Errorf("the checkpoint after a reconnection: %q", got)
	}
	got := s.line("rollback running-config checkpoint roce-4f1c2a9e atomic", "nxos-1# ")
	if !strings.HasSuffix(got, "\r\nRollback completed successfully.\r\nnxos-1# ") || sw.RunningConfig() != before {
		t.Errorf("rollback on another connection: %q\n%s", got, sw.RunningConfig())
	}
}

// TestNXOSConcurrentTerminals changes the configuration from several connections at once (run
// with -race).
func TestNXOSConcurrentTerminals(t *testing.T) {
	l, sw := startNXOS(t)
	d := l.Inventory().Devices["nxos-1"]
	concurrently(t, d, "nxos-1# ", 4, func(s *cliShell, i int) {
		s.line("configure terminal", "(config)# ")
		s.line(fmt.Sprintf("class-map type qos match-any C%d", i), "(config-cmap-qos)# ")
		s.line(fmt.Sprintf("match dscp %d", 40+i), "(config-cmap-qos)# ")
		s.line(fmt.Sprintf("checkpoint cp%d", i), "(config-cmap-qos)# ")
		s.line("show running-config ipqos", "(config-cmap-qos)# ")
		_ = sw.RunningConfig()
	})
	for i := range 4 {
		if !strings.Contains(sw.RunningConfig(), fmt.Sprintf("class-map type qos match-any C%d\n  match dscp %d\n", i, 40+i)) {
			t.Errorf("concurrent changes:\n%s", sw.RunningConfig())
		}
	}
	if len(sw.Checkpoints()) != 4 {
		t.Errorf("checkpoints %v", sw.Checkpoints())
	}
}
