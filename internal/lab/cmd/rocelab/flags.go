package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// newFlags is the flag set of subcommand name: its errors and its usage (rocelab's, then the
// subcommand's flags) go to stderr.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rocelab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usageText, "\nflags of "+name+":\n"); fs.PrintDefaults() }
	return fs
}

// parseFlags parses args into fs; done is true, with the exit status, after -h (0) or a bad
// flag (2, flag has said why).
func parseFlags(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, true
		}
		return 2, true
	}
	return 0, false
}

// dirOnly checks the operands of up and down: none, and --dir given; false (exit 2) when not.
func dirOnly(fs *flag.FlagSet, dir string, stderr io.Writer) bool {
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "%s: unexpected arguments %q\n", fs.Name(), fs.Args())
		return false
	case dir == "":
		fmt.Fprintf(stderr, "%s: --dir is required\n", fs.Name())
		return false
	}
	return true
}
