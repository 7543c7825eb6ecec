package driver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/nvue"
)

// fakeNVUE is a Cumulus switch behind nvueConn: GETs answer the applied qos and interface
// objects as the test sets them; each Apply is recorded (one revision), or refused.
type fakeNVUE struct {
	qos, iface string
	gets       int
	applies    [][]nvue.Op
	refuse     error
}

func (f *fakeNVUE) Get(_ context.Context, path string) ([]byte, error) {
	f.gets++
	switch path {
	case "/qos":
		return []byte(f.qos), nil
	case "/interface":
		return []byte(f.iface), nil
	}
	return nil, errors.New("unexpected GET " + path)
}

func (f *fakeNVUE) GetOperational(_ context.Context, path string) ([]byte, error) {
	f.gets++
	switch path {
	case "/interface":
		return []byte(`{"swp1": {"type": "swp", "lldp": {"neighbor": {"gpu-1": {"chassis": {"system-name": "gpu-1"}, "port": {"name": "02:00:00:00:00:01", "description": "eth0"}}}}}, "swp2": {"type": "swp"}, "eth0": {"type": "eth"}}`), nil
	case "/system":
		return []byte(`{"hostname": "leaf-1"}`), nil
	}
	return nil, errors.New("unexpected GET " + path)
}

// fakeQoSCounters are the switch's ports' counters/qos branches.
var fakeQoSCounters = map[string]string{
	"swp1": `{"pfc-stats": {"3": {"rx-pause-frames": 7, "tx-pause-frames": 1}}, "egress-queue-stats": {"0": {"tx-uc-buffer-discards": 2, "wred-discards": 1, "ecn-marked-frames": "n/a"}, "3": {"ecn-marked-frames": 5}}}`,
	"swp2": `{"pfc-stats": {"3": {"rx-pause-frames": 0, "tx-pause-frames": 0}}, "egress-queue-stats": {"3": {"tx-uc-buffer-discards": 0, "ecn-marked-frames": 0}}}`,
}

// GetOperationalIncluding answers GET /interface with include parameters as NVUE does: each
// port's counters/qos branch an include names (or every port's, /*/counters/qos), in the
// interface tree.
func (f *fakeNVUE) GetOperationalIncluding(_ context.Context, path string, include ...string) ([]byte, error) {
	f.gets++
	if path != "/interface" {
		return nil, errors.New("unexpected GET " + path)
	}
	out := map[string]any{}
	for _, inc := range include {
		port, ok := strings.CutSuffix(strings.TrimPrefix(inc, "/"), "/counters/qos")
		if !ok {
			return nil, errors.New("unexpected include " + inc)
		}
		for name, body := range fakeQoSCounters {
			if port == "*" || port == name {
				out[name] = map[string]any{"counters": map[string]any{"qos": json.RawMessage(body)}}
			}
		}
	}
	return json.Marshal(out)
}

func (f *fakeNVUE) Apply(_ context.Context, ops []nvue.Op) error {
	f.applies = append(f.applies, ops)
	return f.refuse
}

func cumulusPolicy() fabric.QoSPolicy {
	return fabric.QoSPolicy{Name: "ROCE", Trust: fabric.TrustDSCP, Interfaces: []string{"swp1"},
		Classes: map[string]fabric.Class{
			"roce":    {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(50), Lossless: true},
			"default": {TrafficClass: 0, BandwidthPercent: fabric.Ptr(50)},
		}}
}

func cumulusDrivers(f *fakeNVUE) (cumulusQoS, cumulusPFC) {
	t := nvueTree{f, newReads(testRegistry("cumulus", devices.Device{}), "sw")}
	return cumulusQoS{t}, cumulusPFC{t}
}

// TestCumulusPolicyWrites: a create is one revision that records the switch's egress queue
// mapping before it; an existing policy is refused before anything is staged; a refused
// revision records nothing; reads after a write read the switch again.
func TestCumulusPolicyWrites(t *testing.T) {
	f := &fakeNVUE{qos: `{"roce": {"enable": "on"}, "egress-queue-mapping": {"default-global": {"switch-priority": {"3": {"traffic-class": 0}}}}}`,
		iface: `{"swp1": {"type": "swp"}}`}
	qos, _ := cumulusDrivers(f)
	ctx := context.Background()
	if got, err := qos.Read(ctx, "ROCE", nil); err != nil || got != nil {
		t.Fatalf("absent policy: %v %v", got, err)
	}
	prior, err := qos.Create(ctx, cumulusPolicy())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.applies) != 1 || f.applies[0][0].Method != "PATCH" || f.applies[0][0].Path != "/" {
		t.Fatalf("one revision with one root PATCH: %+v", f.applies)
	}
	var rec struct {
		QueueMapping map[string]*int `json:"egress_queue_mapping"`
	}
	if err := json.Unmarshal(prior, &rec); err != nil || rec.QueueMapping["3"] == nil || *rec.QueueMapping["3"] != 0 || rec.QueueMapping["0"] != nil {
		t.Errorf("prior %s: switch priority 3 was traffic class 0, 0 had no entry", prior)
	}
	gets := f.gets
	f.qos = `{"mapping": {"ROCE": {"trust": "l3", "dscp": {"26": {"switch-priority": 3}}}}, "egress-scheduler": {"ROCE": {"traffic-class": {"3": {"mode": "dwrr", "bw-percent": 50}}}}}`
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil || f.gets == gets {
		t.Fatalf("a read after a write must read the switch again (%d GETs, %v)", f.gets-gets, err)
	}
	if _, err := qos.Create(ctx, cumulusPolicy()); !errors.Is(err, ErrExists) || len(f.applies) != 1 {
		t.Fatalf("create over an existing policy: %v, %d revisions", err, len(f.applies))
	}
	f.qos = `{}`
	f.refuse = &nvue.Error{Device: "sw", Op: "apply revision", Revision: "3", State: "invalid",
		Issues: []nvue.Issue{{Message: "Config invalid at qos.pfc: PFC requires a lossless traffic pool"}}}
	prior, err = qos.Create(ctx, cumulusPolicy())
	if err == nil || prior != nil || !strings.Contains(err.Error(), "ended invalid, nothing applied: Config invalid at qos.pfc") || !nvue.Rejected(err) {
		t.Fatalf("a refused revision: %v (prior %s)", err, prior)
	}
}

// TestCumulusPFCWatchdog: the watchdog state before the resource is recorded and put back.
func TestCumulusPFCWatchdog(t *testing.T) {
	f := &fakeNVUE{qos: `{}`, iface: `{"swp1": {"qos": {"pfc-watchdog": {"state": "enable"}}}}`}
	_, pfc := cumulusDrivers(f)
	ctx := context.Background()
	p := fabric.PFCInterface{Interface: "swp1", Mode: fabric.PFCModeOn}
	prior, err := pfc.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.applies) != 1 || !strings.Contains(toJSON(f.applies[0][0].Body), `"disable"`) {
		t.Fatalf("create without watchdog turns it off: %+v", f.applies)
	}
	if err := pfc.Delete(ctx, p, prior); err != nil {
		t.Fatal(err)
	}
	if last := f.applies[len(f.applies)-1]; last[0].Path != "/interface/swp1/qos/pfc-watchdog" || !strings.Contains(toJSON(last[0].Body), `"enable"`) {
		t.Fatalf("delete must put the watchdog back on: %+v", last)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestCumulusCounters: one GET for many ports and for every port; pauses by priority, marks and
// drops summed over the traffic classes and by traffic class; a port the switch lacks and a
// name that is no port are refused, the latter before any read.
func TestCumulusCounters(t *testing.T) {
	f := &fakeNVUE{}
	d := cumulusCounters{nvueTree{f, newReads(testRegistry("cumulus", devices.Device{}), "sw")}}
	ctx := context.Background()
	for _, ports := range [][]string{{"swp1", "swp2"}, nil} {
		f.gets = 0
		got, err := d.Counters(ctx, ports)
		if err != nil {
			t.Fatal(err)
		}
		if f.gets != 1 {
			t.Errorf("ports %v: %d reads, want one for the switch", ports, f.gets)
		}
		c := got["swp1"]
		if len(got) != 2 || c.PFCRxPause[3] != 7 || c.PFCTxPause[3] != 1 || *c.ECNMarked != 5 || *c.Dropped != 3 || c.CNPSent != nil ||
			c.QueueDropped[0] != 3 || c.QueueECNMarked[3] != 5 || *got["swp2"].Dropped != 0 {
			t.Errorf("ports %v: %+v", ports, got)
		}
	}
	if _, err := d.Counters(ctx, []string{"swp1", "swp9"}); err == nil ||
		err.Error() != `device "sw": NVUE reports no QoS counters for swp9: the switch has no such port` {
		t.Errorf("swp9: %v", err)
	}
	f.gets = 0
	if _, err := d.Counters(ctx, []string{"swp1", "swp1/../x"}); err == nil || f.gets != 0 {
		t.Errorf("a name that is not a port must be refused before any read: %v (%d reads)", err, f.gets)
	}
}

// TestCumulusLLDP: neighbours by local port, the switch's swp ports and hostname, from two reads.
func TestCumulusLLDP(t *testing.T) {
	f := &fakeNVUE{}
	got, err := nvueTree{f, newReads(testRegistry("cumulus", devices.Device{}), "sw")}.lldp(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.Hostname != "leaf-1" || len(got.Interfaces) != 2 || len(got.Neighbors) != 1 || got.Neighbors[0].PortDescription != "eth0" ||
		got.Neighbors[0].Interface != "swp1" || f.gets != 2 {
		t.Errorf("%+v (%d reads)", got, f.gets)
	}
}

// TestCumulusAudit: the audit reads what each port applies, a port binding nothing included
// when asked for (NVUE's default-global, absent here: no policy, PFC off), from the snapshot a
// refresh then shares.
func TestCumulusAudit(t *testing.T) {
	f := &fakeNVUE{qos: `{"mapping": {"GPU": {"trust": "l3", "dscp": {"26": {"switch-priority": 3}}}},
		"egress-scheduler": {"GPU": {"traffic-class": {"3": {"mode": "dwrr", "bw-percent": 50}, "0": {"mode": "dwrr", "bw-percent": 50}}}},
		"pfc": {"GPU": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}}}`,
		iface: `{"swp1": {"type": "swp", "qos": {"mapping": {"profile": "GPU"}, "egress-scheduler": {"profile": "GPU"}, "pfc": {"profile": "GPU"}}}}`}
	qos, _ := cumulusDrivers(f)
	ctx := context.Background()
	got, err := qos.audit(ctx, []string{"swp2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Policies) != 1 || got.Policies[0].Device != "sw" || got.Policies[0].Policy.Name != "GPU" ||
		!got.Policies[0].Policy.Classes["tc3"].Lossless || strings.Join(got.Policies[0].Policy.Interfaces, ",") != "swp1" {
		t.Fatalf("policies: %+v", got.Policies)
	}
	if len(got.PFC) != 2 || got.PFC[0].PFC.Mode != fabric.PFCModeOn || got.PFC[1].PFC.Interface != "swp2" || got.PFC[1].PFC.Mode != fabric.PFCModeOff {
		t.Fatalf("PFC: %+v", got.PFC)
	}
	gets := f.gets
	if _, err := qos.Read(ctx, "GPU", nil); err != nil || f.gets != gets {
		t.Errorf("a refresh after the audit read the switch again (%d GETs, %v)", f.gets-gets, err)
	}
}
