package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fake server's NX-OS dialect (newFakeNXOS): login into privileged exec (`nxos-1# `, with
// NX-OS's trailing space), configure terminal whose lines take effect as typed, caret-marker
// errors, `ERROR:` lines, checkpoints (they outlive the connection) with atomic rollback, and
// `copy running-config startup-config`. The device's clock (clock) is fixed, far from ours.

// nxState is the NX-OS part of the fake's state, guarded by fakeEOS.mu.
type nxState struct {
	clock          time.Time // the device's local time, printed in !Time: and checkpoint summaries
	checkpoints    []*fakeCheckpoint
	startup        []string
	failRollback   bool // rollbacks print NX-OS's failure instead of restoring
	failDelete     bool // `no checkpoint` prints an ERROR
	failCheckpoint bool // `checkpoint` prints an ERROR
}

type fakeCheckpoint struct {
	name    string
	created time.Time
	running []string
}

func newFakeNXOS(t *testing.T) *fakeEOS {
	t.Helper()
	return newFakeServer(t, "", true)
}

var nxConfigWords = map[string]bool{"pause": true, "priority-flow-control": true, "service-policy": true,
	"description": true, "hostname": true, "bandwidth": true, "no": true, "match": true, "set": true}

// execNX runs one NX-OS line (w its words) for exec.
func (s *fakeEOS) execNX(tm *term, line string, w []string) (out string, answer, open bool) {
	if tm.conf {
		return s.configNX(tm, line, w), true, true
	}
	switch {
	case line == "exit":
		return "", false, false
	case line == "enable", line == "terminal length 0", len(w) == 3 && line == "terminal width "+w[2]:
	case line == "show version":
		return "Cisco Nexus Operating System (NX-OS) Software\nNXOS: version 10.3(4a)", true, true
	case line == "show running-config ipqos":
		return "\n!Command: show running-config ipqos\n!Time: " + s.clock.Format(time.ANSIC) +
			"\n\nversion 10.3(4a) Bios:version 05.47\n\n" + strings.Join(s.running, "\n"), true, true
	case line == "show checkpoint summary user":
		return s.checkpointSummary(), true, true
	case line == "copy running-config startup-config":
		s.startup = slices.Clone(s.running)
		return "[########################################] 100%\nCopy complete.", true, true
	case line == "configure terminal":
		tm.conf = true
	case len(w) == 2 && w[0] == "checkpoint":
		switch {
		case s.failCheckpoint:
			return "ERROR: Maximum number of checkpoints reached", true, true
		case s.checkpoint(w[1]) >= 0:
			return "ERROR: Checkpoint name is already in use", true, true
		}
		s.checkpoints = append(s.checkpoints, &fakeCheckpoint{name: w[1], created: s.clock, running: slices.Clone(s.running)})
		return ".Done", true, true // as NX-OS 10.2(2) prints it (internal/lab/nxos-switch.md)
	case len(w) == 3 && w[0] == "no" && w[1] == "checkpoint":
		i := s.checkpoint(w[2])
		switch {
		case s.failDelete:
			return "ERROR: checkpoint service is busy", true, true
		case i < 0:
			return "ERROR: Checkpoint " + w[2] + " does not exist", true, true
		}
		s.checkpoints = slices.Delete(s.checkpoints, i, i+1)
	case len(w) == 5 && strings.Join(w[:3], " ") == "rollback running-config checkpoint" && w[4] == "atomic":
		i := s.checkpoint(w[3])
		switch {
		case i < 0:
			return "ERROR: Checkpoint " + w[3] + " does not exist", true, true
		case s.failRollback:
			return "Note: Applying config parallelly may fail Rollback verification\nCollecting Running-Config\n" +
				"#Generating Rollback Patch\nExecuting Rollback Patch\nSyntax error while parsing 'pause pfc-cos 3'\n" +
				"Rollback failed.", true, true
		}
		s.running = slices.Clone(s.checkpoints[i].running)
		// NX-OS 10.2(2)'s transcript, as the lab prints it (internal/lab/nxos-switch.md).
		return "ADVISORY: Rollback operation started...\nModifying running configuration from another VSH terminal in parallel\n" +
			"is not recommended, as this may lead to Rollback failure.\n\nCollecting Running-Config\n" +
			"Generating Rollback Patch\nExecuting Rollback Patch\nGenerating Running-config for verification\n" +
			"Generating Rollback Patch\n\nRollback completed successfully.", true, true
	default:
		return caret(tm, line, 0, "% Invalid command at '^' marker."), true, true
	}
	return "", true, true
}

// configNX runs a line in configure terminal: accepted lines change the running-config at once.
func (s *fakeEOS) configNX(tm *term, line string, w []string) string {
	switch {
	case line == "end":
		tm.conf, tm.sub = false, ""
	case line == "exit" && tm.sub == "":
		tm.conf = false
	case line == "exit" && tm.sub == "-pmap-nqos-c":
		tm.sub = "-pmap-nqos"
	case line == "exit":
		tm.sub = ""
	case s.reject != "" && strings.Contains(line, s.reject):
		return "ERROR: policy-map " + w[len(w)-1] + " does not exist"
	case len(w) == 2 && w[0] == "interface" && strings.HasPrefix(w[1], "Ethernet1/"):
		tm.sub = "-if"
	case len(w) == 4 && strings.HasPrefix(line, "policy-map type network-qos "):
		tm.sub = "-pmap-nqos"
	case len(w) == 4 && strings.HasPrefix(line, "class type network-qos ") && strings.HasPrefix(tm.sub, "-pmap-nqos"):
		tm.sub = "-pmap-nqos-c"
	case line == "system qos":
		tm.sub = "-sys-qos"
	case len(w) == 2 && w[0] == "mtu":
		if n, err := strconv.Atoi(w[1]); err != nil || n < 576 || n > 9216 {
			return caret(tm, line, 1, "% Invalid number, range is (576:9216) at '^' marker.")
		}
	case nxConfigWords[w[0]]:
	default:
		return caret(tm, line, 0, "% Invalid command at '^' marker.")
	}
	if line != "end" && line != "exit" {
		s.running = append(s.running, line)
	}
	return ""
}

// caret is NX-OS's error: `^` under token tok of the line as echoed after the prompt, then msg.
func caret(tm *term, line string, tok int, msg string) string {
	at := 0
	for i, f := range strings.Fields(line) {
		at = strings.Index(line[at:], f) + at
		if i == tok {
			break
		}
		at += len(f)
	}
	return strings.Repeat(" ", len(tm.prompt())+at) + "^\n" + msg
}

func (s *fakeEOS) checkpoint(name string) int {
	return slices.IndexFunc(s.checkpoints, func(c *fakeCheckpoint) bool { return c.name == name })
}

func (s *fakeEOS) checkpointSummary() string {
	b := strings.Builder{}
	b.WriteString("User Checkpoints:\n" + strings.Repeat("-", 80) + "\n")
	for i, c := range s.checkpoints {
		fmt.Fprintf(&b, "%d) %s:\nCreated by admin\nCreated at %s\nSize is 15,451 bytes\nDescription: None\n",
			i+1, c.name, c.created.Format("Mon, 15:04:05 02 Jan 2006"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// nxSnapshot returns copies of the running-config, startup-config and checkpoint names.
func (s *fakeEOS) nxSnapshot() (running, startup, checkpoints []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.checkpoints {
		checkpoints = append(checkpoints, c.name)
	}
	return slices.Clone(s.running), slices.Clone(s.startup), checkpoints
}
