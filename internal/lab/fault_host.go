package lab

// Fault injection on NIC hosts (`mlx5`): the SSH accept loop refuses connections
// (mlx5ssh.go); an exec request stalls, is slowed, and, when its command writes, is dropped or
// rejected before it runs. Whether a command writes is read from its parse, without running it:
// a redirection to a file other than /dev/null, tee with a file, mlnx_qos with a setting
// option, each also behind sudo or inside sh -c.

import (
	"fmt"
	"io"
	"path"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

// hostWrite is the first write a command would make.
type hostWrite struct {
	kind   string // "redirect", "tee" or "mlnx_qos"
	target string // the file, or mlnx_qos' interface
}

// reject prints what the host answers when the write is refused (FaultReject); the command then
// exits 1.
func (w *hostWrite) reject(stdout, stderr io.Writer) {
	switch w.kind {
	case "mlnx_qos":
		// mlnx_qos prints the netlink error on standard output, as the lab's does without root.
		_, _ = io.WriteString(stdout, "Netlink error: Operation not permitted (1)\n")
	case "tee":
		fmt.Fprintf(stderr, "tee: %s: Permission denied\n", w.target)
	default:
		fmt.Fprintf(stderr, "sh: 1: cannot create %s: Permission denied\n", w.target)
	}
}

// scriptWrite is the first write of script, or nil if it writes nothing (or does not parse).
func scriptWrite(script string) *hostWrite {
	p := &sh.Parser{Toks: sh.Lex(script)}
	for {
		list, err := p.NextCommand()
		if err != nil || list == nil {
			return nil
		}
		if w := listWrite(list); w != nil {
			return w
		}
	}
}

func listWrite(list []*sh.AndOr) *hostWrite {
	for _, ao := range list {
		for _, pl := range ao.Pipes {
			for _, c := range pl.Cmds {
				if w := commandWrite(c); w != nil {
					return w
				}
			}
		}
	}
	return nil
}

func commandWrite(c sh.Command) *hostWrite {
	switch c := c.(type) {
	case *sh.For:
		if w := redirWrite(c.Redirs); w != nil {
			return w
		}
		return listWrite(c.Body)
	case *sh.Simple:
		if w := redirWrite(c.Redirs); w != nil {
			return w
		}
		args := make([]string, len(c.Words))
		for i, w := range c.Words {
			args[i] = w.String()
		}
		return argsWrite(args)
	}
	return nil
}

func redirWrite(redirs []sh.Redir) *hostWrite {
	for _, r := range redirs {
		if (r.Op == ">" || r.Op == ">>") && r.Target.String() != "/dev/null" {
			return &hostWrite{kind: "redirect", target: r.Target.String()}
		}
	}
	return nil
}

// qosSetters are the mlnx_qos options that change a setting.
var qosSetters = []string{"pfc", "specific_pfc", "prio_tc", "tsa", "tc_bw", "ratelimit", "dcbx", "trust",
	"cable_len", "prio2buffer", "buffer_size"}

// argsWrite looks at one command's words: sudo's and flock's command, tee, mlnx_qos, sh -c.
func argsWrite(args []string) *hostWrite {
	for len(args) > 0 && (path.Base(args[0]) == "sudo" || path.Base(args[0]) == "flock") {
		if path.Base(args[0]) == "sudo" {
			args = sudoCommand(args[1:])
		} else {
			args = flockCommand(args[1:])
		}
	}
	if len(args) == 0 {
		return nil
	}
	switch path.Base(args[0]) {
	case "tee":
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") || a == "-" {
				return &hostWrite{kind: "tee", target: a}
			}
		}
	case "mlnx_qos":
		a, msg := parseQosArgs(args[1:])
		if msg != "" || a.help || a.version {
			return nil
		}
		if len(a.dscp2prio) > 0 {
			return &hostWrite{kind: "mlnx_qos", target: a.get("intf")}
		}
		for _, dest := range qosSetters {
			if a.vals[dest] != nil {
				return &hostWrite{kind: "mlnx_qos", target: a.get("intf")}
			}
		}
	case "sh", "dash", "bash":
		for i := 1; i < len(args); i++ {
			a := args[i]
			if !strings.HasPrefix(a, "-") {
				return nil // a script file: not looked into
			}
			if strings.Contains(a, "c") && i+1 < len(args) {
				return scriptWrite(args[i+1])
			}
		}
	}
	return nil
}

// sudoCommand skips sudo's options (those cmdSudo takes) to the command it runs.
func sudoCommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return args[i+1:]
		case a == "-u" || a == "--user":
			i++
		case !strings.HasPrefix(a, "-"):
			return args[i:]
		}
	}
	return nil
}

func (h *Host) FaultSet() *fault.Set { return &h.faults }

// CloseConns closes every open SSH connection (FaultRefuse).
func (h *Host) CloseConns() { h.srv.CloseConns() }

// faultExec applies the faults of an exec request, then runs it: its exit status, or ok false
// when the session ends without one (the connection was dropped, the client went away). A
// refused write is answered with status 1.
func (h *Host) faultExec(ch ssh.Channel, fc *fault.Conn, command string) (status int, ok bool) {
	if !h.faults.Stall(fc.Gone) {
		return 0, false
	}
	h.pause()
	w := scriptWrite(command)
	switch {
	case w == nil:
	case h.faults.Take(FaultDrop):
		fc.Drop()
		return 0, false
	case h.faults.Take(FaultReject):
		w.reject(ch, ch.Stderr())
		return 1, true
	}
	return h.runScript(command, false, ch, ch, ch.Stderr()), true
}

// flockCommand skips flock's options (those cmdFlock takes) and lock file to the command it runs.
func flockCommand(args []string) []string {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && len(args[i]) > 1; i++ {
		switch args[i] {
		case "-w", "--timeout", "-E", "--conflict-exit-code":
			i++
		}
	}
	if i+1 >= len(args) {
		return nil
	}
	return args[i+1:]
}
