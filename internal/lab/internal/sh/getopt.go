package sh

// glibc's getopt_long (posix/getopt.c, glibc 2.36 as Debian 12 ships it), which coreutils, GNU
// grep, util-linux and sudo parse their command lines with: short options clustered or with an
// attached argument, "--", long options by unambiguous prefix with "=ARG" or the next word, and
// its four messages. The real programs' option letters and long names are listed so that an
// option the real program has but the lab does not emulate is refused as such ("lab: PROG -X is
// not emulated"), not reported as unknown (mlx5-host.md, "Shell and utilities").

import (
	"fmt"
	"io"
	"path"
	"strings"
)

// longOpt is one entry of a program's getopt_long table, in the table's order (glibc lists an
// ambiguous prefix's candidates in that order).
type longOpt struct {
	name  string
	arg   int  // noArg, reqArg, optArg
	short byte // the short option it stands for; 0 when it has none
}

const (
	noArg = iota
	reqArg
	optArg
)

// optSpec is a program's options as getopt_long sees them.
type optSpec struct {
	// real is the real program's getopt optstring: letters, ':' after one that takes an
	// argument, "::" an optional (attached) one; a leading '+' stops at the first operand
	// (sudo, flock), otherwise operands and options mix (GNU's permutation).
	real string
	// emulated are the letters the lab implements; the others of real are refused as not
	// emulated.
	emulated string
	// longs is the real program's long options; nil when the lab reads none of them (every long
	// option is then refused as not emulated).
	longs []longOpt
}

// opt is one option read from a command line: its letter (or the long name of an option
// without one) and its argument.
type opt struct {
	c    byte
	long string
	arg  string
}

// optError is what getopt said of a command line (msg, without the program name), or the
// option the lab refuses because it does not emulate it (lab: "-X" or "--NAME").
type optError struct {
	msg string
	lab string
}

// text is the line the program prints: glibc's "ARGV0: MSG", or the lab's refusal.
func (o *optError) text(argv0 string) string {
	if o.lab != "" {
		return fmt.Sprintf("lab: %s %s is not emulated", path.Base(argv0), o.lab)
	}
	return argv0 + ": " + o.msg
}

// report prints the line to w and, after a real tool's own error (not the lab's refusal), the
// hint or usage that tool prints next (hint: "" for none).
func (o *optError) report(w io.Writer, argv0, hint string) {
	fmt.Fprintln(w, o.text(argv0))
	if o.lab == "" {
		fmt.Fprint(w, hint)
	}
}

// parse reads args (without the program name) as getopt_long does.
func (s optSpec) parse(args []string) (opts []opt, operands []string, bad *optError) {
	stopAtOperand := strings.HasPrefix(s.real, "+")
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case len(a) < 2 || a[0] != '-':
			if stopAtOperand {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		case strings.HasPrefix(a, "--"):
			o, used, err := s.long(a[2:], args[i+1:])
			if err != nil {
				return nil, nil, err
			}
			opts, i = append(opts, o), i+used
		default:
			for j := 1; j < len(a); j++ {
				c := a[j]
				arity := s.arity(c)
				if arity < 0 {
					return nil, nil, &optError{msg: fmt.Sprintf("invalid option -- '%c'", c)}
				}
				o := opt{c: c}
				switch {
				case arity == reqArg && j+1 < len(a), arity == optArg:
					o.arg, j = a[j+1:], len(a)
				case arity == reqArg && i+1 < len(args):
					i++
					o.arg, j = args[i], len(a)
				case arity == reqArg:
					return nil, nil, &optError{msg: fmt.Sprintf("option requires an argument -- '%c'", c)}
				}
				if !strings.ContainsRune(s.emulated, rune(c)) {
					return nil, nil, &optError{lab: "-" + string(c)}
				}
				opts = append(opts, o)
			}
		}
	}
	return opts, operands, nil
}

// arity is noArg, reqArg or optArg for a letter of real, -1 for any other.
func (s optSpec) arity(c byte) int {
	letters := strings.TrimPrefix(s.real, "+")
	i := strings.IndexByte(letters, c)
	if c == ':' || i < 0 {
		return -1
	}
	switch {
	case strings.HasPrefix(letters[i+1:], "::"):
		return optArg
	case strings.HasPrefix(letters[i+1:], ":"):
		return reqArg
	}
	return noArg
}

// long reads "--NAME[=ARG]" (text after the dashes) and, for a required argument not given
// with "=", the next word; used is how many of rest it took.
func (s optSpec) long(text string, rest []string) (o opt, used int, bad *optError) {
	name, arg, hasArg := strings.Cut(text, "=")
	if s.longs == nil {
		return opt{}, 0, &optError{lab: "--" + name}
	}
	var found *longOpt
	var ambiguous []string
	for i := range s.longs {
		l := &s.longs[i]
		if l.name == name { // an exact match wins over prefixes
			found, ambiguous = l, nil
			break
		}
		if !strings.HasPrefix(l.name, name) {
			continue
		}
		switch {
		case found == nil:
			found = l
		case found.arg != l.arg || found.short != l.short:
			if ambiguous == nil {
				ambiguous = []string{found.name}
			}
			ambiguous = append(ambiguous, l.name)
		}
	}
	switch {
	case found == nil:
		return opt{}, 0, &optError{msg: fmt.Sprintf("unrecognized option '--%s'", text)}
	case ambiguous != nil:
		return opt{}, 0, &optError{msg: fmt.Sprintf("option '--%s' is ambiguous; possibilities: '--%s'", text, strings.Join(ambiguous, "' '--"))}
	case hasArg && found.arg == noArg:
		return opt{}, 0, &optError{msg: fmt.Sprintf("option '--%s' doesn't allow an argument", found.name)}
	case !hasArg && found.arg == reqArg:
		if len(rest) == 0 {
			return opt{}, 0, &optError{msg: fmt.Sprintf("option '--%s' requires an argument", found.name)}
		}
		arg, used = rest[0], 1
	}
	if found.short == 0 || !strings.ContainsRune(s.emulated, rune(found.short)) {
		return opt{}, 0, &optError{lab: "--" + found.name}
	}
	return opt{c: found.short, long: found.name, arg: arg}, used, nil
}
