package eos

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

func TestEOSSessionPromptsAndCandidate(t *testing.T) {
	sw := startEOS(t)
	fresh := sw.RunningConfig()
	c := newEOSCLI(t, sw, "enable")
	c.QuietSteps([]labtest.Step{
		{"configure session roce-4f1c2a9e", "eos-1(config-s-roce-4)#"},
		{"int Et1", "eos-1(config-s-roce-4-if-Et1)#"},
		{"service-profile ROCE", "eos-1(config-s-roce-4-if-Et1)#"},
		{"qos profile ROCE", "eos-1(config-s-roce-4-qos-profile-ROCE)#"},
		{"tx-queue 3", "eos-1(config-s-roce-4-qos-profile-ROCE-txq-3)#"},
		{"bandwidth percent 50", "eos-1(config-s-roce-4-qos-profile-ROCE-txq-3)#"},
		{"exit", "eos-1(config-s-roce-4-qos-profile-ROCE)#"},
		{"exit", "eos-1(config-s-roce-4)#"},
		{"exit", "eos-1#"},
	})
	if sw.RunningConfig() != fresh {
		t.Errorf("session lines reached the running-config:\n%s", sw.RunningConfig())
	}
	if got := sw.Sessions(); !slices.Equal(got, []Session{{Name: "roce-4f1c2a9e"}}) {
		t.Errorf("a session left with exit: %+v", got)
	}
	c.Must("configure session roce-4f1c2a9e")
	if got := c.Run("show running-config"); !strings.Contains(got, "interface Ethernet1\n   service-profile ROCE\n") {
		t.Errorf("show running-config in a session shows the candidate:\n%s", got)
	}
	want := "* roce-4f1c2a9e       pending       admin      " + c.Term.vty + "\n"
	if got := c.Run("show configuration sessions"); !strings.HasSuffix(got, want) {
		t.Errorf("show configuration sessions:\n%s\nwant the row %q", got, want)
	}
	c.Must("commit")
	if p := c.Term.Prompt(); p != "eos-1#" || !strings.Contains(sw.RunningConfig(), "      bandwidth percent 50\n") || len(sw.Sessions()) != 0 {
		t.Errorf("commit: prompt %q, sessions %v\n%s", p, sw.Sessions(), sw.RunningConfig())
	}
}

// TestEOSSessionCommitReplays: commit applies the session's lines to the running-config as it
// is at commit time, so a change made meanwhile in configure terminal survives.
func TestEOSSessionCommitReplays(t *testing.T) {
	sw := startEOS(t)
	a := newEOSCLI(t, sw, "enable", "configure session roce-a", "qos map dscp 10 to traffic-class 5", "qos profile P", "tx-queue 1", "priority strict")
	b := newEOSCLI(t, sw, "enable", "configure terminal", "qos map cos 4 to traffic-class 2", "qos map dscp 10 to traffic-class 6", "qos profile P", "qos trust cos")
	sw.RejectLines("dscp 11", unavailable)
	if got := a.Run("qos map dscp 11 to traffic-class 5"); got != "% "+unavailable+"\n" {
		t.Errorf("a rejected line in a session: %q", got)
	}
	sw.RejectLines("", "")
	a.Must("commit")
	for _, want := range []string{
		"qos profile P\n   qos trust cos\n   !\n   tx-queue 1\n      priority strict\n!\n",
		"qos map cos 4 to traffic-class 2\nqos map dscp 10 to traffic-class 5\n",
	} {
		if !strings.Contains(sw.RunningConfig(), want) {
			t.Errorf("no %q in\n%s", want, sw.RunningConfig())
		}
	}
	if strings.Contains(sw.RunningConfig(), "dscp 10 11") || strings.Contains(sw.RunningConfig(), "dscp 11") {
		t.Errorf("the rejected session line was committed:\n%s", sw.RunningConfig())
	}
	b.Must("end")
}

func TestEOSSessionsFromExec(t *testing.T) {
	sw := startEOS(t)
	c := newEOSCLI(t, sw, "enable")
	for i := range 5 {
		c.Must(fmt.Sprintf("configure session s%d", i))
		c.Must(fmt.Sprintf("qos map cos %d to traffic-class 7", i))
		c.Must("end")
	}
	before := sw.RunningConfig()
	if got := c.Run("configure session s5"); got != "% Maximum number of pending sessions has been reached\n" || c.Term.Prompt() != "eos-1#" {
		t.Errorf("a 6th session: %q, prompt %s", got, c.Term.Prompt())
	}
	c.Must("configure session s1 commit")
	c.Must("configure session s2 abort")
	c.Must("no configure session s3")
	c.Must("no configure session never-was")
	if got := c.Run("configure session nope commit"); got != "% Cannot commit session nope: no such pending session\n" {
		t.Errorf("commit of a missing session: %q", got)
	}
	if got := sw.Sessions(); !slices.Equal(got, []Session{{Name: "s0"}, {Name: "s4"}}) {
		t.Errorf("pending sessions: %+v", got)
	}
	if want := strings.Replace(before, "!\nend\n", "!\nqos map cos 1 to traffic-class 7\n!\nend\n", 1); sw.RunningConfig() != want {
		t.Errorf("configure session s1 commit:\n%s", sw.RunningConfig())
	}
	// A session another terminal is in cannot be taken, committed or deleted.
	other := newEOSCLI(t, sw, "enable", "configure session s0")
	inUse := "it is in use by terminal " + other.Term.vty
	for line, want := range map[string]string{
		"configure session s0":        "% Session s0 is in use by terminal " + other.Term.vty + "\n",
		"configure session s0 commit": "% Cannot commit session s0: " + inUse + "\n",
		"no configure session s0":     "% Cannot abort session s0: " + inUse + "\n",
	} {
		if got := c.Run(line); got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
	other.Must("abort")
	if got := sw.Sessions(); !slices.Equal(got, []Session{{Name: "s4"}}) || other.Term.Prompt() != "eos-1#" {
		t.Errorf("abort: %+v, prompt %s", got, other.Term.Prompt())
	}
	// configure session without a name makes one up.
	c.Must("configure session")
	if p := c.Term.Prompt(); p != "eos-1(config-s-sessio)#" {
		t.Errorf("an unnamed session: prompt %q", p)
	}
}
