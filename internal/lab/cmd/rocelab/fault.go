package main

// rocelab fault: inject a fault into a device of the running lab, or clear its faults, through
// the control socket ("fault DEVICE KIND [DURATION]", "fault DEVICE clear"); see
// internal/lab/faults.md for what each kind does on each platform.

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func faultCommand(args []string, stdout, stderr io.Writer) int {
	var by time.Duration
	dir, pos, code := clientCommand("fault", flagsFirst(args, "dir", "by"), []string{"DEVICE", "KIND"}, stderr,
		func(fs *flag.FlagSet) {
			fs.DurationVar(&by, "by", 0, "with slow: the delay added to every answer (default "+lab.DefaultSlowBy.String()+")")
		})
	if code >= 0 {
		return code
	}
	device, kind := pos[0], pos[1]
	request := "fault " + device + " " + kind
	switch {
	case by < 0 || (by > 0 && kind != string(lab.FaultSlow)):
		fmt.Fprintf(stderr, "rocelab fault: --by takes a positive duration and goes with slow only (got --by %s with %s)\n", by, kind)
		return 2
	case by > 0:
		request += " " + by.String()
	}
	if err := sendControl(dir, request); err != nil {
		fmt.Fprintln(stderr, "rocelab fault:", err)
		return 1
	}
	if by == 0 {
		by = lab.DefaultSlowBy
	}
	undo := fmt.Sprintf("`rocelab fault --dir %s %s clear`", dir, device)
	switch lab.FaultKind(kind) {
	case lab.FaultRefuse:
		fmt.Fprintf(stdout, "rocelab: %s now refuses connections (its open ones were closed) until %s\n", device, undo)
	case lab.FaultDrop:
		fmt.Fprintf(stdout, "rocelab: %s will drop the connection in the middle of its next write\n", device)
	case lab.FaultStall:
		fmt.Fprintf(stdout, "rocelab: %s now hangs on every operation until %s\n", device, undo)
	case lab.FaultReject:
		fmt.Fprintf(stdout, "rocelab: %s will refuse its next write with its own error\n", device)
	case lab.FaultSlow:
		fmt.Fprintf(stdout, "rocelab: %s now answers %s later than usual until %s\n", device, by, undo)
	case lab.FaultReboot:
		fmt.Fprintf(stdout, "rocelab: %s rebooted: its NIC settings are back to the driver defaults, then its enabled units ran\n", device)
	case lab.FaultDriverReload:
		fmt.Fprintf(stdout, "rocelab: %s reloaded its NIC driver: the settings are back to the driver defaults, then the units its netdevs want ran\n", device)
	default: // clear
		fmt.Fprintf(stdout, "rocelab: %s has no faults any more\n", device)
	}
	return 0
}

// faultAnswer serves "fault DEVICE KIND [DURATION]" and "fault DEVICE clear".
func faultAnswer(l *lab.Lab, req []string) string {
	device, kind, rest := req[1], req[2], req[3:]
	var err error
	switch {
	case kind == "clear" && len(rest) == 0:
		err = l.ClearFaults(device)
	case kind == string(lab.FaultSlow) && len(rest) == 1:
		by, perr := time.ParseDuration(rest[0])
		if perr != nil {
			return "error slow: " + perr.Error()
		}
		err = l.InjectSlow(device, by)
	case len(rest) == 0:
		err = l.InjectFault(device, lab.FaultKind(kind))
	default:
		return fmt.Sprintf("error fault %s: only slow takes a duration", kind)
	}
	if err != nil {
		return "error " + err.Error()
	}
	return "ok"
}

// flagsFirst moves the flags (and the values of those named in valued) before the positional
// arguments, so that `rocelab fault DEVICE slow --by 2s --dir DIR` parses like the usage line.
func flagsFirst(args []string, valued ...string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && i+1 < len(args) {
			for _, v := range valued {
				if name == v {
					i++
					flags = append(flags, args[i])
				}
			}
		}
	}
	return append(flags, rest...)
}
