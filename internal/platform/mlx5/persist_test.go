package mlx5

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The boot units as the provider writes them, and what systemd itself says of them.
func TestUnitGoldens(t *testing.T) {
	s, nic, d := contractOnFullHost(t)
	units := map[string]string{
		UnitName(KindNICQoS, "eth0"): Unit(KindNICQoS, "eth0", s, &nic, nil),
		UnitName(KindDCQCN, "eth0"):  Unit(KindDCQCN, "eth0", s, nil, &d),
	}
	dir := t.TempDir()
	for name, content := range units {
		golden(t, name, content)
		if strings.ContainsAny(content, `\'`) {
			t.Errorf("%s holds a backslash or single quote, which echo would garble or the quoting would split:\n%s", name, content)
		}
		// The ExecStart script is exactly the writes ApplyScript makes for the resource.
		line := ""
		for _, l := range strings.Split(content, "\n") {
			if strings.HasPrefix(l, "ExecStart=") {
				line = l
			}
		}
		want := map[string]*script{
			UnitName(KindNICQoS, "eth0"): writes("", "eth0", s, &nic, nil, false),
			UnitName(KindDCQCN, "eth0"):  writes("", "eth0", s, nil, &d, false),
		}[name]
		if !strings.HasSuffix(line, `/bin/sh -c "`+strings.Join(want.cmds, " && ")+`"`) ||
			!strings.HasPrefix(line, "ExecStart=/usr/bin/flock -w 60 /run/lock/roce-eth0.lock ") {
			t.Errorf("%s runs %q", name, line)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_SYSTEMCTL") == "1" {
			t.Fatalf("ROCE_REQUIRE_SYSTEMCTL=1 but no systemd-analyze: %v", err)
		}
		t.Log("no systemd-analyze (Debian package systemd): the units are not checked by systemd")
		return
	}
	for name := range units {
		// verify loads the unit as the manager would (no running manager needed) and fails on
		// a bad setting, quoting or specifier, or a missing executable.
		cmd := exec.Command(analyze, "verify", "./"+name)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify %s: %v\n%s", name, err, out)
		}
	}
}

func TestSystemdQuote(t *testing.T) {
	for in, want := range map[string]string{
		"echo 1 > /sys/x":  `"echo 1 > /sys/x"`,
		`a"b\c`:            `"a\"b\\c"`,
		"100% $HOME":       `"100%% $$HOME"`,
		"mlnx_qos -i eth0": `"mlnx_qos -i eth0"`,
	} {
		if got := systemdQuote(in); got != want {
			t.Errorf("systemdQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// A refresh reads the units back from grep -H: installed and enabled with the content the
// provider would write is persisted; an edit, a missing link or a missing file is not.
func TestPersistedFromRead(t *testing.T) {
	s := readFixture(t, "read-full.txt")
	nic := contractNIC()
	content := Unit(KindNICQoS, "eth0", s, &nic, nil)
	name := UnitName(KindNICQoS, "eth0")
	grepLines := func(content string, linked bool) []string {
		var out []string
		for _, l := range nonEmptyLines(content) {
			out = append(out, UnitDir+"/"+name+":"+l)
		}
		if linked {
			for _, l := range nonEmptyLines(content) {
				out = append(out, UnitDir+"/sys-subsystem-net-devices-eth0.device.wants/"+name+":"+l)
			}
		}
		return out
	}
	for _, c := range []struct {
		what  string
		lines []string
		want  bool
	}{
		{"installed and enabled", grepLines(content, true), true},
		{"disabled", grepLines(content, false), false},
		{"edited", grepLines(strings.Replace(content, "--trust dscp", "--trust pcp", 1), true), false},
		{"no unit", []string{"grep: /etc/systemd/system/roce-*.service: No such file or directory"}, false},
		{"a dangling link", grepLines(content, true)[len(nonEmptyLines(content)):], false},
	} {
		st := *s
		st.Units = parseUnits(c.lines)
		if got := st.Persisted(KindNICQoS, content); got != c.want {
			t.Errorf("%s: Persisted = %v, want %v (units %+v)", c.what, got, c.want, st.Units)
		}
		if st.Persisted(KindDCQCN, content) {
			t.Errorf("%s: the DCQCN unit reads as persisted", c.what)
		}
	}
}

// reUnitLine is the definition unitLine implements without a regular expression.
var reUnitLine = regexp.MustCompile(`^` + regexp.QuoteMeta(UnitDir) + `/(?:([^/:]+)\.wants/)?(roce-[^/:]+\.service):(.*)$`)

// unitLine splits exactly the lines the pattern matches, into the pattern's groups.
func FuzzUnitLine(f *testing.F) {
	for _, l := range []string{
		UnitDir + "/roce-nic-qos-eth0.service:[Unit]",
		UnitDir + "/roce-nic-qos-eth0.service:ExecStart=/bin/sh -c 'a:b'",
		UnitDir + "/sys-subsystem-net-devices-eth0.device.wants/roce-dcqcn-eth0.service:[Install]",
		UnitDir + "/roce-nic-qos-eth0.service:",
		UnitDir + "/roce-.service:x",
		UnitDir + "/roce-a.service",
		UnitDir + "/.wants/roce-a.service:x",
		UnitDir + "/a.wants/b/roce-a.service:x",
		UnitDir + "/a.wantsx/roce-a.service:x",
		UnitDir + "/multi-user.target.wants/roce-a.service:x:y",
		UnitDir + "/roce-a.servicex:y",
		UnitDir + "/xroce-a.service:y",
		UnitDir + "roce-a.service:y",
		"/etc/systemd/systemx/roce-a.service:y",
		"grep: /etc/systemd/system/roce-*.service: No such file or directory",
		UnitDir + "/roce-a.service:line\nmore",
		UnitDir + "/roce-a/b.service:x",
	} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		wants, unit, line, ok := unitLine(l)
		m := reUnitLine.FindStringSubmatch(l)
		if ok != (m != nil) || ok && (wants != m[1] || unit != m[2] || line != m[3]) {
			t.Errorf("unitLine(%q) = %q, %q, %q, %v; the pattern gives %q", l, wants, unit, line, ok, m)
		}
	})
}
