package main

// The control channel of a running lab: `rocelab up` listens on the unix
// socket DIR/rocelab.sock for one-line requests ("reboot DEVICE", "storm
// DEVICE INTERFACE on|off", "fault DEVICE KIND [DURATION]", "fault DEVICE
// clear") and answers "ok" or "error MESSAGE"; `rocelab reboot`, `rocelab
// storm` and `rocelab fault` are its clients. All must happen inside the
// process that owns the simulated devices.

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// ControlSocket is the unix socket `up` serves in --dir.
const ControlSocket = "rocelab.sock"

// controlTimeout bounds one request, connection included.
const controlTimeout = 10 * time.Second

// serveControl listens on dir's control socket until the returned stop is
// called. A stale socket of a lab that died is removed first: serve has
// already made sure no other lab runs in dir.
func serveControl(dir string, l *lab.Lab) (stop func(), err error) {
	path := filepath.Join(dir, ControlSocket)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	lis, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			go handleControl(c, l, dir)
		}
	}()
	return func() {
		_ = lis.Close() // removes the socket file
		<-done
	}, nil
}

func handleControl(c net.Conn, l *lab.Lab, dir string) {
	defer func() { _ = c.Close() }()
	_ = c.SetDeadline(time.Now().Add(controlTimeout))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	req := strings.Fields(line)
	answer := controlAnswer(l, req)
	if answer == "ok" && len(req) > 0 && req[0] == "cable" {
		if err := l.SaveInventory(dir); err != nil {
			answer = "error recabled, but inventory.json was not rewritten: " + err.Error()
		}
	}
	_, _ = io.WriteString(c, answer+"\n")
}

func controlAnswer(l *lab.Lab, req []string) string {
	switch {
	case len(req) == 2 && (req[0] == "reboot" || req[0] == "warm-reboot"):
		h := l.Host(req[1])
		if h == nil {
			if d, ok := l.Inventory().Devices[req[1]]; ok {
				return fmt.Sprintf("error %s is a %s switch; only NIC hosts reboot", req[1], d.Platform)
			}
			return noDevice(l, req[1])
		}
		if req[0] == "warm-reboot" {
			h.WarmReboot()
		} else {
			h.Reboot()
		}
		return "ok"
	case len(req) == 4 && req[0] == "storm":
		return stormAnswer(l, req[1], req[2], req[3])
	case len(req) == 5 && req[0] == "congest":
		return congestAnswer(l, req[1], req[2], req[3], req[4])
	case (len(req) == 3 || len(req) == 4) && req[0] == "fault":
		return faultAnswer(l, req)
	case len(req) == 5 && req[0] == "cable":
		if err := l.Recable(req[1], req[2], req[3], req[4]); err != nil {
			return "error " + err.Error()
		}
		return "ok"
	}
	return fmt.Sprintf("error unknown request %q (want: reboot DEVICE, storm DEVICE INTERFACE on|off, congest DEVICE INTERFACE QUEUE on|off, "+
		"fault DEVICE KIND [DURATION], fault DEVICE clear, or cable DEVICE INTERFACE PEER PEER_INTERFACE)", strings.Join(req, " "))
}

func noDevice(l *lab.Lab, name string) string {
	return fmt.Sprintf("error no device %q in this lab (devices: %s)", name, strings.Join(l.Devices(), ", "))
}

// sendControl sends one request to the lab running in dir.
func sendControl(dir, request string) error {
	path := filepath.Join(dir, ControlSocket)
	c, err := net.DialTimeout("unix", path, controlTimeout) //nolint:gosec // G704: the control socket in the operator's own --dir, not a network address
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return fmt.Errorf("no lab is running in %s (nothing listens on %s): start one with `rocelab up --dir %s`", dir, path, dir)
		}
		return err
	}
	defer func() { _ = c.Close() }()
	_ = c.SetDeadline(time.Now().Add(controlTimeout))
	if _, err := io.WriteString(c, request+"\n"); err != nil {
		return err
	}
	answer, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return fmt.Errorf("no answer from the lab in %s within %s: %w", dir, controlTimeout, err)
	}
	answer = strings.TrimSpace(answer)
	if msg, ok := strings.CutPrefix(answer, "error "); ok {
		return errors.New(msg)
	}
	if answer != "ok" {
		return fmt.Errorf("unexpected answer from the lab: %q", answer)
	}
	return nil
}

func reboot(args []string, stdout, stderr io.Writer) int {
	var warm bool
	dir, pos, code := clientCommand("reboot", args, []string{"DEVICE"}, stderr, func(fs *flag.FlagSet) {
		fs.BoolVar(&warm, "warm", false, "a warm reboot: the NIC firmware is not reloaded, so mstconfig changes stay pending")
	})
	if code >= 0 {
		return code
	}
	req, what := "reboot "+pos[0], "rebooted (cold: the NIC firmware's pending configuration loaded)"
	if warm {
		req, what = "warm-reboot "+pos[0], "rebooted warm (the NIC firmware's pending configuration still pending)"
	}
	if err := sendControl(dir, req); err != nil {
		fmt.Fprintln(stderr, "rocelab reboot:", err)
		return 1
	}
	fmt.Fprintf(stdout, "rocelab: %s %s: its NIC settings are back to the driver defaults, then its enabled units ran\n", pos[0], what)
	return 0
}

func storm(args []string, stdout, stderr io.Writer) int {
	state, rest := onOff(args)
	dir, pos, code := clientCommand("storm", rest, []string{"DEVICE", "INTERFACE"}, stderr)
	if code >= 0 {
		return code
	}
	if err := sendControl(dir, "storm "+pos[0]+" "+pos[1]+" "+state); err != nil {
		fmt.Fprintln(stderr, "rocelab storm:", err)
		return 1
	}
	if state == "on" {
		fmt.Fprintf(stdout, "rocelab: storm on %s %s: its counters now show pauses, drops and ECN marks; stop it with --off\n", pos[0], pos[1])
	} else {
		fmt.Fprintf(stdout, "rocelab: storm on %s %s is over\n", pos[0], pos[1])
	}
	return 0
}

// onOff takes --off from anywhere in args (flag stops at the first argument): the state asked
// for, "on" or "off", and the other arguments.
func onOff(args []string) (string, []string) {
	state, rest := "on", make([]string, 0, len(args))
	for _, a := range args {
		if a == "--off" || a == "-off" {
			state = "off"
			continue
		}
		rest = append(rest, a)
	}
	return state, rest
}

// stormAnswer starts or stops a PFC storm on a device's port.
func stormAnswer(l *lab.Lab, device, port, state string) string {
	if state != "on" && state != "off" {
		return fmt.Sprintf("error storm state %q (want on or off)", state)
	}
	on := state == "on"
	var err error
	switch h, sw, sonic, cum := l.Host(device), l.Switch(device), l.SONiC(device), l.Cumulus(device); {
	case h != nil:
		err = h.Storm(port, on)
	case sw != nil:
		err = sw.Storm(port, on)
	case sonic != nil:
		err = sonic.Storm(port, on)
	case cum != nil:
		err = cum.Storm(port, on)
	case l.EOS(device) != nil:
		err = l.EOS(device).Storm(port, on)
	case l.NXOS(device) != nil:
		err = l.NXOS(device).Storm(port, on)
	default:
		return noDevice(l, device)
	}
	if err != nil {
		return "error " + err.Error()
	}
	return "ok"
}

// congest starts or stops congestion of an egress queue: rocelab congest --dir DIR [--queue N]
// DEVICE INTERFACE [--off].
func congest(args []string, stdout, stderr io.Writer) int {
	state, rest := onOff(args)
	var queue int
	dir, pos, code := clientCommand("congest", rest, []string{"DEVICE", "INTERFACE"}, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&queue, "queue", 3, "egress queue to congest (SONiC's stock lossless queues are 3 and 4)")
	})
	if code >= 0 {
		return code
	}
	if err := sendControl(dir, fmt.Sprintf("congest %s %s %d %s", pos[0], pos[1], queue, state)); err != nil {
		fmt.Fprintln(stderr, "rocelab congest:", err)
		return 1
	}
	if state == "on" {
		fmt.Fprintf(stdout, "rocelab: queue %d of %s %s is congested: it marks ECN and its watermark is high; stop it with --off\n", queue, pos[0], pos[1])
	} else {
		fmt.Fprintf(stdout, "rocelab: queue %d of %s %s drains again\n", queue, pos[0], pos[1])
	}
	return 0
}

// congestAnswer starts or stops congestion of a queue: DEVICE INTERFACE QUEUE on|off. Only
// sonic switches model queues this way so far.
func congestAnswer(l *lab.Lab, device, port, queueArg, state string) string {
	queue, err := strconv.Atoi(queueArg)
	if err != nil || (state != "on" && state != "off") {
		return fmt.Sprintf("error congest %q (want DEVICE INTERFACE QUEUE on|off)", strings.Join([]string{device, port, queueArg, state}, " "))
	}
	sw := l.SONiC(device)
	if sw == nil {
		if d, ok := l.Inventory().Devices[device]; ok {
			return fmt.Sprintf("error %s is a %s device; rocelab congest drives sonic switches' queues only", device, d.Platform)
		}
		return noDevice(l, device)
	}
	if err := sw.Congest(port, queue, state == "on"); err != nil {
		return "error " + err.Error()
	}
	return "ok"
}

func cableCommand(args []string, stdout, stderr io.Writer) int {
	dir, pos, code := clientCommand("cable", args, []string{"DEVICE", "INTERFACE", "PEER", "PEER_INTERFACE"}, stderr)
	if code >= 0 {
		return code
	}
	if err := sendControl(dir, "cable "+strings.Join(pos, " ")); err != nil {
		fmt.Fprintln(stderr, "rocelab cable:", err)
		return 1
	}
	fmt.Fprintf(stdout, "rocelab: %s %s is cabled to %s %s; their LLDP neighbours and inventory.json's links say so\n", pos[0], pos[1], pos[2], pos[3])
	return 0
}
