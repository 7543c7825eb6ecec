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
	return labtest.Start[*Switch](t, Start, labtest.Spec(t, "eos", 4, ""), opts...)
}

// eosCLI types lines into a terminal of the switch without SSH (the parser's tests).
type eosCLI = labtest.CLI[*eosTerm]

// newEOSCLI opens a terminal of admin's and types lines that must print nothing.
func newEOSCLI(t *testing.T, sw *Switch, lines ...string) *eosCLI {
	t.Helper()
	return labtest.NewCLI(t, sw.newTerm("admin"), "", lines...)
}

// unavailable is a captured EOS refusal (eos-switch.md, "Refusals"), the text tests give
// RejectLines.
const unavailable = "Unavailable command (not supported on this hardware platform)"

var eosSecretLine = regexp.MustCompile(`secret sha512 \$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}`)

// stableRunning hides the password hash (random salt and lab password) of a running-config.
func stableRunning(s string) string {
	return eosSecretLine.ReplaceAllLiteralString(s, "secret sha512 $6$SALT$HASH")
}
