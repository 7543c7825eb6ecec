package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// fakeCountersDB answers GetDB from bodies by path ("COUNTERS/Ethernet0/Queues"); a path
// without a body is NotFound, as sonic-gnmi answers for a port COUNTERS_PORT_NAME_MAP lacks.
type fakeCountersDB struct {
	bodies  map[string]string
	targets []string
	paths   [][]*gpb.Path
}

func (f *fakeCountersDB) GetDB(_ context.Context, target string, paths ...*gpb.Path) ([]gnmi.Update, error) {
	f.targets, f.paths = append(f.targets, target), append(f.paths, paths)
	var out []gnmi.Update
	for _, p := range paths {
		var names []string
		for _, e := range p.GetElem() {
			names = append(names, e.GetName())
		}
		b, ok := f.bodies[strings.Join(names, "/")]
		if !ok {
			return nil, notFound(strings.Join(names, "/"))
		}
		out = append(out, gnmi.Update{Path: &gpb.Path{Target: target, Elem: p.GetElem()}, JSON: []byte(b)})
	}
	return out, nil
}

// A SONiC port's counters: one Get of COUNTERS_DB for the three virtual paths, CONFIG_DB read
// once for which queues and PGs are lossless (3 and 4) and the egress lossless pool's size.
func TestSONiCCounters(t *testing.T) {
	cfg := &fakeConfigDB{tables: map[string]map[string]map[string]string{
		"PORT":                      {"Ethernet0": {"mtu": "9100"}},
		"PORT_QOS_MAP":              {"Ethernet0": {"pfc_enable": "3,4", "pfc_to_queue_map": "AZURE", "tc_to_pg_map": "AZURE"}},
		"MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE": {"3": "3", "4": "4"}},
		"TC_TO_PRIORITY_GROUP_MAP":  {"AZURE": {"3": "3", "4": "4"}},
		"BUFFER_POOL":               {"egress_lossless_pool": {"size": "10000000", "type": "egress"}},
	}}
	wd := `"PFC_WD_STATUS": "stormed", "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED": "2", "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED": "1"`
	f := &fakeCountersDB{bodies: map[string]string{
		"COUNTERS/Ethernet0": `{"SAI_PORT_STAT_PFC_3_RX_PKTS": "900", "SAI_PORT_STAT_PFC_3_TX_PKTS": "7", "SAI_PORT_STAT_IF_IN_UCAST_PKTS": "5"}`,
		"COUNTERS/Ethernet0/Queues": `{
			"Ethernet0:0": {"SAI_QUEUE_STAT_PACKETS": "100", "SAI_QUEUE_STAT_DROPPED_PACKETS": "40", "SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": "512"},
			"Ethernet0:3": {"SAI_QUEUE_STAT_PACKETS": "100", "SAI_QUEUE_STAT_DROPPED_PACKETS": "0",
				"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "250", "SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": "1000", ` + wd + `},
			"Ethernet0:3:periodic": {"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": "8500000"},
			"Ethernet0:4": {"SAI_QUEUE_STAT_DROPPED_PACKETS": "2", "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "50", ` + wd + `}}`,
		"PERIODIC_WATERMARKS/Ethernet0/PriorityGroups": `{
			"Ethernet0:0": {"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES": "77", "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES": "0"},
			"Ethernet0:3": {"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES": "3000", "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES": "120"}}`,
	}}
	d := sonicCounters{sonicDB{cfg, newReads(testRegistry("sonic", devices.Device{}), "sw")}, f}
	got, err := CountersOf(context.Background(), d, "Ethernet0")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.paths) != 1 || len(f.paths[0]) != 3 || f.targets[0] != "COUNTERS_DB" {
		t.Errorf("want one Get of three COUNTERS_DB paths, got targets %v paths %v", f.targets, f.paths)
	}
	if got.PFCRxPause[3] != 900 || got.PFCTxPause[3] != 7 || *got.ECNMarked != 300 || *got.Dropped != 42 {
		t.Errorf("port: rx %v tx %v ecn %v dropped %v", got.PFCRxPause, got.PFCTxPause, *got.ECNMarked, *got.Dropped)
	}
	want := map[string]map[int]float64{
		"ecn":       {3: 250, 4: 50},
		"dropped":   {0: 40, 3: 0, 4: 2},
		"watermark": {0: 512, 3: 8500000},
		"headroom":  {3: 120},
		"shared":    {3: 3000},
	}
	have := map[string]map[int]float64{"ecn": got.QueueECNMarked, "dropped": got.QueueDropped, "watermark": got.QueueWatermarkBytes,
		"headroom": got.PGHeadroomWatermarkBytes, "shared": got.PGSharedWatermarkBytes}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("per queue and PG (PG 0 is lossy, so left out; -want +got):\n%s", diff)
	}
	if *got.PFCWatchdogDetected != 4 || *got.PFCWatchdogRestored != 2 {
		t.Errorf("watchdog: detected %v restored %v, want the sums over queues 3 and 4", *got.PFCWatchdogDetected, *got.PFCWatchdogRestored)
	}
	if *got.BufferPoolBytes != 1e7 || *got.BufferUtilizationPercent != 85 {
		t.Errorf("pool %v, utilisation %v: want 8.5 MB of 10 MB on lossless queue 3 (queue 0 is lossy)", *got.BufferPoolBytes, *got.BufferUtilizationPercent)
	}
	if got.CNPSent != nil {
		t.Error("switches have no CNP counters")
	}
	if _, err := CountersOf(context.Background(), d, "Ethernet0"); err != nil || cfg.gets != 1 {
		t.Errorf("a second read: %v; CONFIG_DB read %d times, want once (the snapshot)", err, cfg.gets)
	}
	if _, err := CountersOf(context.Background(), d, "Ethernet96"); err == nil || !strings.Contains(err.Error(), `device "sw" has no interface "Ethernet96"`) || len(f.paths) != 2 {
		t.Errorf("a port the switch lacks: %v, after %d Gets (want it named before any)", err, len(f.paths))
	}
}

// Without a watchdog, WRED ECN counters or a pool size the figures are null, not zero.
func TestSONiCCountersWithoutWatchdogOrPool(t *testing.T) {
	cfg := &fakeConfigDB{tables: map[string]map[string]map[string]string{"PORT": {"Ethernet0": {"mtu": "9100"}},
		"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3"}}}}
	f := &fakeCountersDB{bodies: map[string]string{
		"COUNTERS/Ethernet0":                           `{}`,
		"COUNTERS/Ethernet0/Queues":                    `{"Ethernet0:3": {"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": "10"}}`,
		"PERIODIC_WATERMARKS/Ethernet0/PriorityGroups": `{}`,
	}}
	got, err := CountersOf(context.Background(), sonicCounters{sonicDB{cfg, newReads(testRegistry("sonic", devices.Device{}), "sw")}, f}, "Ethernet0")
	if err != nil {
		t.Fatal(err)
	}
	if got.PFCWatchdogDetected != nil || got.QueueECNMarked != nil || got.ECNMarked != nil || got.BufferPoolBytes != nil || got.BufferUtilizationPercent != nil {
		t.Errorf("%+v", got)
	}
}

// Many ports, one Get: named ports take the three paths of each in one GetRequest; no port
// asked takes the three wildcard paths, whose answer sonic-gnmi keys by alias, and every port
// comes back under its own name with its lossless queues.
func TestSONiCCountersManyPortsOneGet(t *testing.T) {
	cfg := &fakeConfigDB{tables: map[string]map[string]map[string]string{
		"PORT":         {"Ethernet0": {"alias": "etp1"}, "Ethernet4": {"alias": "etp2"}, "Ethernet8": {"mtu": "9100"}},
		"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3"}, "Ethernet4": {"pfc_enable": "3,4"}},
	}}
	port := func(pause int) string { return fmt.Sprintf(`{"SAI_PORT_STAT_PFC_3_RX_PKTS": "%d"}`, pause) }
	f := &fakeCountersDB{bodies: map[string]string{
		"COUNTERS/Ethernet0": port(1), "COUNTERS/Ethernet4": port(2),
		"COUNTERS/Ethernet0/Queues":                    `{"Ethernet0:3": {"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "5"}}`,
		"COUNTERS/Ethernet4/Queues":                    `{"Ethernet4:1": {"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "6"}}`,
		"PERIODIC_WATERMARKS/Ethernet0/PriorityGroups": `{}`, "PERIODIC_WATERMARKS/Ethernet4/PriorityGroups": `{}`,
		"COUNTERS/Ethernet*":                           `{"etp1": ` + port(1) + `, "etp2": ` + port(2) + `, "Ethernet8": ` + port(3) + `}`,
		"COUNTERS/Ethernet*/Queues":                    `{"etp1:3": {"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "5"}, "etp2:1": {"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "6"}}`,
		"PERIODIC_WATERMARKS/Ethernet*/PriorityGroups": `{}`,
	}}
	d := sonicCounters{sonicDB{cfg, newReads(testRegistry("sonic", devices.Device{}), "sw")}, f}
	type seen struct {
		Pause    float64
		ECN      map[int]float64
		Lossless []int
	}
	summary := func(got map[string]InterfaceCounters) map[string]seen {
		out := map[string]seen{}
		for p, c := range got {
			out[p] = seen{c.PFCRxPause[3], c.QueueECNMarked, c.LosslessQueues}
		}
		return out
	}
	named, err := d.Counters(context.Background(), []string{"Ethernet0", "Ethernet4"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.paths) != 1 || len(f.paths[0]) != 6 {
		t.Fatalf("two ports: want one Get of six paths, got %d Gets %v", len(f.paths), f.paths)
	}
	want := map[string]seen{
		"Ethernet0": {1, map[int]float64{3: 5}, []int{3}},
		"Ethernet4": {2, map[int]float64{1: 6}, []int{3, 4}},
	}
	if diff := cmp.Diff(want, summary(named)); diff != "" {
		t.Errorf("two ports (-want +got):\n%s", diff)
	}
	all, err := d.Counters(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.paths) != 2 || len(f.paths[1]) != 3 {
		t.Fatalf("every port: want one more Get of the three wildcard paths, got %v", f.paths)
	}
	want["Ethernet8"] = seen{3, nil, []int{}} // known to have no lossless queue
	if diff := cmp.Diff(want, summary(all)); diff != "" {
		t.Errorf("every port, keyed by name not alias (-want +got):\n%s", diff)
	}
	if cfg.gets != 1 {
		t.Errorf("CONFIG_DB read %d times, want once", cfg.gets)
	}
}
