package eos

import (
	"regexp"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// startEOS starts one `eos` switch, eos-1 with 4 ports and the default model unless opts
// change its spec, on no cables.
func startEOS(t *testing.T, opts ...func(*device.Spec)) *Switch {
	t.Helper()
	spec := labtest.Spec(t, "eos", 4, "")
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

// eosCLI types lines into a terminal of the switch without SSH (the parser's tests).
type eosCLI struct {
	t    *testing.T
	term *eosTerm
}

func newEOSCLI(t *testing.T, sw *Switch, lines ...string) *eosCLI {
	t.Helper()
	c := &eosCLI{t: t, term: sw.newTerm("admin")}
	t.Cleanup(c.term.Leave)
	for _, l := range lines {
		c.must(l)
	}
	return c
}

// run types one line and returns its output.
func (c *eosCLI) run(line string) string { return c.term.run(line) }

// must types a line that must print nothing.
func (c *eosCLI) must(line string) {
	c.t.Helper()
	if out := c.run(line); out != "" {
		c.t.Fatalf("%s %s: %q", c.term.Prompt(), line, out)
	}
}

var eosSecretLine = regexp.MustCompile(`secret sha512 \$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}`)

// stableRunning hides the password hash (random salt and lab password) of a running-config.
func stableRunning(s string) string {
	return eosSecretLine.ReplaceAllLiteralString(s, "secret sha512 $6$SALT$HASH")
}
