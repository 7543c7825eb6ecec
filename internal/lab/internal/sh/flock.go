package sh

// flock (util-linux) as a command: flock [-x] [-n | -w SECONDS] [-E CODE] FILE COMMAND [ARG...]
// runs COMMAND holding an exclusive lock on FILE, so two writers on one host take turns. The
// lock lives in the host (one per absolute path), not in the emulated tree: a real flock
// creates the file, which nothing here reads.

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

const flockUsage = "Usage:\n flock [options] <file>|<directory> <command> [<argument>...]\n"

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

func cmdFlock(e *Env, args []string) int {
	wait, conflict := time.Duration(-1), 1 // block; util-linux's conflict exit code is 1
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && len(args[i]) > 1; i++ {
		a := args[i]
		switch a {
		case "-x", "-e", "--exclusive":
		case "-n", "--nb", "--nonblock":
			wait = 0
		case "-w", "--timeout", "-E", "--conflict-exit-code":
			if i+1 >= len(args) {
				fmt.Fprintf(e.Stderr, "flock: option requires an argument -- '%s'\nTry 'flock --help' for more information.\n", strings.TrimLeft(a, "-")[:1])
				return 64
			}
			i++
			if a == "-w" || a == "--timeout" {
				secs, err := strconv.ParseFloat(args[i], 64)
				if err != nil || secs < 0 {
					fmt.Fprintf(e.Stderr, "flock: invalid timeout value: '%s'\n", args[i])
					return 64
				}
				wait = time.Duration(secs * float64(time.Second))
			} else {
				code, err := strconv.Atoi(args[i])
				if err != nil || code < 0 || code > 255 {
					fmt.Fprintf(e.Stderr, "flock: invalid exit code: '%s'\n", args[i])
					return 64
				}
				conflict = code
			}
		default:
			fmt.Fprintf(e.Stderr, "flock: unrecognized option '%s'\nTry 'flock --help' for more information.\n", a)
			return 64
		}
	}
	if i+1 >= len(args) {
		fmt.Fprint(e.Stderr, "flock: bad usage\n"+flockUsage)
		return 64
	}
	file, cmdArgs := e.Sh.abs(args[i]), args[i+1:]
	c := e.Sh.sys.LookupCommand(cmdArgs[0])
	if c == nil {
		fmt.Fprintf(e.Stderr, "flock: failed to execute %s: No such file or directory\n", cmdArgs[0])
		return 127
	}
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
	inner := *e
	inner.builtin = false
	inner.Sh = NewShell(e.Sh.sys, e.Root, e.Sh.name, e.Sh.cwd, e.Stdin, e.Stdout, e.Stderr)
	return c(&inner, cmdArgs)
}
