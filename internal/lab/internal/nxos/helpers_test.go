package nxos

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// startNXOS starts one `nxos` switch, nxos-1 with 4 ports and the default model unless opts
// change its spec, on no cables.
func startNXOS(t *testing.T, opts ...func(*device.Spec)) *Switch {
	t.Helper()
	spec := labtest.Spec(t, "nxos", 4, "")
	for _, f := range opts {
		f(&spec)
	}
	d, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Stop)
	return d.(*Switch)
}

// nxosCLI types lines into a terminal of the switch without SSH (the parser's tests).
type nxosCLI struct {
	t    *testing.T
	term *nxosTerm
}

func newNXOSCLI(t *testing.T, sw *Switch, lines ...string) *nxosCLI {
	t.Helper()
	c := &nxosCLI{t: t, term: sw.newTerm("admin")}
	for _, l := range lines {
		c.must(l)
	}
	return c
}

// run types one line and returns its output.
func (c *nxosCLI) run(line string) string { return c.term.run(line) }

// must types a line that must print nothing (configure terminal's banner aside).
func (c *nxosCLI) must(line string) {
	c.t.Helper()
	out := c.run(line)
	if out != "" && out != nxosConfigBanner {
		c.t.Fatalf("%s%s: %q", c.term.Prompt(), line, out)
	}
}

const nxosConfigBanner = "Enter configuration commands, one per line. End with CNTL/Z.\n"

// NX-OS's error messages after the caret line.
const (
	nxInvalid    = "% Invalid command at '^' marker."
	nxIncomplete = "% Incomplete command at '^' marker."
	nxAmbiguous  = "% Ambiguous command at '^' marker."
)

func nxRange(lo, hi int) string {
	return fmt.Sprintf("%% Invalid number, range is (%d:%d) at '^' marker.", lo, hi)
}

// nxCase is a line and the answer it must get. A `%` message comes after a caret line with
// the caret under the first occurrence of at in the line (counting the prompt), or after the
// line's last character when at is "$"; any other message (ERROR: ...) is the whole answer.
type nxCase struct{ line, at, msg string }

func (tc nxCase) want(prompt string) string {
	if !strings.HasPrefix(tc.msg, "%") {
		return tc.msg + "\n"
	}
	col := strings.Index(tc.line, tc.at)
	if tc.at == "$" {
		col = len(strings.TrimRight(tc.line, " "))
	}
	return strings.Repeat(" ", len(prompt)+col) + "^\n" + tc.msg + "\n"
}

// check types the cases at the terminal's current prompt (which must not change).
func (c *nxosCLI) check(cases []nxCase) {
	c.t.Helper()
	for _, tc := range cases {
		prompt := c.term.Prompt()
		if want, got := tc.want(prompt), c.run(tc.line); got != want {
			c.t.Errorf("%s%s:\n%s\nwant:\n%s", prompt, tc.line, got, want)
		}
		if p := c.term.Prompt(); p != prompt {
			c.t.Errorf("%s%s moved the terminal to %q", prompt, tc.line, p)
		}
	}
}

// timeLines are the lines of a show text that change with the clock.
var timeLines = regexp.MustCompile(`(?m)^!(Time|Running configuration last done at|Startup config saved at): .*\n`)

func withoutTimes(s string) string { return timeLines.ReplaceAllString(s, "") }
