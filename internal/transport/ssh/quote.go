package ssh

import "strings"

// Quote returns s as one word for a POSIX shell: unchanged when it holds only characters the
// shell never interprets (letters, digits and _ - . / : , @ % +), else single-quoted, with each
// single quote inside written as quote, backslash, quote, quote:
//
//	Quote("it's") == `'it'\''s'`
//	Quote("")     == `''`
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	if strings.IndexFunc(s, special) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// QuoteAll quotes each argument with Quote and joins them with spaces.
func QuoteAll(args ...string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = Quote(a)
	}
	return strings.Join(words, " ")
}

func special(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("_-./:,@%+", r)
}
