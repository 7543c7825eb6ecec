package devices

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func sp(s string) *string { return &s }
func bp(b bool) *bool     { return &b }

func TestResolveDefaultsEnvAndOverrides(t *testing.T) {
	devs, probs := Resolve(Settings{Password: sp("provider-pw")}, map[string]Spec{
		"leaf-1": {Address: "10.0.0.1:9339", Platform: "openconfig"},
		"leaf-2": {Address: "10.0.0.2:9339", Platform: "openconfig", Username: sp("ops"), Password: sp("leaf2-pw"), Insecure: bp(true), GNMITarget: sp("leaf2")},
		"gpu-1":  {Address: "10.0.1.1:22", Platform: "mlx5", Sudo: bp(true), HostKey: sp("ssh-ed25519 AAAA")},
	}, env(map[string]string{EnvUsername: "env-user", EnvPassword: "env-pw", EnvPrivateKey: "env-key"}))
	if len(probs) != 0 {
		t.Fatalf("unexpected problems: %+v", probs)
	}
	l1 := devs["leaf-1"]
	if l1.Username != "env-user" || l1.Password != "provider-pw" || l1.PrivateKey != "env-key" {
		t.Errorf("leaf-1 credentials: provider attribute must win over env, env fills the rest; got user=%q pw=%q key=%q", l1.Username, l1.Password, l1.PrivateKey)
	}
	if l1.Timeout != DefaultTimeout || l1.Retries != DefaultRetries || l1.Insecure {
		t.Errorf("leaf-1 defaults: timeout=%s retries=%d insecure=%v", l1.Timeout, l1.Retries, l1.Insecure)
	}
	l2 := devs["leaf-2"]
	if l2.Username != "ops" || l2.Password != "leaf2-pw" || !l2.Insecure || l2.GNMITarget != "leaf2" {
		t.Errorf("leaf-2 overrides not applied: %+v", l2)
	}
	g := devs["gpu-1"]
	if !g.Sudo || g.HostKey != "ssh-ed25519 AAAA" || g.Platform != "mlx5" || g.Name != "gpu-1" {
		t.Errorf("gpu-1: %+v", g)
	}
	if got := InsecureDevices(devs); len(got) != 1 || got[0] != "leaf-2" {
		t.Errorf("InsecureDevices = %v, want [leaf-2]", got)
	}
}

func TestResolveProviderInsecureAppliesToAllUnlessOverridden(t *testing.T) {
	devs, _ := Resolve(Settings{Insecure: bp(true)}, map[string]Spec{
		"a": {Address: "a:1", Platform: "openconfig"},
		"b": {Address: "b:1", Platform: "openconfig", Insecure: bp(false)},
	}, env(nil))
	if got := InsecureDevices(devs); len(got) != 1 || got[0] != "a" {
		t.Fatalf("InsecureDevices = %v, want [a]", got)
	}
}

func TestResolveTimeoutAndRetries(t *testing.T) {
	devs, probs := Resolve(Settings{Timeout: sp("2m"), Retries: func() *int64 { v := int64(0); return &v }()},
		map[string]Spec{"a": {Address: "a:1", Platform: "sonic"}}, env(nil))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	if devs["a"].Timeout != 2*time.Minute || devs["a"].Retries != 0 {
		t.Errorf("got timeout %s retries %d", devs["a"].Timeout, devs["a"].Retries)
	}
}

func TestResolveProblems(t *testing.T) {
	neg := int64(-1)
	cases := []struct {
		name    string
		s       Settings
		specs   map[string]Spec
		attr    string
		device  string
		field   string
		mention string
	}{
		{"bad timeout", Settings{Timeout: sp("soon")}, nil, "timeout", "", "", `"soon"`},
		{"zero timeout", Settings{Timeout: sp("0s")}, nil, "timeout", "", "", "positive"},
		{"negative retries", Settings{Retries: &neg}, nil, "retries", "", "", "-1"},
		{"slash in name", Settings{}, map[string]Spec{"leaf/1": {Address: "a:1", Platform: "eos"}}, "devices", "leaf/1", "", "no '/'"},
		{"unknown platform", Settings{}, map[string]Spec{"x": {Address: "a:1", Platform: "junos"}}, "devices", "x", "platform", "openconfig, sonic, eos, nxos, cumulus, mlx5"},
		{"no address", Settings{}, map[string]Spec{"x": {Platform: "eos"}}, "devices", "x", "address", "needs an address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, probs := Resolve(c.s, c.specs, env(nil))
			if len(probs) != 1 {
				t.Fatalf("want one problem, got %+v", probs)
			}
			p := probs[0]
			if p.Attr != c.attr || p.Device != c.device || p.Field != c.field {
				t.Errorf("problem at %s/%s/%s, want %s/%s/%s", p.Attr, p.Device, p.Field, c.attr, c.device, c.field)
			}
			if !strings.Contains(p.Detail, c.mention) {
				t.Errorf("detail %q does not mention %q", p.Detail, c.mention)
			}
		})
	}
}

func TestRegistryUnknownDeviceAndLazyClients(t *testing.T) {
	r := NewRegistry(map[string]Device{"leaf-1": {Name: "leaf-1", Address: "127.0.0.1:1", Platform: "openconfig"},
		"eos-1": {Name: "eos-1", Address: "127.0.0.1:2", Platform: "eos"}}, nil)
	if _, err := r.GNMI("spine-9"); err == nil || !strings.Contains(err.Error(), "eos-1, leaf-1") {
		t.Errorf("unknown device error should list configured devices, got %v", err)
	}
	if _, err := r.GNMI("eos-1"); err == nil || !strings.Contains(err.Error(), "not reached over gNMI") {
		t.Errorf("CLI device over gNMI: got %v", err)
	}
	a, err := r.GNMI("leaf-1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.GNMI("leaf-1")
	if a != b {
		t.Error("one client per device per process: got two")
	}
}

func TestRegistrySSHClients(t *testing.T) {
	r := NewRegistry(map[string]Device{
		"gpu-1":  {Name: "gpu-1", Address: "127.0.0.1:2", Platform: "mlx5", HostKey: "ssh-ed25519 AAAA"},
		"leaf-1": {Name: "leaf-1", Address: "127.0.0.1:1", Platform: "openconfig"},
	}, nil)
	if _, err := r.SSH("leaf-1"); err == nil || !strings.Contains(err.Error(), "not a host reached over SSH") {
		t.Errorf("gNMI device over SSH: %v", err)
	}
	a, err := r.SSH("gpu-1")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := r.SSH("gpu-1"); a != b {
		t.Error("one SSH client per host per process: got two")
	}
	if a.Config().KnownHostsFile != "" {
		t.Errorf("a pinned host_key must be used instead of known_hosts, got %q", a.Config().KnownHostsFile)
	}
}
