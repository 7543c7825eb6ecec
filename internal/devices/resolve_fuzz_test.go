package devices

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzResolve feeds Resolve two fuzzed devices and fuzzed provider settings. Resolve must not
// panic; every device it resolves has a name NamePattern allows (checked here byte by byte: no
// '/', which splits import IDs, no blank or CLI metacharacter), a known platform and an
// address; every other device is reported as a problem, never dropped silently.
func FuzzResolve(f *testing.F) {
	f.Add("leaf-1", "openconfig", "10.0.0.1:9339", "gpu-1", "mlx5", "30s", int64(3))
	f.Add("sonic-1", "sonic", "[fd00::1]:8080", "eos-1.dc:a", "eos", "2m", int64(0))
	f.Add("nxos_1", "nxos", "nx:22", "leaf/1", "cisco", "-1s", int64(11))
	f.Add("a\nb", "sonic", "", "Z", "eos\n", "0", int64(-1))
	f.Add(strings.Repeat("a", 63), "mlx5", "h:22", strings.Repeat("b", 64), "mlx5", "1h", int64(10))
	f.Fuzz(func(t *testing.T, name1, platform1, addr1, name2, platform2, timeout string, retries int64) {
		specs := map[string]Spec{
			name1: {Address: addr1, Platform: platform1},
			name2: {Address: addr1 + "x", Platform: platform2},
		}
		devs, probs := Resolve(Settings{Timeout: &timeout, Retries: &retries}, specs, func(string) string { return "" })
		wantTimeout, timeoutOK := time.Duration(0), false
		if d, err := time.ParseDuration(timeout); err == nil && d > 0 {
			wantTimeout, timeoutOK = d, true
		}
		reported := map[string]bool{}
		for _, p := range probs {
			if p.Summary == "" || p.Detail == "" || p.Attr == "" {
				t.Errorf("problem without attribute, summary or detail: %+v", p)
			}
			if p.Attr == "timeout" && timeoutOK || p.Attr == "retries" && retries >= 0 && retries <= 10 {
				t.Errorf("valid %s refused: %+v", p.Attr, p)
			}
			reported[p.Device] = true
		}
		if !timeoutOK && !slices.ContainsFunc(probs, func(p Problem) bool { return p.Attr == "timeout" }) {
			t.Errorf("timeout %q accepted", timeout)
		}
		if (retries < 0 || retries > 10) && !slices.ContainsFunc(probs, func(p Problem) bool { return p.Attr == "retries" }) {
			t.Errorf("retries %d accepted", retries)
		}
		for name, spec := range specs {
			d, ok := devs[name]
			if ok == reported[name] {
				t.Errorf("device %q: resolved %v, reported %v: want exactly one", name, ok, reported[name])
			}
			if !ok {
				continue
			}
			if !validDeviceName(name) {
				t.Errorf("accepted device name %q", name)
			}
			if d.Name != name || d.Address != spec.Address || d.Address == "" || d.Platform != spec.Platform ||
				!slices.Contains(Platforms, d.Platform) || Transport(d.Platform) == "" {
				t.Errorf("device %q resolved as %+v", name, d)
			}
			if timeoutOK && d.Timeout != wantTimeout || !timeoutOK && d.Timeout != DefaultTimeout || d.Timeout <= 0 {
				t.Errorf("device %q timeout %s (configured %q)", name, d.Timeout, timeout)
			}
			if d.Retries < 0 || d.Retries > 10 {
				t.Errorf("device %q retries %d", name, d.Retries)
			}
		}
		for name := range devs {
			if _, ok := specs[name]; !ok {
				t.Errorf("resolved device %q that was not configured", name)
			}
		}
	})
}

// validDeviceName restates NamePattern: 1-63 bytes, a letter or digit, then letters, digits,
// '_', '.', ':' and '-'.
func validDeviceName(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("_.:-", rune(c))) {
			return false
		}
	}
	return true
}
