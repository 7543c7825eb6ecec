package cliswitch

// Fault injection on CLI switches (`eos`, `nxos`): the SSH accept loop refuses connections
// (ssh.go); the line loop (line.go) stalls, slows, drops the connection at
// the second line of a configuration transaction or at a commit, and claims fault.Reject for the
// next transaction, whose configuration lines are then refused through the RejectLines
// machinery (rejected).

import (
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// cliRejectText is what a configuration line refused by fault.Reject prints, per platform: EOS
// prints RejectLines messages after "% ", NX-OS verbatim. Both are captured refusals (the
// dialect files' "Refusals"): EOS's platform refusal, NX-OS's module status for an uncarved
// QoS TCAM region.
var cliRejectText = map[string]string{
	"eos":  "Unavailable command (not supported on this hardware platform)",
	"nxos": `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"`,
}

// cliTx is the configuration transaction of one shell: the lines typed since the terminal
// entered a configuration mode, and whether fault.Reject refuses its configuration lines.
type cliTx struct {
	lines  int
	reject string
}

func (sw *Switch) FaultSet() *fault.Set { return &sw.faults }

// CloseConns closes every open SSH connection (FaultRefuse).
func (sw *Switch) CloseConns() { sw.srv.CloseConns() }

// setTxReject makes rejected refuse every configuration line with msg ("" stops it); the line
// loop sets it under runMu for the one line it runs.
func (sw *Switch) setTxReject(msg string) {
	sw.rejectMu.Lock()
	defer sw.rejectMu.Unlock()
	sw.txReject = msg
}

// faultLine applies the faults of a line typed at a shell, before it runs: false says the
// connection was dropped (fault.Drop) and the line did not run.
func (sw *Switch) faultLine(t Term, tx *cliTx, conn *fault.Conn, line string) bool {
	words := strings.Fields(line)
	if len(words) == 0 || strings.HasPrefix(words[0], "!") {
		return true
	}
	inConfig := t.InConfig()
	if inConfig {
		tx.lines++
	}
	if (inConfig && tx.lines >= 2 || isCommitLine(words, inConfig)) && sw.faults.Take(fault.Drop) {
		sw.CountCommand(words)
		conn.Drop()
		return false
	}
	if inConfig && tx.lines == 1 && sw.faults.Take(fault.Reject) {
		tx.reject = cliRejectText[sw.inv.Platform]
	}
	return true
}

// isCommitLine says whether a line commits a configuration session: `commit` (at least `comm`)
// inside one, or `configure session NAME commit` from exec mode.
func isCommitLine(words []string, inConfig bool) bool {
	abbrev := func(w, full string) bool { return len(w) >= 4 && strings.HasPrefix(full, w) }
	if inConfig {
		return len(words) == 1 && abbrev(words[0], "commit")
	}
	return len(words) == 4 && abbrev(words[0], "configure") && abbrev(words[1], "session") && abbrev(words[3], "commit")
}
