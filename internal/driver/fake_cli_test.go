package driver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// fakeCLI is a CLI switch behind cliConn: it answers each show command from answers and
// records every batch of commands and every transaction. A command it has no answer for is
// refused as a switch refuses it (a port it does not have).
type fakeCLI struct {
	answers map[string]string
	shown   [][]string
	sent    [][]string
	// configErr answers the next transactions (a refusal, a save failure).
	configErr error
}

func (f *fakeCLI) Show(_ context.Context, commands ...string) ([]string, error) {
	f.shown = append(f.shown, slices.Clone(commands))
	out := make([]string, 0, len(commands))
	for _, c := range commands {
		a, ok := f.answers[c]
		if !ok {
			return nil, &cli.Error{Device: "sw", Op: "show", Line: c, Rejected: true, Output: "% Invalid command at '^' marker."}
		}
		out = append(out, a)
	}
	return out, nil
}

func (f *fakeCLI) Configure(_ context.Context, lines []string) error {
	f.sent = append(f.sent, slices.Clone(lines))
	return f.configErr
}

// lastSent is the last transaction's lines.
func (f *fakeCLI) lastSent(t *testing.T) []string {
	t.Helper()
	if len(f.sent) == 0 {
		t.Fatal("nothing was sent to the switch")
	}
	return f.sent[len(f.sent)-1]
}

// testRegistry holds one device "sw" of platform with settings from dev.
func testRegistry(platform string, dev devices.Device) *devices.Registry {
	dev.Name, dev.Platform, dev.Address = "sw", platform, "127.0.0.1:1"
	return devices.NewRegistry(map[string]devices.Device{"sw": dev}, nil)
}

// block returns the lines of the configuration block header opens (up to its "exit"), or nil
// when lines do not open it; with several such blocks, their lines one after the other.
func block(lines []string, header string) []string {
	var out []string
	for i, l := range lines {
		if l != header {
			continue
		}
		out = append(out, l)
		depth := 0
		for _, m := range lines[i+1:] {
			if m == "exit" && depth == 0 {
				break
			}
			if m == "exit" {
				depth--
			} else if isModeLine(m) {
				depth++
			}
			out = append(out, m)
		}
	}
	return out
}

// isModeLine reports a line that opens a sub-mode on EOS or NX-OS (closed by "exit").
func isModeLine(l string) bool {
	for _, p := range []string{"qos profile ", "interface ", "tx-queue ", "uc-tx-queue ", "policy-map ", "class ", "class-map "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// wantLines fails unless every want line is in got.
func wantLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, strings.Join(got, "\n"))
		}
	}
}

// noLines fails if any of lines is in got.
func noLines(t *testing.T, what string, got []string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if slices.Contains(got, l) {
			t.Errorf("%s has %q:\n%s", what, l, strings.Join(got, "\n"))
		}
	}
}
