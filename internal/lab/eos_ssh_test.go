package lab

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestEOSLineDiscipline(t *testing.T) {
	l, sw := startEOS(t)
	s := openEOSShell(t, l.Inventory().Devices["eos-1"])

	// \r\n ends one line: one answer, one prompt.
	s.wantTyped("\\r\\n", "show hostname\r\n", "eos-1>", "show hostname\r\nHostname: eos-1\r\nFQDN:     eos-1\r\neos-1>")
	s.wantTyped("after \\r\\n a single prompt, then \\r alone ends a line", "enable\r", "eos-1#", "enable\r\neos-1#")
	// Backspace and DEL erase, arrow keys are ignored.
	s.wantTyped("erasing", "sh x\x7f\x08\x1b[Aow host\x1bOAname\n", "eos-1#",
		"sh x\b \b\b \bow hostname\r\nHostname: eos-1\r\nFQDN:     eos-1\r\neos-1#")
	// Ctrl-C abandons the line.
	s.wantCtrlC(sw.Switch, "configure", "eos-1#")
	// Ctrl-D does nothing in configuration modes and logs out at an empty exec prompt.
	s.line("conf", "eos-1(config)#")
	s.send("\x04")
	if got := s.line("end", "eos-1#"); got != "end\r\neos-1#" {
		t.Errorf("Ctrl-D in configure terminal: %q", got)
	}
	s.wantLogout("Ctrl-D at the exec prompt", "\x04")
}

func TestEOSStaleSession(t *testing.T) {
	l, sw := startEOS(t)
	d := l.Inventory().Devices["eos-1"]
	s := openEOSShell(t, d)
	s.line("enable", "eos-1#")
	s.line("configure session roce-4f1c2a9e", "eos-1(config-s-roce-4)#")
	s.line("qos map dscp 10 to traffic-class 6", "eos-1(config-s-roce-4)#")
	if got := sw.Sessions(); !slices.Equal(got, []EOSSession{{Name: "roce-4f1c2a9e", User: "admin", Terminal: "vty1"}}) {
		t.Errorf("sessions while a terminal is inside: %+v", got)
	}
	_ = s.client.Close()
	waitPending(t, sw, "roce-4f1c2a9e")

	s = openEOSShell(t, d)
	s.line("enable", "eos-1#")
	if got := s.line("show configuration sessions", "eos-1#"); !strings.Contains(got, "\r\n  roce-4f1c2a9e       pending\r\n") {
		t.Errorf("an abandoned session: %q", got)
	}
	s.line("configure session roce-4f1c2a9e", "eos-1(config-s-roce-4)#")
	want := "* roce-4f1c2a9e       pending       admin      vty2\r\n"
	if got := s.line("show configuration sessions", "eos-1(config-s-roce-4)#"); !strings.Contains(got, want) {
		t.Errorf("re-entered session: %q, want %q", got, want)
	}
	s.line("commit", "eos-1#")
	if !strings.Contains(sw.RunningConfig(), "qos map dscp 10 to traffic-class 6\n") || len(sw.Sessions()) != 0 {
		t.Errorf("commit of a re-entered session:\n%s\nsessions %v", sw.RunningConfig(), sw.Sessions())
	}
}

// TestEOSConcurrentTerminals changes the configuration from several connections at once (run
// with -race).
func TestEOSConcurrentTerminals(t *testing.T) {
	l, sw := startEOS(t)
	d := l.Inventory().Devices["eos-1"]
	concurrently(t, d, "eos-1>", 4, func(s *cliShell, i int) {
		s.line("enable", "eos-1#")
		if i%2 == 0 {
			s.line("configure terminal", "eos-1(config)#")
		} else {
			s.line(fmt.Sprintf("configure session s%d", i), "(config-s-s"+fmt.Sprint(i)+")#")
		}
		s.line(fmt.Sprintf("qos map dscp %d to traffic-class 7", 40+i), ")#")
		s.line("show running-config", ")#")
		if i%2 == 1 {
			s.line("commit", "eos-1#")
		}
		_ = sw.RunningConfig()
	})
	if !strings.Contains(sw.RunningConfig(), "qos map dscp 40 41 42 43 to traffic-class 7\n") {
		t.Errorf("concurrent changes:\n%s", sw.RunningConfig())
	}
}
