package mlx5

// The lab shell's for loops, expansions, cd and syntax errors against what
// dash prints. dashCases hold dash's output (stdout, stderr, exit status),
// recorded from dash 0.5.12 over a copy of the lab's tree; TestShellMatchesDash
// checks them against the local /bin/sh again when it is dash, so the
// expectations cannot drift from the real shell.

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

type shCase struct {
	name, script   string
	stdout, stderr string
	status         int
}

// dashCases run from the login directory (/home/roce) and use only paths
// under /sys/class/net and /home, which TestShellMatchesDash copies.
var dashCases = []shCase{
	// for loops
	{"for words", "for i in a b c; do echo $i; done", "a\nb\nc\n", "", 0},
	{"for newlines", "for i in a b\ndo\n  echo \"<$i>\"\ndone\necho end", "<a>\n<b>\nend\n", "", 0},
	{"for newline before in", "for i\nin a; do echo $i; done", "a\n", "", 0},
	{"for newline before do", "for i in a;\ndo echo $i\ndone", "a\n", "", 0},
	{"for empty list", "false; for i in; do echo x; done; echo $?", "0\n", "", 0},
	{"for status is the last command's", "for i in a b; do false; done; echo $?; for i in a; do false; true; done; echo $?", "1\n0\n", "", 0},
	{"for nested", "for i in a b; do for j in 1 2; do echo $i$j; done; done", "a1\na2\nb1\nb2\n", "", 0},
	{"for done done", "for i in a; do for j in b; do echo $i$j; done done", "ab\n", "", 0},
	{"for quoted words", `for i in "a b" c\ d 'e  f' ""; do echo "[$i]"; done`, "[a b]\n[c d]\n[e  f]\n[]\n", "", 0},
	{"for in and-or", "for i in a; do false; done && echo yes || echo no", "no\n", "", 0},
	{"for keeps the last value", "i=zz; for i in p q; do :; done; echo $i", "q\n", "", 0},
	{"for keywords as words", "for do in in do done; do echo $do; done", "in\ndo\ndone\n", "", 0},
	{"for redirected", "for i in a b; do echo $i; done >/dev/null; echo $?", "0\n", "", 0},
	{"for stderr redirected", "for i in a; do echo $i; nope; done 2>&1 | grep -c .", "2\n", "", 0},
	{"for redirection fails", "for i in a; do echo $i; done >/sys/nope/x; echo rc=$?", "rc=2\n", "sh: 1: cannot create /sys/nope/x: Directory nonexistent\n", 0},
	{"for runtime line numbers", "for i in a; do\n  nope\ndone", "", "sh: 2: nope: not found\n", 127},
	{"for in a pipeline keeps its variable", "i=x; for i in a b; do echo $i; done | cat; echo $i", "a\nb\nx\n", "", 0},
	{"for redirections in order", "for i in a b; do echo $i; done 2>&1 >/dev/null | cat; echo ok", "ok\n", "", 0},
	{"for cd stays", "for i in a; do cd /sys; done; pwd", "/sys\n", "", 0},
	{"pipeline into for", "echo a | for i in 1 2; do cat; done", "a\n", "", 0},
	{"for -e", "sh -e -c 'for i in a b; do echo $i; false; done; echo no'", "a\n", "", 1},
	{"for -e tested", "sh -e -c 'for i in a b; do echo $i; false; done || echo guarded'", "a\nb\nguarded\n", "", 0},

	// command (the provider's test for a tool: command -v NAME)
	{"command -v", "command -v ls; echo $?; command -v nosuch; echo $?; command -v cd", "/usr/bin/ls\n0\n127\ncd\n", "", 0},
	{"command -v describes the first name", "command -v ls nosuch; echo $?; command -v nosuch ls; echo $?", "/usr/bin/ls\n0\n127\n", "", 0},
	{"command -v a path", "command -v /usr/bin/ls; command -v /nope; echo $?", "/usr/bin/ls\n127\n", "", 0},
	{"command runs", "command echo hi; command nosuch; echo $?; command; echo $?", "hi\n127\n0\n", "sh: 1: nosuch: not found\n", 0},
	{"command bad option", "command -x; echo $?", "2\n", "sh: 1: command: Illegal option -x\n", 0},
	{"command -v guards", "! command -v nosuch >/dev/null 2>&1 && echo absent || echo present", "absent\n", "", 0},

	// parameters, field splitting and quotes
	{"unset", `echo "[$nope]" [$nope] $nope.`, "[] [] .\n", "", 0},
	{"unset word vanishes", `for i in $nope "$nope" ''$nope; do echo "<$i>"; done`, "<>\n<>\n", "", 0},
	{"braces", "x=1; echo ${x}2 $x2 \"${x}\"", "12 1\n", "", 0},
	{"status parameter", "false; echo $? ${?}x; echo $?", "1 1x\n0\n", "", 0},
	{"splitting", `x=' a  b '; for i in $x; do echo "<$i>"; done; for i in "$x"; do echo "<$i>"; done; for i in a$x"c"; do echo "<$i>"; done`,
		"<a>\n<b>\n< a  b >\n<a>\n<a>\n<b>\n<c>\n", "", 0},
	{"empty quotes keep a field", `x=' a'; for i in ""$x; do echo "<$i>"; done`, "<>\n<a>\n", "", 0},
	{"assignments", "x=a; x=$x$x; y=\"$x b\" z=; echo $x \"$y\" \"[$z]\"", "aa aa b []\n", "", 0},
	{"assignment is not split or globbed", "x='/sys/class/net/e*'; y=$x; echo \"$y\"", "/sys/class/net/e*\n", "", 0},
	{"assignments in order", "x=1; x=2 y=$x; echo $y; x=a; for i in $x$x \"$x\"$x; do echo $i; done", "2\naa\naa\n", "", 0},
	{"status of not found", `echo "$?" "${?}"; nope 2>/dev/null; echo $?`, "0 0\n127\n", "", 0},
	{"literal dollars", `echo $ "$" a$ \$x "\$x" '$x' $/`, "$ $ a$ $x $x $x $/\n", "", 0},
	{"nested sh does not see unexported variables", `x=1; sh -c 'echo "[$x]"'`, "[]\n", "", 0},
	{"set -u", "sh -u -c 'echo a; echo $nope; echo b'", "a\n", "sh: 1: nope: parameter not set\n", 2},
	{"set -u in a loop", "sh -u -c 'for i in a; do echo $i $nope; done; echo b'", "", "sh: 1: nope: parameter not set\n", 2},

	// ! PIPELINE
	{"bang inverts", `! true; echo $?; ! false; echo $?`, "1\n0\n", "", 0},
	{"bang in an and-or list", `! ls /sys/nope >/dev/null 2>&1 && echo absent; ! ls /sys >/dev/null && echo never || echo present`, "absent\npresent\n", "", 0},
	{"bang exempt from set -e", "sh -e -c '! true; echo after'", "after\n", "", 0},
	{"grep bad option", "grep -j x", "", "grep: invalid option -- 'j'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
	{"grep without a pattern", "grep", "", "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
	{"bang on a pipeline", `! echo a | grep -q b && echo nomatch`, "nomatch\n", "", 0},

	// globs
	{"glob in for", "cd /sys/class/net && for i in *; do echo \"$i\"; done", "eth0\neth1\nlo\n", "", 0},
	{"glob mixed quoting", `cd /sys/class/net && for i in e*; do echo '/sys/class/net/'"$i"'/ecn/roce_rp/enable/'*; done`,
		"/sys/class/net/eth0/ecn/roce_rp/enable/" + "0 /sys/class/net/eth0/ecn/roce_rp/enable/1 /sys/class/net/eth0/ecn/roce_rp/enable/2 /sys/class/net/eth0/ecn/roce_rp/enable/3 /sys/class/net/eth0/ecn/roce_rp/enable/4 /sys/class/net/eth0/ecn/roce_rp/enable/5 /sys/class/net/eth0/ecn/roce_rp/enable/6 /sys/class/net/eth0/ecn/roce_rp/enable/7\n" +
			"/sys/class/net/eth1/ecn/roce_rp/enable/0 /sys/class/net/eth1/ecn/roce_rp/enable/1 /sys/class/net/eth1/ecn/roce_rp/enable/2 /sys/class/net/eth1/ecn/roce_rp/enable/3 /sys/class/net/eth1/ecn/roce_rp/enable/4 /sys/class/net/eth1/ecn/roce_rp/enable/5 /sys/class/net/eth1/ecn/roce_rp/enable/6 /sys/class/net/eth1/ecn/roce_rp/enable/7\n", "", 0},
	{"quoted glob characters", `cd /sys/class/net/eth0/ecn/roce_np/enable && echo "*" '?' \[0] "["0-1"]" [0-1] ?`, "* ? [0] [0-1] 0 1 0 1 2 3 4 5 6 7\n", "", 0},
	{"glob from an unquoted expansion", `x='/sys/class/net/e*'; echo $x "$x"`, "/sys/class/net/eth0 /sys/class/net/eth1 /sys/class/net/e*\n", "", 0},
	{"glob relative", "cd /sys/class/net/eth0/ecn && grep -H . roce_rp/enable/[0-2] && ls -d ../e*", "roce_rp/enable/0:1\nroce_rp/enable/1:1\nroce_rp/enable/2:1\n../ecn\n", "", 0},
	{"glob no match", "cd /sys/class/net; echo x* /sys/nope/*; for i in /sys/nope/*; do echo \"$i\"; done", "x* /sys/nope/*\n/sys/nope/*\n", "", 0},
	{"glob dot files", "cd /sys/class/net/eth0 && echo .* && echo */", ". ..\ndevice/ ecn/\n", "", 0},
	{"glob bracket negation", "cd /sys/class/net/eth0/ecn/roce_np/enable && echo [!0-5]", "6 7\n", "", 0},
	{"no glob in redirections", "cat < /sys/class/net/eth0/device/uev*", "", "sh: 1: cannot open /sys/class/net/eth0/device/uev*: No such file\n", 2},
	{"empty redirection target", "echo hi > $nope", "", "sh: 1: cannot create : Directory nonexistent\n", 2},

	// cd
	{"cd", "cd /sys/class/net; pwd; echo $PWD; ls eth0/device/infiniband; cat eth0/ecn/roce_np/enable/3; cd eth1 && pwd && echo $OLDPWD",
		"/sys/class/net\n/sys/class/net\nmlx5_0\n1\n/sys/class/net/eth1\n/sys/class/net\n", "", 0},
	{"cd missing", "cd /sys/nope; echo rc=$?", "rc=2\n", "sh: 1: cd: can't cd to /sys/nope\n", 0},
	{"cd missing stops &&", "cd nope && echo no", "", "sh: 1: cd: can't cd to nope\n", 2},
	{"cd to a file", "cd /sys/class/net/eth0/device/uevent", "", "sh: 1: cd: can't cd to /sys/class/net/eth0/device/uevent\n", 2},
	{"cd -", "cd /sys/class/net && cd eth0/ecn && cd - && pwd", "/sys/class/net\n/sys/class/net\n", "", 0},
	{"cd ..", "cd /sys/class/net/eth0; cd ../..; pwd; cd -P net; pwd; cd -- ''; pwd", "/sys/class\n/sys/class/net\n/sys/class/net\n", "", 0},
	{"cd illegal option", "cd -x /sys", "", "sh: 1: cd: Illegal option -x\n", 2},
	{"cd in a pipeline stays there", "cd /sys/class/net | cat; pwd", "/home/roce\n", "", 0},
	{"nested sh starts in the directory", "cd /sys/class/net && sh -c 'pwd; ls -d e*; cd /sys'; pwd", "/sys/class/net\neth0\neth1\n/sys/class/net\n", "", 0},

	// syntax errors
	{"bad for variable", "for 1x in a; do :; done", "", "sh: 1: Syntax error: Bad for loop variable\n", 2},
	{"quoted for variable", `for "i" in a; do :; done`, "", "sh: 1: Syntax error: Bad for loop variable\n", 2},
	{"for alone", "for", "", "sh: 1: Syntax error: Bad for loop variable\n", 2},
	{"for without do", "for i", "", "sh: 1: Syntax error: end of file unexpected (expecting \"do\")\n", 2},
	{"for in at the end", "for i in a", "", "sh: 1: Syntax error: end of file unexpected\n", 2},
	{"for before do", "for i in a;", "", "sh: 1: Syntax error: end of file unexpected (expecting \"do\")\n", 2},
	{"for without done", "echo a; for i in a; do echo", "", "sh: 1: Syntax error: end of file unexpected (expecting \"done\")\n", 2},
	{"for without done on line 2", "echo a\nfor i in a b; do echo $i; ", "a\n", "sh: 2: Syntax error: end of file unexpected (expecting \"done\")\n", 2},
	{"for word instead of do", "for i in a b; echo $i; done", "", "sh: 1: Syntax error: word unexpected (expecting \"do\")\n", 2},
	{"for word instead of in", "for i a b; do echo; done", "", "sh: 1: Syntax error: word unexpected (expecting \"do\")\n", 2},
	{"for words on the next line", "for i in a\nb; do echo $i; done", "", "sh: 2: Syntax error: word unexpected (expecting \"do\")\n", 2},
	{"for empty body", "for i in a; do done", "", "sh: 1: Syntax error: \"done\" unexpected\n", 2},
	{"for empty command", "for i in a; do ;done", "", "sh: 1: Syntax error: \";\" unexpected\n", 2},
	{"for word after done", "for i in a; do echo $i; done x", "", "sh: 1: Syntax error: word unexpected\n", 2},
	{"done alone", "echo a; done", "", "sh: 1: Syntax error: \"done\" unexpected\n", 2},
	{"do alone", "do", "", "sh: 1: Syntax error: \"do\" unexpected\n", 2},
	{"in alone", "in", "", "sh: 1: Syntax error: \"in\" unexpected\n", 2},
	{"extra done", "for i in a; do echo $i; done; done", "", "sh: 1: Syntax error: \"done\" unexpected\n", 2},
	{"missing brace", "echo a\necho ${x", "a\n", "sh: 2: Syntax error: Missing '}'\n", 2},
}

// shellCases are the lab's alone: refusals, permissions and environment
// (dash's differ on purpose, or depend on the machine).
var shellCases = []shCase{
	{"environment", "echo $HOME $USER $LOGNAME $PWD; sudo -n sh -c 'echo $HOME $USER $PWD'", "/home/roce roce roce /home/roce\n/root root /home/roce\n", "", 0},
	{"cd home", "cd /sys; cd; pwd", "/home/roce\n", "", 0},
	{"cd without search permission", "cd /sys/kernel/debug", "", "sh: 1: cd: can't cd to /sys/kernel/debug\n", 2},
	{"glob without read permission", "echo /sys/kernel/debug/*", "/sys/kernel/debug/*\n", "", 0},
	{"cd as root", "sudo -n sh -c 'cd /sys/kernel/debug/mlx5 && echo * && cd 0000:08:00.1/cc_params && cat np_cnp_dscp'", "0000:08:00.0 0000:08:00.1\n48\n", "", 0},
	{"sudo cd", "sudo -n cd /sys", "", "sudo: cd: command not found\n", 1},
	{"sudo keeps the directory", "cd /sys/class/net/eth0/ecn/roce_np && sudo -n cat cnp_dscp && sudo -n pwd", "48\n/sys/class/net/eth0/ecn/roce_np\n", "", 0},
	{"sh FILE relative", "cd /sys/class/net/eth0/ecn/roce_np; sh enable/0", "", "enable/0: 1: 1: not found\n", 127},
	{"loop writes one echo at a time", "sudo -n sh -c 'for v in 26 27; do echo $v; done > /sys/class/net/eth0/ecn/roce_np/cnp_dscp'; cat /sys/class/net/eth0/ecn/roce_np/cnp_dscp", "27\n", "", 0},
	{"loop write errors per command", "sudo -n sh -c 'for v in x 5; do echo $v; done > /sys/class/net/eth0/ecn/roce_np/enable/1; echo $?'; cat /sys/class/net/eth0/ecn/roce_np/enable/1",
		"0\n1\n", "sh: 1: echo: echo: I/O error\n", 0},
}

// refused are constructs the subset does not implement: each is refused
// loudly with status 2 before anything on its line runs.
var refused = []string{
	"echo $$", "echo $1", "echo $#", "echo $@", "echo \"$*\"", "echo $-", "echo ${#x}", "echo ${x#a}",
	"echo ${x:-y}", "echo \"${x%/*}\"", "echo $(id)", "echo \"$(id)\"", "echo `id`", "echo $((1+1))",
	"for i; do echo; done", "for i do echo; done", "A=1 true", "x=1 echo", "IFS=:", "PATH=/bin",
	"while true; do :; done", "if true; then :; fi", "(true)", "{ true; }", "cat <<EOF", "echo a >&$x",
}

func runCases(t *testing.T, h *Host, cases []shCase) {
	t.Helper()
	for _, c := range cases {
		out, errOut, status := h.Run(c.script)
		if out != c.stdout || errOut != c.stderr || status != c.status {
			t.Errorf("%s: %q\n got exit %d stdout %q stderr %q\nwant exit %d stdout %q stderr %q",
				c.name, c.script, status, out, errOut, c.status, c.stdout, c.stderr)
		}
	}
}

func TestShellScripts(t *testing.T) {
	h := startHost(t, "")
	runCases(t, h, dashCases)
	runCases(t, h, shellCases)
	for _, script := range refused {
		out, errOut, status := h.Run("echo before\n" + script + "; echo after")
		if status != 2 || out != "before\n" || !strings.HasPrefix(errOut, "sh: 2: lab: unsupported shell syntax") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", script, status, out, errOut)
		}
	}
}

// TestShellParse checks the words and commands the parser makes.
func TestShellParse(t *testing.T) {
	for _, c := range []struct {
		script string
		want   string // words as String renders them, commands separated by " ; "
	}{
		{`echo "$i" '$i' ${i}x $?`, `echo $i $i $ix $?`},
		{`a=b c=$d`, `a=b c=$d`},
		{"for i in *; do echo $i; done", "for i in * do echo $i done"},
		{"for i in a b\ndo\necho $i\ndone", "for i in a b do echo $i done"},
	} {
		p := &sh.Parser{Toks: sh.Lex(c.script)}
		list, err := p.NextCommand()
		if err != nil {
			t.Errorf("%q: %v", c.script, err)
			continue
		}
		var words []string
		var walk func([]*sh.AndOr)
		walk = func(list []*sh.AndOr) {
			for _, ao := range list {
				for _, pl := range ao.Pipes {
					for _, cmd := range pl.Cmds {
						switch cmd := cmd.(type) {
						case *sh.Simple:
							for _, a := range cmd.Assigns {
								words = append(words, a.Name+"="+a.Value.String())
							}
							for _, w := range cmd.Words {
								words = append(words, w.String())
							}
						case *sh.For:
							words = append(words, "for", cmd.Name, "in")
							for _, w := range cmd.Words {
								words = append(words, w.String())
							}
							words = append(words, "do")
							walk(cmd.Body)
							words = append(words, "done")
						}
					}
				}
			}
		}
		walk(list)
		if got := strings.Join(words, " "); got != c.want {
			t.Errorf("%q parsed as %q, want %q", c.script, got, c.want)
		}
	}
}

// TestShellExpand checks field splitting and quoting of single words.
func TestShellExpand(t *testing.T) {
	shell := sh.NewShell(startHost(t, "").sys, false, "sh", "/sys/class/net", nil, nil, nil)
	shell.Vars["sp"] = " a  b "
	shell.Vars["star"] = "e*"
	shell.Vars["empty"] = ""
	for _, c := range []struct {
		word string
		want []string
	}{
		{`$sp`, []string{"a", "b"}},
		{`"$sp"`, []string{" a  b "}},
		{`x$sp"y"`, []string{"x", "a", "b", "y"}},
		{`x$sp"y"$empty`, []string{"x", "a", "b", "y"}},
		{`"x"$empty$sp`, []string{"x", "a", "b"}},
		{`$empty`, nil},
		{`$empty$nope`, nil},
		{`"$empty"`, []string{""}},
		{`''`, []string{""}},
		{`$star`, []string{"eth0", "eth1"}},
		{`"$star"`, []string{"e*"}},
		{`'e'*`, []string{"eth0", "eth1"}},
		{`"e*"`, []string{"e*"}},
		{`${star}/ecn`, []string{"eth0/ecn", "eth1/ecn"}},
		{`*/device/infiniband/*`, []string{"eth0/device/infiniband/mlx5_0", "eth1/device/infiniband/mlx5_1"}},
		{`/sys/class/net/l?`, []string{"/sys/class/net/lo"}},
		{`x$?`, []string{"x0"}},
	} {
		toks := sh.Lex(c.word)
		if len(toks) != 2 || toks[0].Kind != sh.TWord {
			t.Fatalf("%q: tokens %+v", c.word, toks)
		}
		got, err := shell.ExpandFields(toks[0].Word)
		if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("%q expanded to %q (%v), want %q", c.word, got, err, c.want)
		}
	}
}

// TestShellReadAllNetdevs runs the provider's one-command read of every
// netdev of a host over SSH, as sh -c and through sudo -n: each netdev's
// section appears once, with that netdev's values.
func TestShellReadAllNetdevs(t *testing.T) {
	e := newHostEnv(t)
	e.Must("sudo -n mlnx_qos -i eth1 --trust dscp >/dev/null && echo 0 | sudo -n tee /sys/class/net/eth1/ecn/roce_np/enable/3 >/dev/null")
	const script = `cd '/sys/class/net' && for i in *; do echo "@@netdev $i"; mlnx_qos -i "$i" -a 2>&1 || echo @@failed; cat '/sys/class/net/'"$i"'/device/uevent' 2>&1; ls '/sys/class/net/'"$i"'/device/infiniband' 2>&1; grep -H . '/sys/class/net/'"$i"'/ecn/roce_rp/enable/'* '/sys/class/net/'"$i"'/ecn/roce_np/enable/'* 2>&1; done; echo @@end`
	wrapped := "sh -c '" + strings.ReplaceAll(script, "'", `'\''`) + "'"
	for _, cmd := range []string{script, wrapped, "sudo -n " + wrapped} {
		out, errOut, status := e.Run(cmd)
		if status != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", cmd, status, errOut)
		}
		sections := map[string]string{}
		var order []string
		for i, part := range strings.Split(out, "@@netdev ")[1:] {
			name, body, _ := strings.Cut(part, "\n")
			if _, dup := sections[name]; dup {
				t.Errorf("section %d: %s twice", i, name)
			}
			sections[name] = body
			order = append(order, name)
		}
		if strings.Join(order, " ") != "eth0 eth1 lo" || !strings.HasSuffix(out, "@@end\n") {
			t.Fatalf("%q: sections %v:\n%s", cmd, order, out)
		}
		for i, ifname := range []string{"eth0", "eth1"} {
			body := sections[ifname]
			trust := map[string]string{"eth0": "pcp", "eth1": "dscp"}[ifname]
			rdma, pci := "mlx5_"+string(rune('0'+i)), "0000:08:00."+string(rune('0'+i))
			for _, want := range []string{
				"Priority trust state: " + trust + "\n",
				"PCI_SLOT_NAME=" + pci + "\n",
				"\n" + rdma + "\n",
				"/sys/class/net/" + ifname + "/ecn/roce_rp/enable/0:1\n",
				"/sys/class/net/" + ifname + "/ecn/roce_np/enable/7:1\n",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("%s section lacks %q:\n%s", ifname, want, body)
				}
			}
			if strings.Contains(body, "@@failed") || strings.Count(body, "/ecn/") != 16 || strings.Count(body, "/sys/class/net/"+ifname+"/ecn/") != 16 {
				t.Errorf("%s section:\n%s", ifname, body)
			}
			np3 := "/sys/class/net/" + ifname + "/ecn/roce_np/enable/3:" + map[string]string{"eth0": "1", "eth1": "0"}[ifname] + "\n"
			if !strings.Contains(body, np3) {
				t.Errorf("%s section lacks %q", ifname, np3)
			}
		}
		lo := sections["lo"]
		for _, want := range []string{"@@failed\n", "cat: /sys/class/net/lo/device/uevent: No such file or directory\n",
			"grep: /sys/class/net/lo/ecn/roce_rp/enable/*: No such file or directory\n"} {
			if !strings.Contains(lo, want) {
				t.Errorf("lo section lacks %q:\n%s", want, lo)
			}
		}
	}
}

// TestShellMatchesDash runs dashCases with the local dash over a copy of the
// lab's /sys/class/net (names and contents) and /home/roce.
func TestShellMatchesDash(t *testing.T) {
	labtest.SkipUnlessDash(t)
	h := startHost(t, "")
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "home", h.user), 0o755); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	n, err := h.fs.Lookup("/sys/class/net", true)
	if err == nil {
		err = copyTree(n, filepath.Join(root, "sys/class/net"))
	}
	h.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range dashCases {
		script := strings.NewReplacer("/sys/", root+"/sys/", "/home/", root+"/home/").Replace(c.script)
		out, errOut, status := labtest.RealShell(t, filepath.Join(root, "home", h.user), "/usr/bin:/bin", script)
		got := shCase{c.name, c.script, strings.ReplaceAll(out, root, ""), strings.ReplaceAll(errOut, root, ""), status}
		if got != c {
			t.Errorf("%s: %q\ndash: exit %d stdout %q stderr %q\ncase: exit %d stdout %q stderr %q",
				c.name, c.script, got.status, got.stdout, got.stderr, c.status, c.stdout, c.stderr)
		}
	}
}

// copyTree writes the emulated tree n (the host lock held) into dir.
func copyTree(n *sh.Node, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range n.Names() {
		child := n.Children[name]
		p := path.Join(dir, name)
		switch {
		case child.Dir:
			if err := copyTree(child, p); err != nil {
				return err
			}
		default:
			body := ""
			if child.Read != nil {
				body = child.Read()
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
