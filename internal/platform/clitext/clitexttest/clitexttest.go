// Package clitexttest checks, for the CLI platforms' tests (EOS, NX-OS), that the lines a
// writer builds are lines a CLI session takes as typed. Only tests import it (by convention).
package clitexttest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

// unsafeInLine are the characters no configuration line may carry: line breaks, a comment or
// prompt character, command separators and pipes, and '?' (the CLI's inline help).
const unsafeInLine = "\n\r;|!#?"

// CheckWritten checks what a writer returned: safe lines, or its refusal of a device value
// that no CLI line may carry (clitext.Writable).
func CheckWritten(t *testing.T, what string, lines []string, err error) {
	t.Helper()
	if err != nil {
		if !strings.Contains(err.Error(), "no CLI line may carry") {
			t.Fatalf("%s: %v", what, err)
		}
		return
	}
	CheckLines(t, what, lines)
}

// CheckLines fails on a line that is empty, padded, or carries a control character or one of
// unsafeInLine.
func CheckLines(t *testing.T, what string, lines []string) {
	t.Helper()
	for _, l := range lines {
		bad := strings.ContainsAny(l, unsafeInLine)
		for _, r := range l {
			bad = bad || r < 0x20 || r == 0x7f
		}
		if bad || l == "" || l != strings.TrimSpace(l) {
			t.Errorf("%s: unsafe configuration line %q", what, l)
		}
	}
}

// WantLines fails unless a writer returned want (and no error).
func WantLines(t *testing.T, what string, got []string, err error, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// CheckModes asserts a writer's session discipline: every sub-mode a line enters (enters) is
// left with "exit", never more than maxDepth deep, so the lines end in global configuration
// mode; and no line is one the transport owns (ownedByTransport: ending, committing or
// rolling back the session).
func CheckModes(t *testing.T, ls []string, maxDepth int, enters, ownedByTransport func(string) bool) {
	t.Helper()
	depth := 0
	for _, l := range ls {
		switch {
		case l == "exit":
			depth--
		case enters(l):
			depth++
		case ownedByTransport(l):
			t.Errorf("line %q belongs to the transport", l)
		}
		if depth < 0 || depth > maxDepth {
			t.Fatalf("mode depth %d at %q", depth, l)
		}
	}
	if depth != 0 {
		t.Errorf("lines end %d modes below global configuration", depth)
	}
}

// Indent renders configuration lines as a running-config prints them: each line indented by
// unit once per sub-mode it is typed in (enters says which lines enter one), "exit" dropped.
// Lines that do not come back to global configuration fail t.
func Indent(t *testing.T, ls []string, unit string, enters func(string) bool) string {
	t.Helper()
	var b strings.Builder
	depth := 0
	for _, l := range ls {
		if l == "exit" {
			depth--
			continue
		}
		b.WriteString(strings.Repeat(unit, depth) + l + "\n")
		if enters(l) {
			depth++
		}
	}
	if depth != 0 {
		t.Fatalf("lines end %d modes below global configuration", depth)
	}
	return b.String()
}

// CheckThresholdUnits asserts how a platform reads ECN thresholds (clitext.Threshold): in
// bytes for the units both CLIs print (kbytes, mbytes, bytes), and as unknown (the platform's
// Unknown) in each of its own units bytes cannot express (value and unit pairs). read returns
// the minimum and maximum thresholds of a queue configured with value and unit for both.
func CheckThresholdUnits(t *testing.T, unknown int64, read func(value, unit string) (minBytes, maxBytes int64),
	otherUnits ...[2]string) {
	t.Helper()
	type tc struct {
		value, unit string
		want        int64
	}
	cases := []tc{{"150", "kbytes", 153600}, {"1", "mbytes", 1048576}, {"153600", "bytes", 153600}}
	for _, o := range otherUnits {
		cases = append(cases, tc{o[0], o[1], unknown})
	}
	for _, c := range cases {
		if lo, hi := read(c.value, c.unit); lo != c.want || hi != c.want {
			t.Errorf("%s %s reads %d and %d, want %d", c.value, c.unit, lo, hi, c.want)
		}
	}
}

// ReadEach reads each policy of a parsed running-config (names, in order) as a read does: on
// its own, and against known as a refresh of known does. Each must be found under its own
// name; check gets each read.
func ReadEach(t *testing.T, names []string, known *fabric.QoSPolicy,
	read func(name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool), check func(p *fabric.QoSPolicy)) {
	t.Helper()
	for _, name := range names {
		for _, k := range []*fabric.QoSPolicy{nil, known} {
			p, ok := read(name, k)
			if !ok || p.Name != name {
				t.Fatalf("Policy(%q) = %v, %v", name, p, ok)
			}
			check(p)
		}
	}
}

// WriteBack writes a policy read from a device again, as an update, an unbind, a rename and a
// delete do (fabrictest.Lifecycle), when the platform can write it (p valid, unsupported
// empty, ECN thresholds whole kilobytes), and checks each write's lines (CheckWritten).
func WriteBack(t *testing.T, p *fabric.QoSPolicy, unsupported []fabric.Unsupported,
	write func(old, next *fabric.QoSPolicy) ([]string, error)) {
	t.Helper()
	if len(p.Validate()) > 0 || len(unsupported) > 0 || len(fabric.ECNWholeKilobytes(*p)) > 0 {
		return
	}
	for _, step := range fabrictest.Lifecycle(p, "RENAMED") {
		lines, err := write(step.Old, step.Next)
		CheckWritten(t, step.Name+" of policy "+p.Name, lines, err)
	}
}
