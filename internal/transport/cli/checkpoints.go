package cli

import (
	"context"
	"regexp"
	"strings"
	"time"
)

// defaultStaleCheckpointAge is how old a roce- checkpoint must be to count as left behind by a dead
// process. A live transaction's checkpoint is seconds old: a transaction lasts at most twice
// the timeout.
const defaultStaleCheckpointAge = time.Hour

// ourCheckpoint is the name Configure gives its checkpoints.
var ourCheckpoint = regexp.MustCompile(`^roce-[0-9a-f]{8}$`)

// userCheckpoint is one entry of NX-OS's `show checkpoint summary user`.
type userCheckpoint struct {
	Name    string
	Created time.Time // the device's local time, as a UTC value; zero when unreadable
}

// removeStaleCheckpoints runs on every (re)connect to NX-OS, before any transaction: it deletes
// the roce- checkpoints a dead provider process left behind (NX-OS keeps them past the SSH
// connection, and the number of user checkpoints is limited). Age is measured on the device's
// clock, which need not agree with ours nor share our time zone. A refused listing is logged,
// not fatal; when in doubt a checkpoint is kept.
func (c *Client) removeStaleCheckpoints(ctx context.Context, cn *conn) error {
	out, ok, err := c.listLeftovers(ctx, cn, "show checkpoint summary user", "CLI cannot list checkpoints")
	if err != nil || !ok {
		return err
	}
	var ours []userCheckpoint
	for _, cp := range parseCheckpoints(out) {
		if ourCheckpoint.MatchString(cp.Name) {
			ours = append(ours, cp)
		}
	}
	if len(ours) == 0 {
		return nil
	}
	now, ok, err := c.deviceClock(ctx, cn)
	if err != nil || !ok {
		return err
	}
	for _, cp := range ours {
		age := now.Sub(cp.Created)
		if cp.Created.IsZero() || age < c.staleCheckpointAge {
			continue
		}
		if err := c.removeLeftover(ctx, cn, "no checkpoint "+cp.Name, "CLI deleted stale checkpoint", map[string]any{
			"checkpoint": cp.Name, "created": cp.Created.Format("2006-01-02 15:04:05"), "age": age.Round(time.Second).String(),
		}); err != nil {
			return err
		}
	}
	return nil
}

// deviceClock reads the device's time from the `!Time:` line that NX-OS prints at the top of a
// running-config section; ok is false (and logged) when there is none.
func (c *Client) deviceClock(ctx context.Context, cn *conn) (now time.Time, ok bool, err error) {
	const show = "show running-config ipqos"
	r, err := cn.d.SendCommand(show)
	if err != nil {
		return time.Time{}, false, err
	}
	if !refused(r.Result, cn.d.FailedWhenContains) {
		if now, ok = parseConfigTime(r.Result); ok {
			return now, true, nil
		}
	}
	c.log(ctx, "CLI cannot read the device's clock; roce- checkpoints are kept", map[string]any{"op": "connect",
		"command": show, "error": "no !Time: line"})
	return time.Time{}, false, nil
}

// parseConfigTime reads `!Time: Mon Nov 30 10:05:00 2026` (ctime layout, the day padded with a
// space).
func parseConfigTime(out string) (time.Time, bool) {
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
		rest, found := strings.CutPrefix(strings.TrimSpace(l), "!Time:")
		if !found {
			continue
		}
		t, err := time.Parse("Mon Jan 2 15:04:05 2006", strings.Join(strings.Fields(rest), " "))
		return t, err == nil
	}
	return time.Time{}, false
}

var checkpointHeader = regexp.MustCompile(`^\d+\)\s*(\S+?):?$`)

// parseCheckpoints reads the user checkpoints of `show checkpoint summary [user]`:
//
//	User Checkpoints:
//	--------------------------------------------------------------------------------
//	1) roce-4f1c2a9e:
//	Created by admin
//	Created at Mon, 10:05:01 30 Nov 2026
//	Size is 15,451 bytes
//	Description: None
//
// System checkpoints (a `System Checkpoints:` section) are skipped.
func parseCheckpoints(out string) []userCheckpoint {
	var cps []userCheckpoint
	user := true
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasSuffix(l, "Checkpoints:"):
			user = strings.HasPrefix(l, "User")
		case !user:
		case checkpointHeader.MatchString(l):
			cps = append(cps, userCheckpoint{Name: checkpointHeader.FindStringSubmatch(l)[1]})
		case len(cps) > 0 && strings.HasPrefix(l, "Created at "):
			t, err := time.Parse("Mon, 15:04:05 2 Jan 2006", strings.Join(strings.Fields(l)[2:], " "))
			if err == nil {
				cps[len(cps)-1].Created = t
			}
		}
	}
	return cps
}
