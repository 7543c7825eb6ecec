package nxos

// Checkpoints and rollback on the `nxos` switch. A checkpoint is a deep copy of the whole
// configuration (nxosConfig.clone), kept by the switch, not by the terminal, so it outlives
// the SSH connection that took it; `rollback running-config checkpoint NAME atomic` makes the
// running-config that copy again, exactly, and prints NX-OS's rollback transcript.

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

type nxosCheckpoint struct {
	name        string
	user        string
	created     time.Time
	description string
	cfg         *nxosConfig
	size        int // bytes of its running-config text
}

var checkpointName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,80}$`)

// rollbackTranscript is what NX-OS 10.x prints for a successful rollback (nxos-switch.md, "Exec
// commands"): a Nexus 9000v 10.2(2) transcript of `rollback running-config checkpoint NAME`.
const rollbackTranscript = `ADVISORY: Rollback operation started...
Modifying running configuration from another VSH terminal in parallel
is not recommended, as this may lead to Rollback failure.

Collecting Running-Config
Generating Rollback patch for switch profile
Rollback Patch is Empty
Collecting Running-Config
Generating Rollback Patch
Executing Rollback Patch
During CR operation,will retain L3 configuration
when vrf member change on interface
Generating Running-config for verification
Generating Rollback Patch

Rollback completed successfully.
`

func (sw *Switch) checkpoint(name string) *nxosCheckpoint {
	for _, c := range sw.checkpoints {
		if c.name == name {
			return c
		}
	}
	return nil
}

// existingCheckpoint is the checkpoint named name, or NX-OS's refusal when there is none.
func (sw *Switch) existingCheckpoint(name string) (*nxosCheckpoint, *cliswitch.Refusal) {
	if c := sw.checkpoint(name); c != nil {
		return c, nil
	}
	return nil, cliswitch.ErrFinal("ERROR: Checkpoint %s does not exist", name)
}

// checkpointArg reads a checkpoint name: 1-80 characters of [A-Za-z0-9_.-].
func checkpointArg(a *cliswitch.Args) (string, *cliswitch.Refusal) { return a.Matching(checkpointName) }

// cmdCheckpoint: `checkpoint NAME [description TEXT]` snapshots the running-config.
func cmdCheckpoint(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	name, err := checkpointArg(a)
	if err != nil {
		return err
	}
	description := "None"
	if k, err := a.OptKw("description"); err != nil {
		return err
	} else if k != "" {
		if description, err = a.Rest(); err != nil {
			return err
		}
	}
	sw := x.sw
	if sw.checkpoint(name) != nil {
		return cliswitch.ErrFinal("ERROR: Checkpoint name is already in use")
	}
	sw.checkpoints = append(sw.checkpoints, &nxosCheckpoint{
		name: name, user: x.t.user, created: time.Now(), description: description,
		cfg: sw.running.clone(), size: len(sw.renderFull(sw.running)),
	})
	x.printf(".Done\n") // one progress dot, as the 10.2(2) transcript shows
	return nil
}

// cmdNoCheckpoint: `no checkpoint NAME` deletes a checkpoint.
func cmdNoCheckpoint(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("checkpoint"); err != nil {
		return err
	}
	name, err := cliswitch.Last(a, checkpointArg)
	if err != nil {
		return err
	}
	sw := x.sw
	c, err := sw.existingCheckpoint(name)
	if err != nil {
		return err
	}
	for i, p := range sw.checkpoints {
		if p == c {
			sw.checkpoints = append(sw.checkpoints[:i:i], sw.checkpoints[i+1:]...)
			break
		}
	}
	return nil
}

// cmdRollback: `rollback running-config checkpoint NAME [atomic|best-effort|stop-at-first-failure]`.
// Restoring a copy cannot fail halfway, so the three modes (atomic is NX-OS's default) agree.
func cmdRollback(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Keywords("running-config", "checkpoint"); err != nil {
		return err
	}
	name, err := a.Word()
	if err != nil {
		return err
	}
	if _, err := a.OptKw("atomic", "best-effort", "stop-at-first-failure"); err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	sw := x.sw
	c, err := sw.existingCheckpoint(name)
	if err != nil {
		return err
	}
	sw.running, sw.lastChange = c.cfg.clone(), time.Now()
	x.printf("%s", rollbackTranscript)
	return nil
}

// showCheckpoints: `show checkpoint summary [user]`, the user checkpoints in creation order.
func (x *nxosCtx) showCheckpoints(a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("summary"); err != nil {
		return err
	}
	if _, err := a.OptKw("user"); err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	x.printf("User Checkpoints:\n%s\n", strings.Repeat("-", 80))
	for i, c := range x.sw.checkpoints {
		if i > 0 {
			x.printf("\n")
		}
		x.printf("%d) %s:\nCreated by %s\nCreated at %s\nSize is %s bytes\nDescription: %s\n",
			i+1, c.name, c.user, c.created.Format("Mon, 15:04:05 02 Jan 2006"), thousands(c.size), c.description)
	}
	return nil
}

// thousands prints n with comma separators, as NX-OS prints sizes (15,451).
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
