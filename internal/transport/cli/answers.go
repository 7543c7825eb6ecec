package cli

import (
	"fmt"
	"strings"

	"github.com/scrapli/scrapligo/response"
)

// Warning is a configuration line the device applied but answered with text that is known to be
// harmless to the change (a warning), reported to the user instead of failing.
type Warning struct {
	Line, Text string
}

// configAnswer classifies what the device printed after a configuration line (scrapligo has
// removed the echo and the prompt). A configuration line prints nothing when it is taken, so
// this fails closed: any text is a refusal unless every line of it is a known warning, because
// the devices' refusals do not share a prefix. NX-OS refuses QoS with `Unable to perform the
// action due to incompatibility:  Module 1 returned status "..."`, with or without `ERROR:`,
// and `Invalid range at '^' marker.` without `%`; EOS with `% ...`. Known warnings: EOS lines
// starting `! ` (the line is applied: `! Interface does not exist. The configuration will not
// take effect until the module is inserted.`), EOS `% Writing ...` progress lines, NX-OS lines
// starting `Warning: `. Sources: internal/lab/eos-switch.md and nxos-switch.md, "Refusals".
func configAnswer(platform, out string) (warning, refusal string) {
	var warns, bad []string
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || t == "^": // blank, or NX-OS's caret under the offending word
		case platform == platformEOS && strings.HasPrefix(t, "! "):
			warns = append(warns, t)
		case platform == platformEOS && strings.HasPrefix(t, "% Writing "):
		case platform == platformNXOS && strings.HasPrefix(t, "Warning: "):
			warns = append(warns, t)
		default:
			bad = append(bad, t)
		}
	}
	if len(bad) > 0 {
		return "", strings.Join(append(bad, warns...), "\n")
	}
	return strings.Join(warns, "\n"), ""
}

// answers checks the replies to the configuration lines sent, in order: the first refused line
// (one scrapligo marked failed by a known failure text, or one configAnswer refuses) and the
// device's text, or the warnings of the lines applied with one.
func answers(platform string, rs []*response.Response) (line, refusal string, warns []Warning) {
	for _, r := range rs {
		if r.Failed != nil {
			return r.Input, strings.TrimSpace(r.Result), nil
		}
		w, bad := configAnswer(platform, r.Result)
		if bad != "" {
			return r.Input, bad, nil
		}
		if w != "" {
			warns = append(warns, Warning{Line: r.Input, Text: w})
		}
	}
	return "", "", warns
}

func warningText(ws []Warning) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%q: %s", w.Line, w.Text)
	}
	return strings.Join(parts, "; ")
}
