package lab

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestEOSAccess(t *testing.T) {
	l, sw := startEOS(t)
	if sw.Name() != "eos-1" || sw.Entry().Platform != "eos" {
		t.Errorf("%s is a %s switch", sw.Name(), sw.Entry().Platform)
	}
	if l.EOS("eos-2") != nil || l.Switch("eos-1") != nil || l.SONiC("eos-1") != nil || l.Host("eos-1") != nil {
		t.Error("lookups of absent or other-platform devices are not nil")
	}
	c := cliAccess(t, l, sw.Switch, []string{"Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4"})
	// An exec request runs one command in privileged mode.
	if out, _, status := runOn(t, c, "show running-config", ""); out != sw.RunningConfig() || status != 0 {
		t.Errorf("exec show running-config: exit %d\n%s", status, out)
	}
	// Many quick exec requests: the reply to each comes before its channel can close (a reply
	// sent after the command finished made the client's Run fail with EOF under load).
	for range 40 {
		if out, _, _ := runOn(t, c, "show conf sess", ""); !strings.HasPrefix(out, "Maximum number of completed sessions: 1\n") {
			t.Fatalf("exec show configuration sessions: %q", out)
		}
	}
}

func TestEOSLineDiscipline(t *testing.T) {
	l, sw := startEOS(t)
	s := openEOSShell(t, l.Inventory().Devices["eos-1"])

	// \r\n ends one line: one answer, one prompt.
	s.send("show hostname\r\n")
	if got := s.expect("eos-1>"); got != "show hostname\r\nHostname: eos-1\r\nFQDN:     eos-1\r\neos-1>" {
		t.Errorf("\\r\\n: %q", got)
	}
	s.send("enable\r")
	if got := s.expect("eos-1#"); got != "enable\r\neos-1#" {
		t.Errorf("after \\r\\n a single prompt, then \\r alone ends a line: %q", got)
	}
	// Backspace and DEL erase, arrow keys are ignored.
	s.send("sh x\x7f\x08\x1b[Aow host\x1bOAname\n")
	if got := s.expect("eos-1#"); got != "sh x\b \b\b \bow hostname\r\nHostname: eos-1\r\nFQDN:     eos-1\r\neos-1#" {
		t.Errorf("erasing: %q", got)
	}
	// Ctrl-C abandons the line.
	before := sw.Counters().Commands
	s.send("configure\x03")
	if got := s.expect("eos-1#"); got != "configure^C\r\neos-1#" || sw.Counters().Commands != before {
		t.Errorf("Ctrl-C: %q, %d commands (was %d)", got, sw.Counters().Commands, before)
	}
	// Ctrl-D does nothing in configuration modes and logs out at an empty exec prompt.
	s.line("conf", "eos-1(config)#")
	s.send("\x04")
	if got := s.line("end", "eos-1#"); got != "end\r\neos-1#" {
		t.Errorf("Ctrl-D in configure terminal: %q", got)
	}
	s.send("\x04")
	s.wantLogout("Ctrl-D at the exec prompt")
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
	t.Run("terminals", func(t *testing.T) {
		for i := range 4 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				s := openEOSShell(t, d)
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
		}
	})
	if !strings.Contains(sw.RunningConfig(), "qos map dscp 40 41 42 43 to traffic-class 7\n") {
		t.Errorf("concurrent changes:\n%s", sw.RunningConfig())
	}
}
