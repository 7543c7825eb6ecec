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
	out, ok, err := c.listLeftovers(ctx, cn, "show configuration sessions", "CLI cannot list configuration sessions")
	if err != nil || !ok {
		return err
	}
	for _, s := range parseSessions(out) {
		if !s.abandoned() {
			continue
		}
		if err := c.removeLeftover(ctx, cn, "no configure session "+s.Name, "CLI removed abandoned configuration session",
			map[string]any{"session": s.Name}); err != nil {
			return err
		}
	}
	return nil
}

// listLeftovers sends list, the command that shows what earlier runs may have left on the
// device (EOS's sessions, NX-OS's checkpoints), and returns its output; ok is false when the
// device refused it, which is logged as msg and not fatal.
func (c *Client) listLeftovers(ctx context.Context, cn *conn, list, msg string) (out string, ok bool, err error) {
	r, err := cn.d.SendCommand(list)
	if err != nil {
		return "", false, err
	}
	if refused(r.Result, cn.d.FailedWhenContains) {
		c.log(ctx, msg, map[string]any{"op": "connect", "command": list, "error": deviceText(r.Result)})
		return "", false, nil
	}
	return r.Result, true, nil
}

// removeLeftover sends cmd, which removes one thing an earlier run left, and logs it as msg
// with fields, the device's refusal (if any) as the error: a refused removal is not fatal.
func (c *Client) removeLeftover(ctx context.Context, cn *conn, cmd, msg string, fields map[string]any) error {
	r, err := cn.d.SendCommand(cmd)
	if err != nil {
		return err
	}
	fields["op"], fields["command"], fields["error"] = "connect", cmd, ""
	if refused(r.Result, configFailures(cn.d)) {
		fields["error"] = deviceText(r.Result)
	}
	c.log(ctx, msg, fields)
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
