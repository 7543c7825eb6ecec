package lab

import (
	"regexp"
	"testing"
)

// startNXOS starts a lab with one `nxos` switch of 4 ports.
func startNXOS(t *testing.T, opts ...func(*Options)) (*Lab, *NXOSSwitch) {
	t.Helper()
	return startSwitch(t, "nxos", (*Lab).NXOS, opts...)
}

// timeLines are the lines of a show text that change with the clock.
var timeLines = regexp.MustCompile(`(?m)^!(Time|Running configuration last done at|Startup config saved at): .*\n`)

func withoutTimes(s string) string { return timeLines.ReplaceAllString(s, "") }
