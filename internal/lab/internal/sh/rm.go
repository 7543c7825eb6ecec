package sh

// rm (GNU coreutils 9.1) for files and symbolic links: [-fv] FILE... Its
// messages are coreutils' (checked against the real rm of Debian 12; mlx5-host.md,
// "Shell and utilities"): "rm: cannot remove 'F': REASON", "removed 'F'" (-v),
// "rm: missing operand" and the usage hint.

import "fmt"

func cmdRm(e *Env, args []string) int {
	opts, files, ok := coreutilsArgs(e, args, rmOpts)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		if opts['f'] {
			return 0
		}
		fmt.Fprint(e.Stderr, "rm: missing operand\nTry 'rm --help' for more information.\n")
		return 1
	}
	status := 0
	for _, f := range files {
		err := e.Sh.sys.FS.Remove(e.Sh.abs(f), e.Root)
		switch {
		case err == nil:
			if opts['v'] {
				fmt.Fprintf(e.Stdout, "removed '%s'\n", f)
			}
		case err == ENOENT && opts['f']:
		default:
			fmt.Fprintf(e.Stderr, "rm: cannot remove '%s': %s\n", f, err)
			status = 1
		}
	}
	return status
}
