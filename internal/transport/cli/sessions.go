package cli

import (
	"context"
	"strings"
)

// cfgSession is one row of EOS's `show configuration sessions`.
type cfgSession struct {
	Name, State, User, Terminal string
	Current                     bool // marked `*`: the asking terminal's own session
}

// abandoned reports a session this provider opened and a dead process left pending: EOS keeps
// sessions past the SSH connection, and only 5 may be pending. A session with a terminal belongs
// to a live CLI (maybe another provider run) and is left alone.
func (s cfgSession) abandoned() bool {
	return strings.HasPrefix(s.Name, "roce-") && s.State == "pending" && s.Terminal == "" && !s.Current
}

// removeAbandonedSessions runs on every (re)connect to EOS, before any transaction: it removes
// our abandoned sessions. A refused listing or removal is logged, not fatal: the transaction
// itself will report a session limit with the device's text.
func (c *Client) removeAbandonedSessions(ctx context.Context, cn *conn) error {
	const list = "show configuration sessions"
	r, err := cn.d.SendCommand(list)
	if err != nil {
		return err
	}
	if refused(r.Result, cn.d.FailedWhenContains) {
		c.log(ctx, "CLI cannot list configuration sessions", map[string]any{"op": "connect", "command": list,
			"error": strings.TrimSpace(r.Result)})
		return nil
	}
	for _, s := range parseSessions(r.Result) {
		if !s.abandoned() {
			continue
		}
		cmd := "no configure session " + s.Name
		r, err := cn.d.SendCommand(cmd)
		if err != nil {
			return err
		}
		fields := map[string]any{"op": "connect", "command": cmd, "session": s.Name, "error": ""}
		if refused(r.Result, configFailures(cn.d)) {
			fields["error"] = strings.TrimSpace(r.Result)
		}
		c.log(ctx, "CLI removed abandoned configuration session", fields)
	}
	return nil
}

// parseSessions reads the session table:
//
//	  Name                State         User       Terminal
//	  ------------------- ------------- ---------- --------
//	* roce-4f1c2a9e       pending       admin      vty3
//	  roce-0b1d77aa       pending
//
// Columns are located by the dash runs under the header, since User and Terminal are blank for
// an abandoned session. Rows that do not fit the columns (a name longer than its column) are
// skipped: when in doubt a session is kept. Without a Terminal column nothing is returned.
func parseSessions(out string) []cfgSession {
	lines := strings.Split(strings.ReplaceAll(out, "\r", ""), "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.Contains(lines[i], "Name") || !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "---") {
			continue
		}
		cols := columns(lines[i], lines[i+1])
		if _, ok := cols["Terminal"]; !ok {
			return nil
		}
		if _, ok := cols["Name"]; !ok {
			return nil
		}
		var sessions []cfgSession
		for _, row := range lines[i+2:] {
			if strings.TrimSpace(row) == "" {
				continue
			}
			name := cols["Name"].cell(row)
			if name == "" || strings.Contains(name, " ") || !cols["Name"].fits(row) {
				continue
			}
			sessions = append(sessions, cfgSession{Name: name, State: cols["State"].cell(row),
				User: cols["User"].cell(row), Terminal: cols["Terminal"].cell(row),
				Current: strings.HasPrefix(row, "*")})
		}
		return sessions
	}
	return nil
}

// column is a table column's byte range: from its dash run to the next column's start.
type column struct{ start, end int } // end -1: to the end of the row

func (c column) cell(row string) string {
	if c.start >= len(row) {
		return ""
	}
	if c.end < 0 || c.end > len(row) {
		return strings.TrimSpace(row[c.start:])
	}
	return strings.TrimSpace(row[c.start:c.end])
}

// fits reports that the row has a gap (or ends) where the column ends, so the cell is whole.
func (c column) fits(row string) bool {
	return c.end < 0 || c.end > len(row) || row[c.end-1] == ' '
}

// columns names each dash run of the rule line by the header text above it.
func columns(header, rule string) map[string]column {
	var starts []int
	for i := 0; i < len(rule); i++ {
		if rule[i] == '-' && (i == 0 || rule[i-1] != '-') {
			starts = append(starts, i)
		}
	}
	cols := map[string]column{}
	for k, s := range starts {
		col := column{start: s, end: -1}
		if k+1 < len(starts) {
			col.end = starts[k+1]
		}
		if name := col.cell(header); name != "" {
			cols[name] = col
		}
	}
	return cols
}
