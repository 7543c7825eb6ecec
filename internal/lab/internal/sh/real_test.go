package sh

// The lab's shell and utilities against the real ones: every case holds what the real tool
// printed on Debian 12 (dash 0.5.12-2, sudo 1.9.13p3-1+deb12u4, util-linux 2.38.1-5+deb12u3,
// grep 3.8-5, coreutils 9.1-1; mlx5-host.md, "Shell and utilities"), and TestUtilitiesMatchReal
// runs each again through /bin/sh when the machine has that package at that version, in a
// directory laid out as the lab's is here.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

type realCase struct {
	name, script   string
	stdout, stderr string
	status         int
	pkg            string // the Debian package whose tool the case runs; "" for a case the machine cannot replay
}

// realVersions are the package versions the cases were recorded with.
var realVersions = map[string]string{
	"dash": "0.5.12-2", "sudo": "1.9.13p3-1+deb12u4", "util-linux": "2.38.1-5+deb12u3",
	"grep": "3.8-5", "coreutils": "9.1-1",
}

const sudoUsageText = sudoUsage

var realCases = []realCase{
	// sudo (as root, which needs no password; the user's cases are below)
	{"sudo -u without a user", "sudo -n -u", "", "sudo: option requires an argument -- 'u'\n" + sudoUsageText, 1, "sudo"},
	{"sudo --user without a user", "sudo --user", "", "sudo: option '--user' requires an argument\n" + sudoUsageText, 1, "sudo"},
	{"sudo unknown user", "sudo -n -u nosuchuser true", "", "sudo: unknown user nosuchuser\nsudo: error initializing audit plugin sudoers_audit\n", 1, "sudo"},
	{"sudo invalid option", "sudo -nz true", "", "sudo: invalid option -- 'z'\n" + sudoUsageText, 1, "sudo"},
	{"sudo unrecognized option", "sudo --foo true", "", "sudo: unrecognized option '--foo'\n" + sudoUsageText, 1, "sudo"},
	{"sudo ambiguous option", "sudo --s true", "", "sudo: option '--s' is ambiguous; possibilities: '--set-home' '--shell' '--stdin'\n" + sudoUsageText, 1, "sudo"},
	{"sudo without a command", "sudo -n", "", sudoUsageText, 1, "sudo"},
	{"sudo second -u", "sudo -u root -u root true", "", sudoUsageText, 1, "sudo"},
	{"sudo command not found", "sudo -n nosuchcmd; sudo -n -- nosuchcmd", "", "sudo: nosuchcmd: command not found\nsudo: nosuchcmd: command not found\n", 1, "sudo"},
	{"sudo options", "sudo -nuroot -E --preserve-env -H --non-interactive echo ok; sudo --user=root -n echo ok", "ok\nok\n", "", 0, "sudo"},

	// sh (dash)
	{"sh -c without a script", "sh -c; echo $?; sh -e -c", "2\n", "sh: 0: -c requires an argument\nsh: 0: -c requires an argument\n", 2, "dash"},
	{"sh missing file", "sh nofile; sh /nodir/x", "", "sh: 0: cannot open nofile: No such file\nsh: 0: cannot open /nodir/x: No such file\n", 2, "dash"},
	{"sh directory", "sh g", "", "", 0, "dash"},
	{"sh illegal option", "sh -z", "", "sh: 0: Illegal option -z\n", 2, "dash"},

	// flock (util-linux)
	{"flock no arguments", "flock", "", "flock: not enough arguments\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock -w without a value", "flock -w", "", "flock: option requires an argument -- 'w'\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock -E without a value", "flock -E", "", "flock: option requires an argument -- 'E'\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock --timeout without a value", "flock --timeout", "", "flock: option '--timeout' requires an argument\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock --wait prefix", "flock --w", "", "flock: option '--wait' requires an argument\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock bad timeouts", "flock -w x l true; flock -w '' l true; flock -w 3x l true; echo $?", "64\n",
		"flock: invalid timeout value: 'x'\nflock: invalid timeout value: ''\nflock: invalid timeout value: '3x'\n", 0, "util-linux"},
	{"flock timeouts C reads", "flock -w ' 3' l true && flock -w 1e1 l true && flock -w 0 l true && flock -w 0x1 l true && flock -w5 l true && echo ok", "ok\n", "", 0, "util-linux"},
	{"flock negative timeout", "flock -w -1 l true", "", "flock: cannot set up timer: Invalid argument\n", 71, "util-linux"},
	{"flock bad exit codes", "flock -E x l true; flock -E 0x10 l true; flock -E 99999999999 l true; flock -E 256 l true; flock -E -1 l true; echo $?", "64\n",
		"flock: invalid exit code: 'x'\nflock: invalid exit code: '0x10'\nflock: invalid exit code: '99999999999': Numerical result out of range\n" +
			"flock: exit code out of range (expected 0 to 255)\nflock: exit code out of range (expected 0 to 255)\n", 0, "util-linux"},
	{"flock unrecognized option", "flock --foo l true", "", "flock: unrecognized option '--foo'\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock ambiguous option", "flock --no l true", "", "flock: option '--no' is ambiguous; possibilities: '--nonblocking' '--no-fork'\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock invalid option", "flock -z l true", "", "flock: invalid option -- 'z'\nTry 'flock --help' for more information.\n", 64, "util-linux"},
	{"flock without a file", "flock -n", "", "flock: requires file descriptor, file or directory\n", 64, "util-linux"},
	{"flock without a command", "flock l", "", "flock: bad file descriptor: 'l'\n", 64, "util-linux"},
	{"flock descriptor not open", "flock -n 9", "", "flock: 9: Bad file descriptor\n", 65, "util-linux"},
	{"flock command not found", "flock l nosuchcmd", "", "flock: failed to execute nosuchcmd: No such file or directory\n", 69, "util-linux"},
	{"flock options", "flock -x -n --timeout=2 --conflict-exit-code=3 --nonblock --nb -- l echo ok", "ok\n", "", 0, "util-linux"},

	// grep
	{"grep usage", "grep", "", grepUsage, 2, "grep"},
	{"grep invalid option", "grep -Hj x", "", "grep: invalid option -- 'j'\n" + grepUsage, 2, "grep"},
	{"grep unrecognized option", "grep --foo x", "", "lab: grep --foo is not emulated\n", 2, ""},
	{"grep -e without a pattern", "grep -e", "", "grep: option requires an argument -- 'e'\n" + grepUsage, 2, "grep"},
	{"grep file errors", "grep a g/f g/nofile g; grep -s a g/nofile; echo $?", "g/f:a\n2\n", "grep: g/nofile: No such file or directory\ngrep: g: Is a directory\n", 0, "grep"},
	{"grep -q matched despite an error", "grep -q a g/nofile g/f", "", "grep: g/nofile: No such file or directory\n", 0, "grep"},
	{"grep options after operands", "grep a g/f -c", "1\n", "", 0, "grep"},
	{"grep bad patterns", `grep '\(' g/f; grep -E '(' g/f; grep '\)' g/f; grep '[' g/f; grep '[[:foo:]]' g/f; grep '[z-a]' g/f; grep 'x\{2,1\}' g/f; grep '\' g/f; echo $?`, "2\n",
		"grep: Unmatched ( or \\(\ngrep: Unmatched ( or \\(\ngrep: Unmatched ) or \\)\ngrep: Invalid regular expression\ngrep: Invalid character class name\n" +
			"grep: Invalid range end\ngrep: Invalid content of \\{\\}\ngrep: Trailing backslash\n", 0, "grep"},

	// coreutils' getopt messages
	{"cat invalid option", "cat -z", "", "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n", 1, "coreutils"},
	{"tee invalid option", "tee -z </dev/null", "", "tee: invalid option -- 'z'\nTry 'tee --help' for more information.\n", 1, "coreutils"},
	{"ls invalid option", "ls -z", "", "ls: invalid option -- 'z'\nTry 'ls --help' for more information.\n", 2, "coreutils"},
	{"rm invalid option", "rm -z x", "", "rm: invalid option -- 'z'\nTry 'rm --help' for more information.\n", 1, "coreutils"},
	{"ls by path", "/usr/bin/ls -z", "", "/usr/bin/ls: invalid option -- 'z'\nTry '/usr/bin/ls --help' for more information.\n", 2, "coreutils"},
	{"ls not emulated", "ls -l", "", "lab: ls -l is not emulated\n", 2, ""},
	{"ls long option", "ls --all", "", "lab: ls --all is not emulated\n", 2, ""},

	// ls, rm, cd
	{"ls cannot access", "ls g/nofile g/f", "g/f\n", "ls: cannot access 'g/nofile': No such file or directory\n", 2, "coreutils"},
	{"ls directories", "ls g g/f; ls -d g g/f; ls g -d", "g/f\n\ng:\nf\ng\ng/f\ng\n", "", 0, "coreutils"},
	{"rm -v", "echo x > r; rm -v r; rm -v ./nofile; rm -fv nofile", "removed 'r'\n", "rm: cannot remove './nofile': No such file or directory\n", 0, "coreutils"},
	{"rm a directory", "rm g", "", "rm: cannot remove 'g': Is a directory\n", 1, "coreutils"},
	{"cd illegal option", "cd -z /tmp; cd -Lz /tmp; cd --foo", "", "sh: 1: cd: Illegal option -z\nsh: 1: cd: Illegal option -z\nsh: 1: cd: Illegal option --\n", 2, "dash"},
	{"cd -LP", "cd -LP g; pwd", "/home/roce/g\n", "", 0, "dash"},

	// as the login user, where root may read anything: recorded as a user without sudo rights
	// (useradd, runuser -u USER) on the same machine
	{"user: unreadable file", "grep a p/secret; cat < p/secret; sh p/secret", "",
		"grep: p/secret: Permission denied\nsh: 1: cannot open p/secret: Permission denied\nsh: 0: cannot open p/secret: Permission denied\n", 2, ""},
	{"user: unwritable file", "echo hi > p/secret; echo hi > p/noperm/x", "",
		"sh: 1: cannot create p/secret: Permission denied\nsh: 1: cannot create p/noperm/x: Permission denied\n", 2, ""},
	{"user: unreadable directory", "ls p/noperm; ls -d p/noperm/x; grep a p/noperm/x", "",
		"ls: cannot open directory 'p/noperm': Permission denied\nls: cannot access 'p/noperm/x': Permission denied\ngrep: p/noperm/x: Permission denied\n", 2, ""},

	// kill (dash's builtin)
	{"kill usage", "kill; kill -9; kill -s TERM; echo $?", "2\n", strings.Repeat("sh: 1: kill: Usage: kill [-s sigspec | -signum | -sigspec] [pid | job]... or\nkill -l [exitstatus]\n", 3), 0, "dash"},
	{"kill invalid signal", "kill -s FOO 1", "", "sh: 1: kill: invalid signal number or name: FOO\n", 2, "dash"},
	{"kill -sNAME", "kill -sigterm 999999", "", "sh: 1: kill: invalid signal number or name: igterm\n", 2, "dash"},
	{"kill unknown -SIGNAL", "kill -FOO 1", "", "sh: 1: kill: Illegal option -F\n", 2, "dash"},
	{"kill SIG prefix", "kill -SIGTERM 1", "", "sh: 1: kill: Illegal option -S\n", 2, "dash"},
	{"kill signal number too big", "kill -99 1", "", "sh: 1: kill: Illegal option -9\n", 2, "dash"},
	{"kill -s without a signal", "kill -s", "", "sh: 1: kill: No arg for -s option\n", 2, "dash"},
	{"kill illegal numbers", "kill abc; kill -0 -1x; kill 99999999999999; kill ''", "",
		"sh: 1: kill: Illegal number: abc\nsh: 1: kill: Illegal number: 1x\nsh: 1: kill: Illegal number: 99999999999999\nsh: 1: kill: Illegal number: \n", 2, "dash"},
	{"kill no such process", "kill -term 999999 999998; echo $?; kill -- 999999", "1\n",
		"sh: 1: kill: No such process\n\nsh: 1: kill: No such process\n\nsh: 1: kill: No such process\n\n", 1, "dash"},
	{"kill -l", "kill -l 9; kill -l 143; kill -l 0", "KILL\nTERM\n", "sh: 1: kill: invalid signal number or exit status: 0\n", 2, "dash"},

	// redirections and failed writes (/dev/full: ENOSPC)
	{"cannot open", "cat < nofile; cat < /nodir/x", "", "sh: 1: cannot open nofile: No such file\nsh: 1: cannot open /nodir/x: No such file\n", 2, "dash"},
	{"cannot create", "echo hi > /nodir/x; echo hi > g/f/x; echo hi > g", "",
		"sh: 1: cannot create /nodir/x: Directory nonexistent\nsh: 1: cannot create g/f/x: Directory nonexistent\nsh: 1: cannot create g: Is a directory\n", 2, "dash"},
	{"builtin write error", "echo hi > /dev/full; pwd >> /dev/full; command echo hi > /dev/full", "",
		"sh: 1: echo: echo: I/O error\nsh: 1: pwd: pwd: I/O error\nsh: 1: echo: echo: I/O error\n", 1, "dash"},
	{"coreutils write errors", "/usr/bin/echo hi > /dev/full; cat g/f > /dev/full; echo $?; ls g > /dev/full; echo $?", "1\n2\n",
		"/usr/bin/echo: write error: No space left on device\ncat: write error: No space left on device\nls: write error: No space left on device\n", 0, "coreutils"},
	{"grep write error", "grep a g/f > /dev/full", "", "grep: write error: No space left on device\n", 2, "grep"},
	{"tee write errors", "echo hi | tee > /dev/full; echo hi | tee /dev/full > /dev/null; echo hi | tee /dev/full > /dev/full", "",
		"tee: 'standard output': No space left on device\ntee: /dev/full: No space left on device\n" +
			"tee: 'standard output': No space left on device\ntee: /dev/full: No space left on device\n", 1, "coreutils"},
	{"write errors through sudo", "sudo -n echo hi > /dev/full; sudo -n /usr/bin/echo hi > /dev/full; sudo -n cat g/f > /dev/full", "",
		"echo: write error: No space left on device\n/usr/bin/echo: write error: No space left on device\ncat: write error: No space left on device\n", 1, "sudo"},
	{"write errors through flock", "flock l cat g/f > /dev/full; flock l echo hi > /dev/full", "",
		"cat: write error: No space left on device\necho: write error: No space left on device\n", 1, "util-linux"},
	{"nested shell writes for itself", "sh -c 'echo a; echo b; true' > /dev/full; echo $?; sudo -n sh -c 'echo a\necho b' > /dev/full", "0\n",
		"sh: 1: echo: echo: I/O error\nsh: 1: echo: echo: I/O error\nsh: 1: echo: echo: I/O error\nsh: 2: echo: echo: I/O error\n", 1, "sudo"},

	// dash's syntax errors
	{"unterminated single quote", "echo a; echo 'b", "", "sh: 1: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unterminated double quote", `echo a; echo "b`, "", "sh: 1: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unterminated quote counts to the end", "echo a\necho 'b\nc", "a\n", "sh: 3: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unterminated quote before empty lines", "echo 'a\n\n", "", "sh: 3: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unterminated quote in a loop", "for i in a; do\necho \"x\ndone", "", "sh: 3: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unterminated quote after a brace", "echo \"${x}\n", "", "sh: 2: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unclosed brace in quotes", "echo a\necho \"${x\ny", "a\n", "sh: 2: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"unclosed brace in quotes after a word", "echo \"${x y\na\nb", "", "sh: 3: Syntax error: Unterminated quoted string\n", 2, "dash"},
	{"missing brace", "echo a\necho ${x", "a\n", "sh: 2: Syntax error: Missing '}'\n", 2, "dash"},
	{"missing brace, newline after the name", "echo ${x\necho b", "", "sh: 1: Syntax error: Missing '}'\n", 2, "dash"},
	{"missing brace, lines after", "echo ${x\na\nb\nc", "", "sh: 3: Syntax error: Missing '}'\n", 2, "dash"},
	{"missing brace, a word after the name", "echo ${x y\na\nb", "", "sh: 3: Syntax error: Missing '}'\n", 2, "dash"},
	{"missing brace without a name", "echo ${\na", "", "sh: 1: Syntax error: Missing '}'\n", 2, "dash"},
	{"missing brace after a digit", "echo ${1x\na", "", "sh: 2: Syntax error: Missing '}'\n", 2, "dash"},
	{"bad fd number runs what came before", "echo a; echo b >&x; echo c", "a\n", "sh: 1: Syntax error: Bad fd number\n", 2, "dash"},
	{"bad fd number before any redirection", "echo a 2>/dev/null >&x; echo b", "", "sh: 1: Syntax error: Bad fd number\n", 2, "dash"},
	{"bad fd number names the parser's line", "echo a >&x\necho b", "", "sh: 2: Syntax error: Bad fd number\n", 2, "dash"},
	{"bad fd number in a loop", "for i in 1\ndo echo a >&x\ndone\n", "", "sh: 4: Syntax error: Bad fd number\n", 2, "dash"},
	{"bad fd number of two digits", "echo a 1>&12; cat <&x", "", "sh: 1: Syntax error: Bad fd number\n", 2, "dash"},
	{"descriptor not open", "echo a >&3; echo $?; echo a 2>&9; echo $?", "2\n2\n", "sh: 1: 3: Bad file descriptor\n", 0, "dash"},
	{"duplication of quoted digits", `echo a >&"1"; echo b >&\1`, "a\nb\n", "", 0, "dash"},
}

// testSystem is a lab machine whose login directory holds g/f ("a") and /dev/full, as the real
// run's directory does.
func testSystem() *System {
	mu := &sync.Mutex{}
	fail := ""
	root := NewDir(0o755)
	home := root.Mkdirs("home/roce")
	home.Disk, home.UserOwns, home.Mode = true, true, 0o755
	g := home.Mkdirs("g")
	g.Disk, g.UserOwns = true, true
	f := newRegular("a\n")
	f.UserOwns = true
	g.Children["f"] = f
	p := home.Mkdirs("p") // root's: a secret file and a directory nobody may enter
	p.Disk = true
	p.Children["secret"] = &Node{Mode: 0o600, Regular: true}
	p.Children["noperm"] = NewDir(0)
	tmp := root.Mkdirs("tmp")
	tmp.Disk, tmp.Mode = true, 0o1777
	root.Add("dev/null", &Node{Mode: 0o666, DevNull: true})
	root.Add("dev/full", &Node{Mode: 0o666, Write: func(string) error { return ENOSPC }})
	return &System{
		FS:           &FS{Mu: mu, Root: root, Cwd: "/home/roce", FailWrites: &fail},
		User:         "roce",
		Programs:     func() (bin, sbin map[string]Program) { return nil, nil },
		SudoPassword: func() bool { return false },
		Processes:    func() []Process { return nil },
	}
}

func runLab(sys *System, script string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	sh := NewShell(sys, false, "sh", "/home/roce", strings.NewReader(""), &out, &errOut)
	status = sh.Run(script)
	return out.String(), errOut.String(), status
}

func TestUtilities(t *testing.T) {
	for _, c := range realCases {
		out, errOut, status := runLab(testSystem(), c.script)
		if out != c.stdout || errOut != c.stderr || status != c.status {
			t.Errorf("%s: %q\n got exit %d stdout %q stderr %q\nwant exit %d stdout %q stderr %q",
				c.name, c.script, status, out, errOut, c.status, c.stdout, c.stderr)
		}
	}
}

// TestUtilitiesMatchReal replays the cases with the real tools, each when the machine has its
// package at the recorded version (sudo's as root: it then needs no password); under
// ROCE_REQUIRE_HOST_TOOLS=1 a package that is not installed fails the test.
func TestUtilitiesMatchReal(t *testing.T) {
	labtest.SkipUnlessDash(t)
	have := map[string]bool{}
	for pkg, want := range realVersions {
		out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", pkg).Output()
		have[pkg] = err == nil && string(out) == want
		switch {
		case err != nil && os.Getenv("ROCE_REQUIRE_HOST_TOOLS") == "1":
			// .ci/run installs sudo (the others are in every Debian) and sets it.
			t.Errorf("%s is not installed but ROCE_REQUIRE_HOST_TOOLS=1: %v", pkg, err)
		case !have[pkg]:
			// Another version's texts may differ: its cases are not compared, and the log says so.
			t.Logf("%s is not %s here: its cases are not replayed", pkg, want)
		}
	}
	have["sudo"] = have["sudo"] && os.Geteuid() == 0
	for _, c := range realCases {
		if c.pkg == "" || !have[c.pkg] || !have["dash"] {
			continue
		}
		home := filepath.Join(t.TempDir(), "home", "roce")
		if err := os.MkdirAll(filepath.Join(home, "g"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "g", "f"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, status := labtest.RealShell(t, home, "/usr/sbin:/usr/bin:/sbin:/bin", c.script)
		got := realCase{c.name, c.script, strings.ReplaceAll(out, home, "/home/roce"), strings.ReplaceAll(errOut, home, "/home/roce"), status, c.pkg}
		if got != c {
			t.Errorf("%s: %q\nreal: exit %d stdout %q stderr %q\ncase: exit %d stdout %q stderr %q",
				c.name, c.script, got.status, got.stdout, got.stderr, c.status, c.stdout, c.stderr)
		}
	}
}
