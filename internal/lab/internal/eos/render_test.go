package eos

import (
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// eosRoCE is a RoCE configuration touching every rendered line kind.
var eosRoCE = []string{
	"enable", "configure",
	"qos map dscp 0 1 2 3 4 5 6 7 to traffic-class 0",
	"qos map dscp 26 to traffic-class 3", // the default: no line
	"qos map dscp 24 25 to traffic-class 4",
	"qos map dscp 18 20 22 to traffic-class 4 drop-precedence 2",
	"qos map dscp 48 to traffic-class 7",
	"qos map cos 5 to traffic-class 3",
	"qos map cos 1 to traffic-class 2",
	"qos map traffic-class 6 to tx-queue 2",
	"qos map traffic-class 7 5 to tx-queue 6",
	"qos profile ROCE",
	"qos trust dscp",
	"tx-queue 6", "priority strict",
	"tx-queue 0", "bandwidth percent 50", "no priority",
	"tx-queue 3", "bandwidth percent 50", "no priority",
	"random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100",
	"tx-queue 5", "random-detect ecn minimum-threshold 2000 segments maximum-threshold 10000 segments weight 0 max-mark-probability 20",
	"priority-flow-control priority 4 drop",
	"priority-flow-control priority 3 no-drop",
	"priority-flow-control on",
	"priority-flow-control pause watchdog",
	"priority-flow-control pause watchdog port action notify-only",
	"priority-flow-control pause watchdog port timer timeout 0.05 polling-interval auto recovery-time 1.11 forced",
	"qos profile EMPTY",
	"interface Ethernet1",
	"service-profile ROCE",
	"priority-flow-control pause watchdog port timer timeout 0.2 polling-interval 0.1 recovery-time 0.4",
	"priority-flow-control pause watchdog port action drop",
	"priority-flow-control pause watchdog",
	"priority-flow-control priority 3 no-drop",
	"priority-flow-control on",
	"flowcontrol receive off",
	"flowcontrol send off",
	"mtu 9214",
	"description to leaf-2 Ethernet49/1",
	"interface Ethernet3",
	"service-profile ROCE",
	"end",
}

func TestEOSRunningConfigGolden(t *testing.T) {
	sw := startEOS(t)
	goldenfile.Check(t, "testdata/running-config-fresh.golden", stableRunning(sw.RunningConfig()))
	c := newEOSCLI(t, sw, eosRoCE...)
	got := c.Run("show running-config")
	if got != sw.RunningConfig() {
		t.Errorf("show running-config and RunningConfig differ:\n%s\n%s", got, sw.RunningConfig())
	}
	goldenfile.Check(t, "testdata/running-config-roce.golden", stableRunning(got))
	goldenfile.Check(t, "testdata/running-config-roce-json.golden", stableRunning(c.Run("show running-config | json")))
	if !eosSecretLine.MatchString(got) {
		t.Error("no sha512 secret in the username line")
	}
}

// TestEOSJSON decodes `| json` with encoding/json: the nested cmds shape, and the keys in the
// order of the text's lines.
func TestEOSJSON(t *testing.T) {
	sw := startEOS(t)
	c := newEOSCLI(t, sw, eosRoCE...)
	text := c.Run("show running-config | json")
	type block struct {
		Cmds     map[string]json.RawMessage `json:"cmds"`
		Comments []string                   `json:"comments"`
	}
	var top struct {
		block
		Header []string `json:"header"`
	}
	if err := json.Unmarshal([]byte(text), &top); err != nil {
		t.Fatalf("| json does not parse: %v\n%s", err, text)
	}
	if !slices.Equal(top.Header, []string{"! device: eos-1 (DCS-7280SR3-48YC8, EOS-4.31.2F)\n", "! boot system flash:/EOS-4.31.2F.swi\n"}) || top.Comments == nil {
		t.Errorf("header %q, comments %v", top.Header, top.Comments)
	}
	var profile, queue block
	if err := json.Unmarshal(top.Cmds["qos profile ROCE"], &profile); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(profile.Cmds["tx-queue 3"], &queue); err != nil {
		t.Fatal(err)
	}
	if string(queue.Cmds["bandwidth percent 50"]) != "null" || string(top.Cmds["qos map cos 5 to traffic-class 3"]) != "null" ||
		string(top.Cmds["end"]) != "null" || string(profile.Cmds["qos trust dscp"]) != "null" {
		t.Errorf("cmds: %s", text)
	}
	var iface2 block
	if err := json.Unmarshal(top.Cmds["interface Ethernet2"], &iface2); err != nil || iface2.Cmds == nil || len(iface2.Cmds) != 0 {
		t.Errorf("an empty interface: %v %+v", err, iface2)
	}
	// The top-level keys in order are the text's top-level lines.
	var want []string
	for _, l := range strings.Split(sw.RunningConfig(), "\n") {
		if l != "" && !strings.HasPrefix(l, "!") && !strings.HasPrefix(l, " ") {
			want = append(want, l)
		}
	}
	if got := topKeys(t, text); !slices.Equal(got, want) {
		t.Errorf("key order:\n%q\nwant\n%q", got, want)
	}
}

// topKeys lists the keys of the top-level "cmds" object in document order.
func topKeys(t *testing.T, text string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	var keys []string
	depth := 0
	inCmds := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return keys
		}
		if err != nil {
			t.Fatal(err)
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				inCmds = v == "cmds"
				if inCmds {
					continue
				}
			}
			if depth == 2 && inCmds && dec.More() {
				keys = append(keys, v)
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestEOSShowFilters(t *testing.T) {
	sw := startEOS(t)
	c := newEOSCLI(t, sw, eosRoCE...)
	cases := []struct{ line, want string }{
		{"show running-config | section qos map d", "qos map dscp 0 1 2 3 4 5 6 7 to traffic-class 0\nqos map dscp 24 25 to traffic-class 4\n" +
			"qos map dscp 18 20 22 to traffic-class 4 drop-precedence 2\nqos map dscp 48 to traffic-class 7\n"},
		{"show running-config section ^interface Ethernet3$", "interface Ethernet3\n   service-profile ROCE\n"},
		{"sh run sec EMPTY", "qos profile EMPTY\n"},
		{"sh run int Et3", "interface Ethernet3\n   service-profile ROCE\n"},
		{"sh run | i service-profile", "   service-profile ROCE\n   service-profile ROCE\n"},
		{"sh run | begin ^interface Ethernet4 | exclude ^!", "interface Ethernet4\nqos map cos 1 to traffic-class 2\n" +
			"qos map cos 5 to traffic-class 3\nqos map dscp 0 1 2 3 4 5 6 7 to traffic-class 0\n" +
			"qos map dscp 24 25 to traffic-class 4\nqos map dscp 18 20 22 to traffic-class 4 drop-precedence 2\n" +
			"qos map dscp 48 to traffic-class 7\nqos map traffic-class 6 to tx-queue 2\nqos map traffic-class 5 7 to tx-queue 6\nend\n"},
		{"sh run | no-more | include ^hostname", "hostname eos-1\n"},
	}
	for _, tc := range cases {
		if got := c.Run(tc.line); got != tc.want {
			t.Errorf("%q:\n%s\nwant:\n%s", tc.line, got, tc.want)
		}
	}
	if got := c.Run("sh run | json"); !regexp.MustCompile(`^\{\n    "cmds": \{\n`).MatchString(got) {
		t.Errorf("| json: %s", got)
	}
}
