package sh

// flock (util-linux) as a command: flock [-x] [-n | -w SECONDS] [-E CODE] FILE COMMAND [ARG...]
// runs COMMAND holding an exclusive lock on FILE, so two writers on one host take turns. The
// lock lives in the host (one per absolute path), not in the emulated tree: a real flock
// creates the file, which nothing here reads.

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// flockOpts are util-linux 2.38.1's flock options (sys-utils/flock.c getopt_long "+sexnoFuw:E:hV?"
// and long_options, as Debian 12's flock takes them); the lab emulates -x/-e, -n, -w and -E.
var flockOpts = optSpec{real: "+sexnoFuw:E:hV?", emulated: "xenwE", longs: []longOpt{
	{"shared", noArg, 's'}, {"exclusive", noArg, 'x'}, {"unlock", noArg, 'u'},
	{"nonblocking", noArg, 'n'}, {"nb", noArg, 'n'}, {"timeout", reqArg, 'w'}, {"wait", reqArg, 'w'},
	{"conflict-exit-code", reqArg, 'E'}, {"close", noArg, 'o'}, {"no-fork", noArg, 'F'},
	{"verbose", noArg, 0}, {"help", noArg, 'h'}, {"version", noArg, 'V'},
}}

// flock's exit statuses (sysexits.h, as flock.c uses them).
const (
	exUsage       = 64 // EX_USAGE: a bad command line
	exDataErr     = 65 // EX_DATAERR: the lock call failed (a file descriptor that is not open)
	exUnavailable = 69 // EX_UNAVAILABLE: the command could not be executed
	exOSErr       = 71 // EX_OSERR: the timer could not be set up
)

const flockTry = "Try 'flock --help' for more information.\n"

// Locks are the flock locks of one host, by absolute path.
type Locks struct {
	mu    sync.Mutex
	locks map[string]chan struct{}
}

func (l *Locks) Get(p string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.locks == nil {
		l.locks = map[string]chan struct{}{}
	}
	c, ok := l.locks[p]
	if !ok {
		c = make(chan struct{}, 1)
		l.locks[p] = c
	}
	return c
}

// cmdFlock is util-linux flock's main: its messages (util-linux's warnx/errx: "flock: ..."), in
// the order it checks, and its exit statuses. The lock file is neither created nor checked
// (assumed: the lab keeps the lock in the host, not in the tree).
func cmdFlock(e *Env, args []string) int {
	if len(args) < 2 {
		fmt.Fprint(e.Stderr, "flock: not enough arguments\n"+flockTry)
		return exUsage
	}
	opts, ops, bad := flockOpts.parse(args[1:])
	if bad != nil {
		bad.report(e.Stderr, args[0], flockTry)
		return exUsage
	}
	wait, conflict := time.Duration(-1), 1 // block; the conflict exit code is 1 (flock(1))
	timerFails := false
	for _, o := range opts {
		switch o.c {
		case 'n':
			wait = 0
		case 'w':
			secs, why, ok := strtold(o.arg)
			if !ok {
				fmt.Fprintf(e.Stderr, "flock: invalid timeout value: '%s'%s\n", o.arg, why)
				return exUsage
			}
			// strtotimeval_or_err: whole seconds and microseconds, both truncated; both 0 is -n,
			// a negative part makes timer_settime fail.
			sec := math.Trunc(secs)
			usec := math.Trunc((secs - sec) * 1e6)
			switch {
			case sec < 0 || usec < 0:
				timerFails = true
			case sec == 0 && usec == 0:
				wait = 0
			default:
				wait = time.Duration(sec)*time.Second + time.Duration(usec)*time.Microsecond
			}
		case 'E':
			code, why, ok := strtos32(o.arg)
			if !ok {
				fmt.Fprintf(e.Stderr, "flock: invalid exit code: '%s'%s\n", o.arg, why)
				return exUsage
			}
			if code < 0 || code > 255 {
				fmt.Fprint(e.Stderr, "flock: exit code out of range (expected 0 to 255)\n")
				return exUsage
			}
			conflict = code
		}
	}
	switch {
	case len(ops) == 0:
		fmt.Fprint(e.Stderr, "flock: requires file descriptor, file or directory\n")
		return exUsage
	case len(ops) == 1: // a file descriptor number
		fd, why, ok := strtos32(ops[0])
		switch {
		case !ok:
			fmt.Fprintf(e.Stderr, "flock: bad file descriptor: '%s'%s\n", ops[0], why)
			return exUsage
		case fd > 2: // the lab's shell opens no descriptor above 2, so flock(2) fails with EBADF
			fmt.Fprintf(e.Stderr, "flock: %d: Bad file descriptor\n", fd)
			return exDataErr
		}
		fmt.Fprintf(e.Stderr, "lab: flock %s is not emulated\n", ops[0])
		return exUsage
	case ops[1] == "-c" || ops[1] == "--command":
		fmt.Fprintf(e.Stderr, "lab: flock %s is not emulated\n", ops[1])
		return exUsage
	}
	if timerFails {
		fmt.Fprint(e.Stderr, "flock: cannot set up timer: Invalid argument\n")
		return exOSErr
	}
	file, cmdArgs := e.Sh.abs(ops[0]), ops[1:]
	lock := e.Sh.sys.Locks.Get(file)
	switch {
	case wait < 0:
		lock <- struct{}{}
	case wait == 0:
		select {
		case lock <- struct{}{}:
		default:
			return conflict
		}
	default:
		select {
		case lock <- struct{}{}:
		case <-time.After(wait):
			return conflict
		}
	}
	defer func() { <-lock }()
	c := e.Sh.sys.LookupCommand(cmdArgs[0])
	if c == nil { // execvp fails in the child flock forks once it holds the lock
		fmt.Fprintf(e.Stderr, "flock: failed to execute %s: No such file or directory\n", cmdArgs[0])
		return exUnavailable
	}
	inner := *e
	inner.builtin = false
	inner.Sh = NewShell(e.Sh.sys, e.Root, e.Sh.name, e.Sh.cwd, e.Stdin, e.Stdout, e.Stderr)
	return c(&inner, cmdArgs)
}

// cSpace is C's isspace, which strtold and strtoimax skip before a number.
const cSpace = " \t\n\v\f\r"

// strtold is util-linux's strtold_or_err check: the whole string a C floating-point number
// (decimal, hexadecimal, inf or nan, after blanks). When it is not, bad is what follows the
// quoted value in the message: "", or ": " and strerror(ERANGE) for a value out of range.
func strtold(s string) (v float64, bad string, ok bool) {
	t := strings.TrimLeft(s, cSpace)
	if hex := strings.TrimLeft(t, "+-"); len(hex) > 2 && strings.EqualFold(hex[:2], "0x") && !strings.ContainsAny(hex, "pP") {
		t += "p0" // Go wants a binary exponent in a hexadecimal float; C does not
	}
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case t == "" || strings.Contains(t, "_"): // Go's digit separators are not C's
		return 0, "", false
	case errors.Is(err, strconv.ErrRange):
		return 0, ": " + ERANGE.Error(), false
	case err != nil:
		return 0, "", false
	}
	return v, "", true
}

// cInteger is what strtoimax reads in base 10 after the blanks.
var cInteger = regexp.MustCompile(`^[+-]?[0-9]+$`)

// strtos32 is util-linux's strtos32_or_err check (strtoimax in base 10, the whole string, then
// the int32 range), with bad as strtold's.
func strtos32(s string) (v int, bad string, ok bool) {
	t := strings.TrimLeft(s, cSpace)
	if !cInteger.MatchString(t) {
		return 0, "", false
	}
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil {
		return 0, ": " + ERANGE.Error(), false
	}
	return int(n), "", true
}
