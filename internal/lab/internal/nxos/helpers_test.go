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
	return labtest.Start[*Switch](t, Start, labtest.Spec(t, "nxos", 4, ""), opts...)
}

// nxosCLI types lines into a terminal of the switch without SSH (the parser's tests); a line
// that must print nothing may print configure terminal's banner.
type nxosCLI struct{ *labtest.CLI[*nxosTerm] }

func newNXOSCLI(t *testing.T, sw *Switch, lines ...string) *nxosCLI {
	t.Helper()
	return &nxosCLI{labtest.NewCLI(t, sw.newTerm("admin"), nxosConfigBanner, lines...)}
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
	c.T.Helper()
	for _, tc := range cases {
		prompt := c.Term.Prompt()
		if want, got := tc.want(prompt), c.Run(tc.line); got != want {
			c.T.Errorf("%s%s:\n%s\nwant:\n%s", prompt, tc.line, got, want)
		}
		if p := c.Term.Prompt(); p != prompt {
			c.T.Errorf("%s%s moved the terminal to %q", prompt, tc.line, p)
		}
	}
}

// timeLines are the lines of a show text that change with the clock.
var timeLines = regexp.MustCompile(`(?m)^!(Time|Running configuration last done at|Startup config saved at): .*\n`)

func withoutTimes(s string) string { return timeLines.ReplaceAllString(s, "") }
