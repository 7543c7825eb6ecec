package sh

// Asynchronous lists ("cmd &") and the kill builtin. As in dash without job control (a
// non-interactive shell), an asynchronous list runs in a subshell with its standard input
// from /dev/null (POSIX 2.9.3.1), $! is its process ID and the shell does not wait for it: it
// outlives the shell, and the SSH session that started it, as a real background process whose
// output is redirected does. Its process shows in pgrep until it ends or is killed.

import (
	"fmt"
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

// signals are the names kill takes, with their numbers on Linux x86-64.
var signals = map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "TERM": 15}

// cmdKill is dash's kill builtin for `kill [-s SIG | -SIG | -N] PID...`: SIGTERM by default,
// 0 to test that the process exists. Status 1 when a PID names no process. Its message then
// is strerror(ESRCH) after dash's prefix (the prefix as dash's other builtin warnings print
// it: assumed).
func cmdKill(e *Env, args []string) int {
	args = args[1:]
	sig := 15
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		spec := args[0][1:]
		args = args[1:]
		if spec == "s" && len(args) > 0 {
			spec, args = args[0], args[1:]
		}
		n, err := strconv.Atoi(spec)
		if err != nil {
			var ok bool
			if n, ok = signals[strings.TrimPrefix(strings.ToUpper(spec), "SIG")]; !ok {
				fmt.Fprintf(e.Stderr, "%s: %d: kill: invalid signal number or name: %s\n", e.Sh.name, e.Line, spec)
				return 2
			}
		}
		sig = n
	}
	if len(args) == 0 {
		fmt.Fprintf(e.Stderr, "%s: %d: kill: Usage: kill [-s sigspec | -signum | -sigspec] [pid | job]... or\nkill -l [exitstatus]\n", e.Sh.name, e.Line)
		return 2
	}
	status := 0
	for _, a := range args {
		pid, err := strconv.Atoi(a)
		if err != nil {
			fmt.Fprintf(e.Stderr, "%s: %d: kill: Illegal number: %s\n", e.Sh.name, e.Line, a)
			return 2
		}
		if !e.Sh.sys.Jobs.signal(pid, sig) {
			fmt.Fprintf(e.Stderr, "%s: %d: kill: No such process\n", e.Sh.name, e.Line)
			status = 1
		}
	}
	return status
}
