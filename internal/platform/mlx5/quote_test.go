package mlx5

import (
	"os/exec"
	"strings"
	"testing"
)

// shQuote is the project's one shell-quoting function: every word of every host command goes
// through it. These check it against the real /bin/sh.

var hostile = []string{
	"", "plain", "eth0", "it's", "'", "''", `\`, `\'`, "; rm -rf /", "$(id)", "`id`", "${HOME}", "$HOME",
	"a\nb", "\n", "trailing\n", "two words", " lead", "tab\there", `"double"`, "*", "?", "[a]", "~", "~root",
	"a=b", "-n", "--", "!x", "#comment", "a|b&c>d<e", "{a,b}", "é ü 中文", "\x01\x7f", "'; echo pwned; '",
}

// shellArgs has a real /bin/sh parse the line `sh -c 'printf ...' _ WORDS` and reports what
// the inner shell received: the number of arguments, then each argument bracketed.
func shellArgs(t *testing.T, words string) string {
	t.Helper()
	line := `sh -c 'printf %d "$#"; for a; do printf "[%s]" "$a"; done' _ ` + words
	out, err := exec.Command("/bin/sh", "-c", line).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", line, err)
	}
	return string(out)
}

func TestShQuoteReachesShellAsOneLiteralArgument(t *testing.T) {
	all := make([]string, len(hostile))
	want := "35"
	for i, s := range hostile {
		if got, want := shellArgs(t, shQuote(s)), "1["+s+"]"; got != want {
			t.Errorf("shQuote(%q) = %s: the shell received %q, want %q", s, shQuote(s), got, want)
		}
		all[i], want = shQuote(s), want+"["+s+"]"
	}
	if got := shellArgs(t, strings.Join(all, " ")); len(hostile) != 35 || got != want {
		t.Errorf("all the words in one line: the shell received %q, want %q", got, want)
	}
}

func FuzzShQuote(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			t.Skip("a NUL cannot be in a command-line argument at all (execve ends the string there)")
		}
		if got := shellArgs(t, shQuote(s)); got != "1["+s+"]" {
			t.Errorf("shQuote(%q) = %s: the shell received %q", s, shQuote(s), got)
		}
	})
}
