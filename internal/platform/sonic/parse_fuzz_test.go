package sonic

import (
	"encoding/json"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// FuzzParseDB feeds ParseDB a Get answer built from fuzzed bytes: a JSON_IETF value at the
// CONFIG_DB root, then a second one at a fuzzed TABLE/KEY/FIELD path below it. Seeds are the
// two parts of the shared sample (testdata/sonic-config_db-qos-1.json.txt) and the corpus
// under testdata/fuzz/FuzzParseDB/ (the sample switch after the example policy and PFC were
// applied). ParseDB must not panic and must refuse values that are not exactly one JSON value
// (no silent acceptance of garbage); on whatever it accepts, every read (PolicyWith, PFC,
// PortFields) and every builder fed from it (BuildSet, BuildPFCSet) must not panic, and a
// policy it reports must rest on its DSCP_TO_TC_MAP and SCHEDULER keys. `make fuzz` runs it
// for FUZZTIME.
func FuzzParseDB(f *testing.F) {
	raw := goldenfile.Read(f, "testdata/sonic-config_db-qos-1.json.txt")
	// The sample's JSON blocks: runs of lines between '#' and blank lines; the second one is
	// a list of flat "TABLE|KEY": {...} members.
	var blocks []string
	cur := ""
	for _, line := range strings.Split(raw+"\n#", "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			if cur != "" {
				blocks = append(blocks, cur)
			}
			cur = ""
			continue
		}
		cur += line + "\n"
	}
	for i, b := range blocks {
		if i > 0 {
			b = "{" + strings.TrimSuffix(strings.TrimSpace(b), ",") + "}"
		}
		f.Add([]byte(b), "", []byte(nil))
		f.Add([]byte(b), "PORT_QOS_MAP/Ethernet0/pfc_enable", []byte(`"3,4"`))
	}
	f.Add([]byte(`{}`), "QUEUE/Ethernet0|3", []byte(`{"scheduler": "[SCHEDULER|ROCE-roce]", "wred_profile": null}`))
	f.Add([]byte(`{"PORT": {"Ethernet0": {"lanes": ["0", "1"], "mtu": 9100}}}`), "PORT", []byte(`{"Ethernet4": {}}`))
	f.Fuzz(func(t *testing.T, root []byte, path string, value []byte) {
		elems := []*gpb.PathElem{{Name: dbName}, {Name: namespace}}
		ups := []*gpb.Update{{Path: &gpb.Path{Elem: elems}, Val: jsonVal(root)}}
		if path != "" {
			p := &gpb.Path{Elem: append([]*gpb.PathElem{}, elems...)}
			for _, n := range strings.Split(path, "/") {
				p.Elem = append(p.Elem, &gpb.PathElem{Name: n})
			}
			ups = append(ups, &gpb.Update{Path: p, Val: jsonVal(value)})
		}
		db, err := ParseDB(ups)
		if platformtest.Refused(t, "a database", db, err) {
			return
		}
		if !json.Valid(root) || path != "" && !json.Valid(value) {
			t.Fatalf("accepted a value that is not one JSON value: %q / %q", root, value)
		}
		checkDB(t, db)
	})
}

func jsonVal(b []byte) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b}}
}

func checkDB(t *testing.T, db *DB) {
	t.Helper()
	for table, keys := range db.tables {
		for key, e := range keys {
			if len(e) == 0 {
				t.Errorf("%s|%s exists without fields", table, key)
			}
		}
	}
	ex := examplePolicy()
	var ports []string
	for _, port := range db.keys(tPort) {
		if len(fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}.Validate()) == 0 {
			ports = append(ports, port)
		}
	}
	restore := map[string]PortBinding{}
	for _, port := range append(db.keys(tPortQoSMap), ports...) {
		restore[port] = db.PortFields(port)
	}
	for _, name := range db.keys(tDSCPToTC) {
		for _, known := range []*fabric.QoSPolicy{nil, ex} {
			p, ok := db.PolicyWith(name, known)
			if !ok {
				continue
			}
			if p.Name != name {
				t.Fatalf("PolicyWith(%q) named %q", name, p.Name)
			}
			checkPolicy(t, db, p)
			_ = Canonical(*p)
			if len(p.Validate()) == 0 && len(CheckSupported(*p)) == 0 {
				for _, step := range []struct{ prior, next *fabric.QoSPolicy }{{nil, p}, {p, p}, {p, nil}, {p, ex}} {
					if _, err := BuildSet(step.prior, step.next, restore, db); err != nil {
						t.Fatalf("BuildSet of policy %q read back: %v", name, err)
					}
				}
			}
		}
	}
	if _, ok := db.Policy("no such policy"); ok {
		t.Error("Policy of a missing map")
	}
	ex.Interfaces = ports
	for _, step := range []struct{ prior, next *fabric.QoSPolicy }{{nil, ex}, {ex, nil}} {
		if _, err := BuildSet(step.prior, step.next, restore, db); err != nil {
			t.Fatalf("BuildSet of the example: %v", err)
		}
	}
	for _, port := range ports {
		read, ok := db.PFC(port)
		if !ok || read.Interface != port {
			t.Fatalf("PFC(%q) = %+v, %v", port, read, ok)
		}
		mine := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOn,
			Buffer:   &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(122880)), XonBytes: fabric.Ptr(int64(61440)), CableLengthM: fabric.Ptr(40)},
			Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop, DetectionTimeMs: 400, RestorationTimeMs: 800}}
		prior := db.PFCPrior(port, *mine)
		_ = CheckPFCAgainst(*read, db)
		for _, step := range []struct{ prior, next *fabric.PFCInterface }{{nil, mine}, {mine, nil}, {read, read}, {read, nil}} {
			_, _ = BuildPFCSet(port, step.prior, step.next, db, prior)
		}
	}
}

// checkPolicy asserts what a policy read from db rests on and the ranges of its values.
func checkPolicy(t *testing.T, db *DB, p *fabric.QoSPolicy) {
	t.Helper()
	if _, ok := db.entry(tDSCPToTC, p.Name); !ok {
		t.Errorf("policy %q without DSCP_TO_TC_MAP|%s", p.Name, p.Name)
	}
	if len(p.Classes) == 0 {
		t.Errorf("policy %q without classes", p.Name)
	}
	for name, c := range p.Classes {
		if _, ok := db.entry(tScheduler, p.Name+"-"+name); !ok {
			t.Errorf("policy %q class %q without SCHEDULER|%s-%s", p.Name, name, p.Name, name)
		}
		if c.TrafficClass < Unknown || c.TrafficClass > 7 {
			t.Errorf("policy %q class %q: traffic class %d", p.Name, name, c.TrafficClass)
		}
		for _, d := range c.DSCP {
			if d < 0 || d > 63 {
				t.Errorf("policy %q class %q: DSCP %d", p.Name, name, d)
			}
		}
		for _, v := range c.PCP {
			if v < 0 || v > 7 {
				t.Errorf("policy %q class %q: PCP %d", p.Name, name, v)
			}
		}
	}
	if p.DefaultTrafficClass < Unknown || p.DefaultTrafficClass > 7 {
		t.Errorf("policy %q: default traffic class %d", p.Name, p.DefaultTrafficClass)
	}
	for _, port := range p.Interfaces {
		if _, ok := db.entry(tPortQoSMap, port); !ok {
			t.Errorf("policy %q bound to %q, which has no PORT_QOS_MAP entry", p.Name, port)
		}
	}
}
