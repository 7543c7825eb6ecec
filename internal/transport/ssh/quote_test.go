package ssh

import (
	"os/exec"
	"strings"
	"testing"
)

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

func TestQuoteReachesShellAsOneLiteralArgument(t *testing.T) {
	for _, s := range hostile {
		if got, want := shellArgs(t, Quote(s)), "1["+s+"]"; got != want {
			t.Errorf("Quote(%q) = %s: the shell received %q, want %q", s, Quote(s), got, want)
		}
		// The brief's exact form: sh -c 'printf %s "$1"' _ QUOTED
		out, err := exec.Command("/bin/sh", "-c", `sh -c 'printf %s "$1"' _ `+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("printf %%s of Quote(%q): %q, %v", s, out, err)
		}
	}
}

func TestQuoteAll(t *testing.T) {
	line := QuoteAll(hostile...)
	want := "35"
	for _, s := range hostile {
		want += "[" + s + "]"
	}
	if len(hostile) != 35 {
		t.Fatalf("update want: %d words", len(hostile))
	}
	if got := shellArgs(t, line); got != want {
		t.Errorf("QuoteAll: the shell received %q, want %q", got, want)
	}
	if QuoteAll() != "" {
		t.Errorf("QuoteAll() = %q", QuoteAll())
	}
}

func TestQuoteForms(t *testing.T) {
	for in, want := range map[string]string{
		"":           "''",
		"eth0":       "eth0",
		"/sys/class": "/sys/class",
		"it's":       `'it'\''s'`,
		"a=b":        "'a=b'",
		"~":          "'~'",
		"$(id)":      "'$(id)'",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
	if got := QuoteAll("mlnx_qos", "-i", "eth0", "--trust", "dscp"); got != "mlnx_qos -i eth0 --trust dscp" {
		t.Errorf("QuoteAll = %s", got)
	}
}

func FuzzQuote(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) { // a NUL cannot be in an argument at all
			t.Skip()
		}
		if got := shellArgs(t, Quote(s)); got != "1["+s+"]" {
			t.Errorf("Quote(%q) = %s: the shell received %q", s, Quote(s), got)
		}
	})
}
