package lab

import (
	"net/http"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestDeviceCounters makes two requests over one connection to a device of every platform and
// reads them through the uniform view.
func TestDeviceCounters(t *testing.T) {
	l := startLab(t, Options{
		Switches: map[string]int{"openconfig": 1, "sonic": 1, "eos": 1, "nxos": 1, "cumulus": 1},
		Hosts:    map[string]int{"mlx5": 1},
		Ports:    2,
	})
	for _, name := range l.Devices() {
		if c, ok := l.DeviceCounters(name); !ok || c != (DeviceCounters{}) {
			t.Errorf("%s before any request: %+v, %v", name, c, ok)
		}
	}

	for name, p := range map[string]*gpb.Path{"openconfig-1": ocPath(t, "/interfaces/interface[name=Ethernet1]/config"), "sonic-1": labtest.SONiCPath("PORT")} {
		c := labtest.Dial(t, entry(t, l, name))
		if _, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Get(labtest.Ctx(t), &gpb.GetRequest{Path: []*gpb.Path{p}, Encoding: gpb.Encoding_JSON_IETF}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for name, cmd := range map[string]string{"mlx5-1": "echo hi", "eos-1": "show running-config", "nxos-1": "show running-config"} {
		c := sshClient(t, entry(t, l, name))
		for range 2 {
			if _, errOut, status := runOn(t, c, cmd, ""); status != 0 {
				t.Errorf("%s: %q: exit %d, %q", name, cmd, status, errOut)
			}
		}
	}
	// NVUE: a GET of configuration (a read) and one of the revisions (not a read), on one
	// connection.
	nv := labtest.NewNVUE(t, entry(t, l, "cumulus-1"))
	nv.Must(http.MethodGet, "/qos?rev=applied", nil)
	nv.Must(http.MethodGet, "/revision", nil)
	for _, name := range l.Devices() {
		// gNMI: a Capabilities and a Get, one of them a read; hosts and CLI switches: two reads.
		want := DeviceCounters{Connections: 1, Requests: 2, Reads: 2}
		if name == "openconfig-1" || name == "sonic-1" || name == "cumulus-1" {
			want.Reads = 1
		}
		if c, ok := l.DeviceCounters(name); !ok || c != want {
			t.Errorf("%s: %+v, %v; want %+v", name, c, ok, want)
		}
	}
	if sw := l.Switch("openconfig-1").Counters(); sw.Capabilities != 1 || sw.Get != 1 {
		t.Errorf("openconfig-1's own counters: %+v", sw)
	}
	if h := l.Host("mlx5-1").Counters(); h != (HostCounters{Exec: 2, Connections: 1}) {
		t.Errorf("mlx5-1's own counters: %+v", h)
	}
	if c, ok := l.DeviceCounters("nope-1"); ok || c != (DeviceCounters{}) {
		t.Errorf("an unknown device: %+v, %v", c, ok)
	}

	l.ResetAllCounters()
	for _, name := range l.Devices() {
		if c, _ := l.DeviceCounters(name); c != (DeviceCounters{}) {
			t.Errorf("%s after ResetAllCounters: %+v", name, c)
		}
	}
}

// TestLatencyEveryPlatform checks that Options.Latency delays the SSH handshake and every
// exec request of hosts and CLI switches, and every gNMI RPC of sonic switches (openconfig:
// TestLatency). Only lower bounds: a loaded machine may take longer.
func TestLatencyEveryPlatform(t *testing.T) {
	const latency = 100 * time.Millisecond
	l := startLab(t, Options{
		Switches: map[string]int{"sonic": 1, "eos": 1, "nxos": 1},
		Hosts:    map[string]int{"mlx5": 1},
		Ports:    2,
		Latency:  latency,
	})
	atLeast := func(what string, start time.Time) {
		t.Helper()
		if took := time.Since(start); took < latency {
			t.Errorf("%s took %s with latency %s", what, took, latency)
		}
	}
	for name, cmd := range map[string]string{"mlx5-1": "true", "eos-1": "show running-config", "nxos-1": "show running-config"} {
		start := time.Now()
		c := sshClient(t, entry(t, l, name))
		atLeast(name+" login", start)
		start = time.Now()
		if _, errOut, status := runOn(t, c, cmd, ""); status != 0 {
			t.Errorf("%s: %q: exit %d, %q", name, cmd, status, errOut)
		}
		atLeast(name+" exec", start)
	}

	c := labtest.Dial(t, entry(t, l, "sonic-1"))
	if _, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil { // connect
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil {
		t.Fatal(err)
	}
	atLeast("sonic-1 Capabilities", start)
}

func ocPath(t *testing.T, s string) *gpb.Path {
	t.Helper()
	p := labtest.Path(t, s)
	p.Origin = "openconfig"
	return p
}

// TestCLIReadsCountConfigurationReadsOnly: the terminal set-up a CLI client sends after login
// and configuration lines are requests, not reads; `sh run` abbreviated is a read.
func TestCLIReadsCountConfigurationReadsOnly(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"eos": 1}, Ports: 2})
	sw := l.EOS("eos-1")
	for _, line := range []string{"terminal length 0", "show version", "sh run", "show running-config interfaces Ethernet1", "show run-x"} {
		sw.CountCommand(strings.Fields(line))
	}
	if c, _ := l.DeviceCounters("eos-1"); c.Requests != 5 || c.Reads != 2 {
		t.Errorf("counters %+v: want 5 requests, 2 of them reads", c)
	}
}
