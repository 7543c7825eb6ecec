// Package clitexttest checks, for the CLI platforms' tests (EOS, NX-OS), that the lines a
// writer builds are lines a CLI session takes as typed. Only tests import it (by convention).
package clitexttest

import (
	"strings"
	"testing"
)

// unsafeInLine are the characters no configuration line may carry: line breaks, a comment or
// prompt character, command separators and pipes, and '?' (the CLI's inline help).
const unsafeInLine = "\n\r;|!#?"

// CheckWritten checks what a writer returned: safe lines, or its refusal of a device value
// that no CLI line may carry (the platforms' writableLines).
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
