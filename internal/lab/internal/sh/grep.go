package sh

// GNU grep and procps pgrep, for the options a QoS script uses.

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strings"
)

// bre turns a POSIX basic regular expression into RE2 syntax.
func bre(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p) && strings.IndexByte("(){}|+?", p[i+1]) >= 0:
			i++
			b.WriteByte(p[i])
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteByte('\\')
			b.WriteByte(p[i])
		case strings.IndexByte("(){}|+?", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// patternArgs reads the options and operands of pgrep, whose first operand (the
// pattern) is required: an option not in allowed prints badOption (a format of the option
// letter), no operand prints noPattern, and either way the command exits 2 (!ok).
func patternArgs(e *Env, args []string, allowed, badOption, noPattern string) (flags map[byte]bool, ops []string, ok bool) {
	flags, ops, bad := options(args[1:], allowed)
	switch {
	case bad != 0:
		fmt.Fprintf(e.Stderr, badOption, bad)
	case len(ops) == 0:
		fmt.Fprint(e.Stderr, noPattern)
	default:
		return flags, ops, true
	}
	return nil, nil, false
}

// grepOpts are GNU grep 3.8's option letters (every letter Debian 12's grep does not call an
// invalid option; the digits are -NUM) and those the lab emulates; its long options are not
// emulated.
var grepOpts = optSpec{real: "0123456789A:B:C:D:EFGHILPRTUVX:Zabcd:e:f:hilm:noqrsuvwxyz", emulated: "HhsqvicE"}

// grepUsage is what grep prints after a bad command line and without a pattern, exit 2.
const grepUsage = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"

func cmdGrep(e *Env, args []string) int {
	opts, ops, bad := grepOpts.parse(args[1:])
	if bad != nil {
		bad.report(e.Stderr, args[0], grepUsage)
		return 2
	}
	if len(ops) == 0 {
		fmt.Fprint(e.Stderr, grepUsage)
		return 2
	}
	flags := map[byte]bool{}
	for _, o := range opts {
		flags[o.c] = true
	}
	pat := ops[0]
	if !flags['E'] {
		pat = bre(pat)
	}
	if flags['i'] {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		fmt.Fprintf(e.Stderr, "grep: %s\n", regerror(err))
		return 2
	}
	files := ops[1:]
	withName := (flags['H'] || len(files) > 1) && !flags['h']
	if len(files) == 0 {
		files = []string{"-"}
	}
	matched, failed := false, false
	for _, f := range files {
		var data string
		name := f
		if f == "-" {
			b, _ := io.ReadAll(e.Stdin)
			data, name = string(b), "(standard input)"
		} else if data, err = e.Sh.sys.FS.ReadFile(e.Sh.abs(f), e.Root); err != nil {
			if !flags['s'] {
				fmt.Fprintf(e.Stderr, "grep: %s: %s\n", f, err)
			}
			failed = true
			continue
		}
		count := 0
		for _, line := range strings.SplitAfter(data, "\n") {
			if line == "" {
				continue
			}
			line = strings.TrimSuffix(line, "\n")
			if re.MatchString(line) == flags['v'] {
				continue
			}
			matched = true
			count++
			if flags['q'] || flags['c'] {
				continue
			}
			if withName {
				fmt.Fprintf(e.Stdout, "%s:", name)
			}
			fmt.Fprintln(e.Stdout, line)
		}
		if flags['c'] && !flags['q'] {
			if withName {
				fmt.Fprintf(e.Stdout, "%s:", name)
			}
			fmt.Fprintln(e.Stdout, count)
		}
	}
	switch {
	case failed && (!flags['q'] || !matched):
		return 2
	case matched:
		return 0
	}
	return 1
}

// pgrepUsage is procps-ng 4.0.2's pgrep usage (Debian bookworm's procps), which it prints
// after an invalid option, exit 2.
const pgrepUsage = `
Usage:
 pgrep [options] <pattern>

Options:
 -d, --delimiter <string>  specify output delimiter
 -l, --list-name           list PID and process name
 -a, --list-full           list PID and full command line
 -v, --inverse             negates the matching
 -w, --lightweight         list all TID
 -c, --count               count of matching processes
 -f, --full                use full process name to match
 -g, --pgroup <PGID,...>   match listed process group IDs
 -G, --group <GID,...>     match real group IDs
 -i, --ignore-case         match case insensitively
 -n, --newest              select most recently started
 -o, --oldest              select least recently started
 -O, --older <seconds>     select where older than seconds
 -P, --parent <PPID,...>   match only child processes of the given parent
 -s, --session <SID,...>   match session IDs
 -t, --terminal <tty,...>  match by controlling terminal
 -u, --euid <ID,...>       match by effective IDs
 -U, --uid <ID,...>        match by real IDs
 -x, --exact               match exactly with the command name
 -F, --pidfile <file>      read PIDs from file
 -L, --logpidfile          fail if PID file is not locked
 -r, --runstates <state>   match runstates [D,S,Z,...]
 -A, --ignore-ancestors    exclude our ancestors from results
 --cgroup <grp,...>        match by cgroup v2 names
 --ns <PID>                match the processes that belong to the same
                           namespace as <pid>
 --nslist <ns,...>         list which namespaces will be considered for
                           the --ns option.
                           Available namespaces: ipc, mnt, net, pid, user, uts

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see pgrep(1).
`

// regerror is what glibc's regerror says (GNU grep and pgrep print it) of a pattern Go's regexp
// refused, by the kind of error; "Invalid regular expression", glibc's generic text, is what
// both say of "[" and stands for the kinds not listed (mlx5-host.md, "Shell and utilities").
func regerror(err error) string {
	var re *syntax.Error
	if !errors.As(err, &re) {
		return "Invalid regular expression"
	}
	switch {
	case re.Code == syntax.ErrMissingParen:
		return `Unmatched ( or \(`
	case re.Code == syntax.ErrUnexpectedParen:
		return `Unmatched ) or \)`
	case re.Code == syntax.ErrTrailingBackslash:
		return "Trailing backslash"
	case re.Code == syntax.ErrInvalidCharRange && strings.HasPrefix(re.Expr, "[:"):
		return "Invalid character class name"
	case re.Code == syntax.ErrInvalidCharRange && !strings.HasPrefix(re.Expr, `\`):
		return "Invalid range end"
	case re.Code == syntax.ErrInvalidRepeatSize:
		return `Invalid content of \{\}`
	case re.Code == syntax.ErrMissingRepeatArgument:
		return "Invalid preceding regular expression"
	}
	return "Invalid regular expression"
}

// cmdPgrep matches the host's process names (an extended regex, whole
// name with -x).
func cmdPgrep(e *Env, args []string) int {
	flags, ops, ok := patternArgs(e, args, "xl", "pgrep: invalid option -- '%c'\n"+pgrepUsage,
		"pgrep: no matching criteria specified\nTry `pgrep --help' for more information.\n")
	if !ok {
		return 2
	}
	pat := ops[0]
	if flags['x'] {
		pat = "^(" + pat + ")$"
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		fmt.Fprintf(e.Stderr, "pgrep: regex error: %s\n", regerror(err))
		return 2
	}
	status := 1
	for _, p := range append(e.Sh.sys.Processes(), e.Sh.sys.Jobs.list()...) {
		if re.MatchString(p.Name) {
			status = 0
			if flags['l'] {
				fmt.Fprintf(e.Stdout, "%d %s\n", p.PID, p.Name)
			} else {
				fmt.Fprintln(e.Stdout, p.PID)
			}
		}
	}
	return status
}
