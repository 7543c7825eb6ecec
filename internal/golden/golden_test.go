package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// recorder keeps what Check reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// A difference names the changed line as the golden file has it and as the test produced it,
// not the whole output; UPDATE_GOLDEN writes the file, directory included.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.golden")
	t.Setenv("UPDATE_GOLDEN", "1")
	Check(t, path, "a\nb\nc\n")
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\nc\n" {
		t.Fatalf("UPDATE_GOLDEN did not write the file: %q, %v", b, err)
	}
	t.Setenv("UPDATE_GOLDEN", "")
	r := &recorder{TB: t}
	Check(r, path, "a\nB\nc\n")
	if len(r.errs) != 1 || !diffLine(r.errs[0], "-", `"b\n"`) || !diffLine(r.errs[0], "+", `"B\n"`) {
		t.Errorf("the report is not a line diff of the change:\n%s", strings.Join(r.errs, "\n"))
	}
	r.errs = nil
	Check(r, path, "a\nb\nc\n")
	if len(r.errs) != 0 {
		t.Errorf("equal output reported: %v", r.errs)
	}
}

// diffLine reports whether report has a line marked sign holding text. go-cmp varies the
// spaces of its output (sometimes U+00A0) so that no test depends on them: compare words.
func diffLine(report, sign, text string) bool {
	for _, l := range strings.Split(report, "\n") {
		f := strings.FieldsFunc(l, unicode.IsSpace)
		if len(f) == 2 && f[0] == sign && f[1] == text+"," {
			return true
		}
	}
	return false
}
