package sh

// Asynchronous lists ("cmd &") and the kill builtin. As in dash without job control (a
// non-interactive shell), an asynchronous list runs in a subshell with its standard input
// from /dev/null (POSIX 2.9.3.1), $! is its process ID and the shell does not wait for it: it
// outlives the shell, and the SSH session that started it, as a real background process whose
// output is redirected does. Its process shows in pgrep until it ends or is killed.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// firstJobPID is where the lab's process IDs for background jobs start (assumed: any PID
// above the host's fixed daemons).
const firstJobPID = 4000

// Jobs are the background processes of a machine.
type Jobs struct {
	mu   sync.Mutex
	next int
	run  map[int]*job
}

type job struct {
	name string
	kill chan struct{} // closed by kill
	done chan struct{} // closed when the job ends
	once sync.Once
}

// start runs fn in the background as a new process named name and returns its PID; fn gets a
// channel that is closed when the process is killed.
func (j *Jobs) start(name string, fn func(killed <-chan struct{})) int {
	j.mu.Lock()
	if j.run == nil {
		j.run, j.next = map[int]*job{}, firstJobPID
	}
	j.next++
	pid := j.next
	jb := &job{name: name, kill: make(chan struct{}), done: make(chan struct{})}
	j.run[pid] = jb
	j.mu.Unlock()
	go func() {
		defer func() {
			j.mu.Lock()
			delete(j.run, pid)
			j.mu.Unlock()
			close(jb.done)
		}()
		fn(jb.kill)
	}()
	return pid
}

// signal delivers a signal to pid: 0 only checks that it exists; any other ends it (the lab's
// programs neither catch nor ignore signals). It waits for the process to end, as the lab's
// programs end at once when killed.
func (j *Jobs) signal(pid, sig int) bool {
	j.mu.Lock()
	jb, ok := j.run[pid]
	j.mu.Unlock()
	if !ok {
		return false
	}
	if sig != 0 {
		jb.once.Do(func() { close(jb.kill) })
		<-jb.done
	}
	return true
}

// list is the running jobs as pgrep sees them.
func (j *Jobs) list() []Process {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []Process
	for pid, jb := range j.run {
		out = append(out, Process{PID: pid, Name: jb.name})
	}
	return out
}

// Running reports how many background processes run (for tests: nothing left behind).
func (j *Jobs) Running() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.run)
}

// background runs ao asynchronously in a subshell and sets $!.
func (sh *Shell) background(ao *AndOr) {
	sub := sh.subshell()
	sub.stdin = strings.NewReader("") // /dev/null
	name := "sh"
	if s, ok := ao.Pipes[0].Cmds[0].(*Simple); ok && len(s.Words) > 0 {
		if f, err := sh.ExpandFields(s.Words[0]); err == nil && len(f) > 0 {
			name = f[0]
			if i := strings.LastIndexByte(name, '/'); i >= 0 {
				name = name[i+1:]
			}
		}
	}
	fg := *ao
	fg.async = false
	pid := sh.sys.Jobs.start(name, func(killed <-chan struct{}) {
		sub.killed = killed
		sub.andOr(&fg, false)
	})
	sh.Vars["!"] = strconv.Itoa(pid)
	sh.status = 0
}

// Killed is closed when the program's process is killed (nil for a foreground command, which
// the lab never signals): a program that waits watches it and ends.
func (e *Env) Killed() <-chan struct{} { return e.Sh.killed }

// dashSignals are dash 0.5.12's signal names on Linux x86-64 by number (its signal_names, as
// `kill -l` lists them on Debian 12: "16", "32" and "33" have no name); NSIG is 65.
var dashSignals = strings.Fields(`EXIT HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM 16
	CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS 32 33 RTMIN RTMIN+1
	RTMIN+2 RTMIN+3 RTMIN+4 RTMIN+5 RTMIN+6 RTMIN+7 RTMIN+8 RTMIN+9 RTMIN+10 RTMIN+11 RTMIN+12
	RTMIN+13 RTMIN+14 RTMIN+15 RTMAX-14 RTMAX-13 RTMAX-12 RTMAX-11 RTMAX-10 RTMAX-9 RTMAX-8
	RTMAX-7 RTMAX-6 RTMAX-5 RTMAX-4 RTMAX-3 RTMAX-2 RTMAX-1 RTMAX`)

// decodeSignal is dash's decode_signal(s, 1): a number below NSIG, or a name without SIG in any
// case; -1 for anything else.
func decodeSignal(s string) int {
	if s != "" && strings.Trim(s, "0123456789") == "" {
		if n, err := strconv.Atoi(s); err == nil && n < len(dashSignals) {
			return n
		}
		return -1
	}
	for n := 1; n < len(dashSignals); n++ {
		if strings.EqualFold(s, dashSignals[n]) {
			return n
		}
	}
	return -1
}

// dashNumber is dash's number(): a decimal integer from 0 to INT_MAX, blanks around it allowed
// (strtoimax, then atomax's checks); ok is false where dash says "Illegal number".
func dashNumber(s string) (int, bool) {
	t := strings.TrimRight(strings.TrimLeft(s, cSpace), cSpace)
	if !cInteger.MatchString(t) {
		return 0, false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt32 {
		return 0, false
	}
	return int(n), true
}

// cmdKill is dash 0.5.12's kill builtin (jobs.c killcmd, nextopt "ls:" when the first argument is
// not -SIGNAL): `kill [-s SIG | -SIG | -N] PID...` and `kill -l [N]`, SIGTERM by default, 0 to
// test that the process exists. A PID that names no process gets strerror(ESRCH) through
// sh_warnx("%s\n"), hence the empty line after it, and status 1; the other errors are dash's
// sh_error, status 2. Job specifications and process groups are not emulated, nor the signals
// that stop a process; the ones it ignores by default change nothing.
func cmdKill(e *Env, args []string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.Stderr, "%s: %d: kill: "+format+"\n", append([]any{e.Sh.name, e.Line}, a...)...)
		return 2
	}
	const usage = "Usage: kill [-s sigspec | -signum | -sigspec] [pid | job]... or\nkill -l [exitstatus]"
	argv := args[1:]
	if len(argv) == 0 {
		return fail(usage)
	}
	sig, list := -1, false
	if strings.HasPrefix(argv[0], "-") {
		if sig = decodeSignal(argv[0][1:]); sig >= 0 {
			argv = argv[1:]
		} else {
			i := 0
		options:
			for i < len(argv) && len(argv[i]) > 1 && argv[i][0] == '-' {
				a := argv[i]
				i++
				if a == "--" {
					break
				}
				for j := 1; j < len(a); j++ {
					switch a[j] {
					case 'l':
						list = true
					case 's':
						arg := a[j+1:]
						if arg == "" {
							if i >= len(argv) {
								return fail("No arg for -s option")
							}
							arg, i = argv[i], i+1
						}
						if sig = decodeSignal(arg); sig < 0 {
							return fail("invalid signal number or name: %s", arg)
						}
						continue options
					default:
						return fail("Illegal option -%c", a[j])
					}
				}
			}
			argv = argv[i:]
		}
	}
	if !list && sig < 0 {
		sig = 15
	}
	if (sig < 0 || len(argv) == 0) != list {
		return fail(usage)
	}
	if list {
		if len(argv) == 0 {
			fmt.Fprintln(e.Stdout, "0")
			for _, name := range dashSignals[1:] {
				fmt.Fprintln(e.Stdout, name)
			}
			return 0
		}
		n, ok := dashNumber(argv[0])
		if !ok {
			return fail("Illegal number: %s", argv[0])
		}
		if n > 128 {
			n -= 128
		}
		if n <= 0 || n >= len(dashSignals) {
			return fail("invalid signal number or exit status: %s", argv[0])
		}
		fmt.Fprintln(e.Stdout, dashSignals[n])
		return 0
	}
	switch dashSignals[sig] {
	case "STOP", "TSTP", "TTIN", "TTOU":
		fmt.Fprintf(e.Stderr, "lab: kill -%s is not emulated\n", dashSignals[sig])
		return 2
	case "CHLD", "CONT", "URG", "WINCH": // ignored by default, or a no-op on a running process
		sig = 0
	}
	status := 0
	for _, a := range argv {
		if strings.HasPrefix(a, "%") {
			fmt.Fprintf(e.Stderr, "lab: kill %s is not emulated (job specifications)\n", a)
			return 2
		}
		pid, ok := dashNumber(strings.TrimPrefix(a, "-"))
		if !ok {
			return fail("Illegal number: %s", strings.TrimPrefix(a, "-"))
		}
		if pid == 0 || strings.HasPrefix(a, "-") {
			fmt.Fprintf(e.Stderr, "lab: kill %s is not emulated (process groups)\n", a)
			return 2
		}
		if !e.Sh.sys.Jobs.signal(pid, sig) {
			fmt.Fprintf(e.Stderr, "%s: %d: kill: No such process\n\n", e.Sh.name, e.Line)
			status = 1
		}
	}
	return status
}
