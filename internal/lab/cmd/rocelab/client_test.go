package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

const ecnProfile = "/qos/queue-management-profiles/queue-management-profile[name=ROCE-roce]"

func TestGetSet(t *testing.T) {
	l, dir := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1}})

	ok := func(args ...string) string {
		t.Helper()
		code, out, errOut := runArgs(args...)
		if code != 0 {
			t.Fatalf("rocelab %q: exit %d\n%s%s", args, code, out, errOut)
		}
		return out
	}
	ok("set", "--dir", dir, "openconfig-1", ecnProfile, `{"name":"ROCE-roce","config":{"name":"ROCE-roce"}}`)
	out := ok("set", "--dir", dir, "openconfig-1", ecnProfile+"/wred/uniform/config/min-threshold", `"100000"`)
	if !strings.Contains(out, `min-threshold = "100000"`) {
		t.Errorf("set says %q", out)
	}
	if got := ok("get", "--dir", dir, "openconfig-1", ecnProfile+"/wred/uniform/config/min-threshold"); got != "\"100000\"\n" {
		t.Errorf("get of the leaf: %q, want \"100000\"", got)
	}
	// A container comes back pretty-printed, with its module-qualified members.
	got := ok("get", "--dir", dir, "openconfig-1", ecnProfile)
	for _, want := range []string{"{\n  \"openconfig-qos:config\": {\n", `"min-threshold": "100000"`} {
		if !strings.Contains(got, want) {
			t.Errorf("get of the profile lacks %q:\n%s", want, got)
		}
	}

	missing := filepath.Join(t.TempDir(), "nolab")
	// An inventory whose CA certificate is not PEM (edited by hand): refused before any dial.
	badCA := t.TempDir()
	if err := os.WriteFile(filepath.Join(badCA, lab.InventoryFile), []byte(`{"devices": {"openconfig-1": {"address": "127.0.0.1:1",
		"platform": "openconfig", "username": "admin", "password": "x", "ca_certificate": "not a certificate"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"get", "--dir", dir, "leaf-9", "/qos"}, 1, `device "leaf-9" is not in ` + filepath.Join(dir, "inventory.json") + " (devices: openconfig-1)"},
		{[]string{"get", "--dir", missing, "openconfig-1", "/qos"}, 1, "no lab inventory at " + filepath.Join(missing, "inventory.json")},
		{[]string{"get", "--dir", badCA, "openconfig-1", "/qos"}, 1, `device "openconfig-1": ca_certificate in ` + filepath.Join(badCA, "inventory.json") + " is not a PEM certificate"},
		{[]string{"get", "--dir", dir, "openconfig-1", "qos"}, 1, `bad path "qos": it must start with /`},
		{[]string{"get", "--dir", dir, "openconfig-1", "/qos/nope"}, 1, "openconfig-1: get /qos/nope: nothing there (NotFound)"},
		{[]string{"get", "--dir", dir, "openconfig-1", ecnProfile[:len(ecnProfile)-1]}, 1, "unclosed ["},
		{[]string{"set", "--dir", dir, "openconfig-1", "/qos/nope", "1"}, 1, "openconfig-1: set /qos/nope: InvalidArgument"},
		{[]string{"set", "--dir", dir, "openconfig-1", ecnProfile + "/wred/uniform/config/min-threshold", "100000x"}, 1, "is not JSON"},
		{[]string{"set", "--dir", dir, "openconfig-1", ecnProfile + "/wred/uniform/state/min-threshold", `"1"`}, 1, "operational state"},
		{[]string{"get", "--dir", dir, "openconfig-1"}, 2, "want 2 arguments (DEVICE PATH), got 1"},
		{[]string{"set", "--dir", dir, "openconfig-1", "/qos"}, 2, "want 3 arguments (DEVICE PATH JSON), got 2"},
		{[]string{"get", "openconfig-1", "/qos"}, 2, "--dir is required"},
	} {
		code, out, errOut := runArgs(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("rocelab %q: exit %d, %q; want exit %d with %q", tc.args, code, out+errOut, tc.code, tc.want)
		}
	}

	l.Stop()
	code, _, errOut := runArgs("get", "--dir", dir, "openconfig-1", "/qos")
	if code != 1 || !strings.Contains(errOut, "cannot reach") {
		t.Errorf("get from a stopped lab: exit %d, %q", code, errOut)
	}
}

func TestParsePath(t *testing.T) {
	elem := func(name string, kv ...string) *gpb.PathElem {
		e := &gpb.PathElem{Name: name}
		for i := 0; i < len(kv); i += 2 {
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			e.Key[kv[i]] = kv[i+1]
		}
		return e
	}
	good := map[string][]*gpb.PathElem{
		"/":                          nil,
		"/qos":                       {elem("qos")},
		"/a/b":                       {elem("a"), elem("b")},
		"/a[k=v]/c":                  {elem("a", "k", "v"), elem("c")},
		"/a[k=v][k2=w]":              {elem("a", "k", "v", "k2", "w")},
		"/i[name=Ethernet1/1]/c":     {elem("i", "name", "Ethernet1/1"), elem("c")},
		"/i[expr=a=b]":               {elem("i", "expr", "a=b")},
		`/i[name=x\]y]`:              {elem("i", "name", "x]y")},
		"/i[name=]":                  {elem("i", "name", "")},
		"/openconfig-qos:qos/x[a=1]": {elem("openconfig-qos:qos"), elem("x", "a", "1")},
	}
	for in, elems := range good {
		got, err := parsePath(in)
		want := &gpb.Path{Origin: "openconfig", Elem: elems}
		if err != nil || !proto.Equal(got, want) {
			t.Errorf("parsePath(%q) = %v, %v; want %v", in, prototext.Format(got), err, prototext.Format(want))
		}
	}
	bad := map[string]string{
		"":             "must start with /",
		"qos":          "must start with /",
		"//qos":        "empty element name",
		"/qos/":        "trailing /",
		"/a[k=v":       "unclosed [",
		"/a[kv]":       "is not key=value",
		"/a[=v]":       "is not key=value",
		"/a[k=1][k=2]": `key "k" repeated`,
		"/a]":          `unexpected "]"`,
		"/a[k=v]b":     `unexpected "b"`,
		"/[k=v]":       "empty element name",
	}
	for in, want := range bad {
		if _, err := parsePath(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parsePath(%q): %v, want an error with %q", in, err, want)
		}
	}
}

// TestDown runs the real binary: `down` must stop what `up` started.
func TestDown(t *testing.T) {
	bin := buildRocelab(t)
	dir := filepath.Join(t.TempDir(), "lab")

	if code, out, errOut := runArgs("down", "--dir", dir); code != 0 || !strings.Contains(out, "no lab is running") {
		t.Errorf("down with nothing running: exit %d, %q", code, out+errOut)
	}

	cmd := exec.Command(bin, "up", "--dir", dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	waitFor(t, filepath.Join(dir, lab.InventoryFile))

	// The test does not reap the child until down returns: down must not
	// mistake the exited (zombie) process for a running one (it would wait out
	// its timeout and fail).
	code, out, errOut := runArgs("down", "--dir", dir)
	if code != 0 || !strings.Contains(out, "stopped") {
		t.Fatalf("down: exit %d, %q", code, out+errOut)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("up after down: %v (want exit 0)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, PIDFile)); !os.IsNotExist(err) {
		t.Errorf("pid file left behind: %v", err)
	}

	// A stale pid file (the lab was killed) is cleaned up, not an error.
	pidPath := filepath.Join(dir, PIDFile)
	if err := os.WriteFile(pidPath, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runArgs("down", "--dir", dir); code != 0 || !strings.Contains(out, "stale") {
		t.Errorf("down with a stale pid file: exit %d, %q", code, out+errOut)
	}

	// A reused pid that is not a lab is left alone.
	if _, err := os.Stat("/proc/self/cmdline"); err == nil {
		other := exec.Command("sleep", "30")
		if err := other.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
		if err := os.WriteFile(pidPath, []byte(strconv.Itoa(other.Process.Pid)), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runArgs("down", "--dir", dir); code != 1 || !strings.Contains(errOut, `is "sleep", not rocelab`) {
			t.Errorf("down on another program's pid: exit %d, %q", code, errOut)
		}
	}

	// A pid whose command line reads empty (a process in the middle of
	// exec, or a kernel thread) is not signalled: an empty name is not
	// a licence to stop it.
	if b, err := os.ReadFile("/proc/2/cmdline"); err == nil && len(b) == 0 {
		if err := os.WriteFile(pidPath, []byte("2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runArgs("down", "--dir", dir); code != 1 || !strings.Contains(errOut, "cannot read its command line") {
			t.Errorf("down on a pid with an empty command line: exit %d, %q", code, errOut)
		}
	} else {
		t.Log("no kernel thread at pid 2 in this pid namespace: the empty-command-line case is not checked here")
	}

	if code, _, errOut := runArgs("down"); code != 2 || !strings.Contains(errOut, "--dir is required") {
		t.Errorf("down without --dir: exit %d, %q", code, errOut)
	}
}
