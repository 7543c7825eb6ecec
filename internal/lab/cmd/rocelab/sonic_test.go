package main

import (
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/protobuf/proto"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func TestGetSetSONiC(t *testing.T) {
	l, dir := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Ports: 2})
	run := func(want int, args ...string) (string, string) {
		t.Helper()
		code, out, errOut := runArgs(args...)
		if code != want {
			t.Fatalf("rocelab %q: exit %d, want %d\n%s%s", args, code, want, out, errOut)
		}
		return out, errOut
	}
	run(0, "set", "--dir", dir, "sonic-1", "/CONFIG_DB/localhost/SCHEDULER/scheduler.0/weight", `"20"`)
	if out, _ := run(0, "get", "--dir", dir, "sonic-1", "/sonic-db:CONFIG_DB/localhost/SCHEDULER/scheduler.0/weight"); out != "\"20\"\n" {
		t.Errorf("get of the field: %q", out)
	}
	run(0, "set", "--dir", dir, "sonic-1", "/sonic-db:CONFIG_DB/localhost/SCHEDULER/ROCE-roce", `{"type":"DWRR","weight":"50"}`)
	run(0, "set", "--dir", dir, "sonic-1", "/CONFIG_DB/localhost/QUEUE/Ethernet4|3/scheduler", `"ROCE-roce"`)
	out, _ := run(0, "get", "--dir", dir, "sonic-1", "/CONFIG_DB/localhost/QUEUE/Ethernet4|3")
	if want := "{\n  \"scheduler\": \"ROCE-roce\",\n  \"wred_profile\": \"AZURE_LOSSLESS\"\n}\n"; out != want {
		t.Errorf("get of the key:\n%s\nwant\n%s", out, want)
	}
	_, errOut := run(1, "set", "--dir", dir, "sonic-1", "/CONFIG_DB/localhost/SCHEDULER/ROCE-roce/weight", `"0"`)
	// What a real switch answers: GCU's YANG load failed (the reason goes to its log).
	if !strings.Contains(errOut, `sonic-1: set /CONFIG_DB/localhost/SCHEDULER/ROCE-roce/weight: Unknown: Error: Validate json patch: `+
		`[{'op': 'add', 'path': '/SCHEDULER/ROCE-roce/weight', 'value': '0'}] failed due to: Data Loading Failed`) {
		t.Errorf("invalid set: %q", errOut)
	}
	if _, errOut := run(1, "get", "--dir", dir, "sonic-1", "/CONFIG_DB/localhost/QUEUE/Ethernet4|9"); !strings.Contains(errOut, "nothing there (NotFound)") {
		t.Errorf("get of a missing key: %q", errOut)
	}

	if got := controlAnswer(l, []string{"storm", "sonic-1", "Ethernet4", "on"}); got != "ok" {
		t.Errorf("storm on a sonic port: %q", got)
	}
	if got := controlAnswer(l, []string{"storm", "sonic-1", "Ethernet1", "on"}); !strings.Contains(got, `sonic-1 has no interface "Ethernet1"`) {
		t.Errorf("storm on a missing sonic port: %q", got)
	}
	if got := controlAnswer(l, []string{"congest", "sonic-1", "Ethernet4", "3", "on"}); got != "ok" {
		t.Errorf("congest a sonic queue: %q", got)
	}
	if got := controlAnswer(l, []string{"congest", "sonic-1", "Ethernet4", "9", "on"}); !strings.Contains(got, "has unicast queues 0-7, not 9") {
		t.Errorf("congest a queue the port lacks: %q", got)
	}
	if got := controlAnswer(l, []string{"congest", "sonic-1", "Ethernet4", "x", "on"}); !strings.Contains(got, "want DEVICE INTERFACE QUEUE on|off") {
		t.Errorf("congest with a queue that is no number: %q", got)
	}
	if code, _, errOut := runArgs("congest", "--dir", dir, "sonic-1"); code != 2 || !strings.Contains(errOut, "want 2 arguments (DEVICE INTERFACE)") {
		t.Errorf("congest without an interface: exit %d, %q", code, errOut)
	}
}

func TestParseSONiCPath(t *testing.T) {
	elems := func(names ...string) []*gpb.PathElem {
		var out []*gpb.PathElem
		for _, n := range names {
			out = append(out, &gpb.PathElem{Name: n})
		}
		return out
	}
	for in, want := range map[string]*gpb.Path{
		"/CONFIG_DB/localhost/QUEUE/Ethernet0|3":           {Origin: "sonic-db", Elem: elems("CONFIG_DB", "localhost", "QUEUE", "Ethernet0|3")},
		"/sonic-db:CONFIG_DB/localhost":                    {Origin: "sonic-db", Elem: elems("CONFIG_DB", "localhost")},
		"/sonic-db:CONFIG_DB/localhost/PORT/Ethernet0/mtu": {Origin: "sonic-db", Elem: elems("CONFIG_DB", "localhost", "PORT", "Ethernet0", "mtu")},
		"/qos/CONFIG_DB":                                   {Origin: "openconfig", Elem: elems("qos", "CONFIG_DB")},
	} {
		if got, err := parsePath(in); err != nil || !proto.Equal(got, want) {
			t.Errorf("parsePath(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// `up --model sonic=SKU` starts that SKU, and the inventory names it.
func TestUpSONiCModel(t *testing.T) {
	dir, inv := upInProcess(t, "--switches", "sonic=1", "--model", "sonic=Arista-7060CX-32S-C32", "--ports", "2")
	if got := inv.Devices["sonic-1"].Model; got != "Arista-7060CX-32S-C32" {
		t.Errorf("inventory model %q", got)
	}
	code, out, errOut := runArgs("get", "--dir", dir, "sonic-1", "/CONFIG_DB/localhost/DEVICE_METADATA/localhost/buffer_model")
	if code != 0 || out != "\"traditional\"\n" {
		t.Errorf("buffer_model of the Broadcom SKU: exit %d, %q %q", code, out, errOut)
	}
}
