package openconfig

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/value"
	"github.com/openconfig/ygot/ygot"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

func TestCountersPaths(t *testing.T) {
	render := func(paths []*gpb.Path) string {
		var lines []string
		for _, p := range paths {
			s, err := ygot.PathToString(p)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, s)
		}
		return strings.Join(lines, "\n")
	}
	if o := CountersPrefix().GetOrigin(); o != "openconfig" {
		t.Errorf("prefix origin %q", o)
	}
	want := "/interfaces/interface[name=Ethernet1/1]/state/counters\n" +
		"/qos/interfaces/interface[interface-id=Ethernet1/1]/output/queues\n" +
		"/interfaces/interface[name=Ethernet2]/state/counters\n" +
		"/qos/interfaces/interface[interface-id=Ethernet2]/output/queues\n" +
		"/qos/queues/queue[name=*]/state/queue-id\n/qos/queues/queue[name=*]/config/queue-id"
	if got := render(CountersPaths([]string{"Ethernet1/1", "Ethernet2", "Ethernet1/1"})); got != want {
		t.Errorf("CountersPaths(two ports):\n%s\nwant:\n%s", got, want)
	}
	want = "/interfaces/interface[name=*]/state/counters\n/interfaces/interface[name=*]/state/type\n" +
		"/interfaces/interface[name=*]/config/type\n/qos/interfaces/interface[interface-id=*]/output/queues\n" +
		"/qos/queues/queue[name=*]/state/queue-id\n/qos/queues/queue[name=*]/config/queue-id"
	if got := render(CountersPaths(nil)); got != want {
		t.Errorf("CountersPaths(every port):\n%s\nwant:\n%s", got, want)
	}
}

// updatesFixture reads testdata/name: "#" lines, then one "PATH<TAB>JSON" update a line.
func updatesFixture(t *testing.T, name string) []Update {
	t.Helper()
	var out []Update
	for _, l := range strings.Split(strings.TrimSpace(goldenfile.Read(t, "testdata/"+name)), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		p, v, ok := strings.Cut(l, "\t")
		path, err := ygot.StringToStructuredPath(p)
		if !ok || err != nil {
			t.Fatalf("fixture line %q: %v", l, err)
		}
		out = append(out, Update{Path: path, JSON: []byte(v)})
	}
	return out
}

func renderCounters(c Counters) string {
	num := platformtest.Null
	prios := func(m map[int]int64) string {
		if m == nil {
			return "null"
		}
		return fmt.Sprint(m)
	}
	return fmt.Sprintf("pfc_rx_pause %s\npfc_tx_pause %s\necn_marked_packets %s\ndropped_packets %s\ncnp_sent %s\ncnp_handled %s\nout_of_sequence %s\n"+
		"queue_ecn_marked %s\nqueue_dropped %s\nqueue_watermark_bytes %s\n",
		prios(c.PFCRxPause), prios(c.PFCTxPause), num(c.ECNMarked), num(c.Dropped), num(c.CNPSent), num(c.CNPHandled), num(c.OutOfSequence),
		prios(c.QueueECNMarked), prios(c.QueueDropped), prios(c.QueueWatermarkBytes))
}

// renderAll renders each port's counters under its name, in name order.
func renderAll(got map[string]Counters) string {
	return platformtest.RenderEach(got, "port", renderCounters)
}

func TestParseCountersGolden(t *testing.T) {
	for name, ports := range map[string][]string{
		"counters-lab": {"Ethernet2"}, "counters-leaves": {"Ethernet1/1"},
		"counters-subscribe-lab": nil, "counters-subscribe-numbered": {"swp1", "swp2"},
	} {
		got, err := ParseCounters(ports, updatesFixture(t, name+".txt"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for port, c := range got {
			if c.PFCRxPause != nil || c.PFCTxPause != nil || c.CNPSent != nil || c.CNPHandled != nil || c.OutOfSequence != nil {
				t.Errorf("%s %s: counters OpenConfig does not have: %+v", name, port, c)
			}
		}
		golden(t, name+".parsed.golden", renderAll(got))
	}
	// No queue bound (nothing came for the queue path): no ECN counter.
	got, err := ParseCounters([]string{"Ethernet2"}, updatesFixture(t, "counters-lab.txt")[:1])
	if c := got["Ethernet2"]; err != nil || c.ECNMarked != nil || c.Dropped == nil || *c.Dropped != 2400 || c.QueueDropped != nil {
		t.Errorf("interface only: %s %v", renderCounters(c), err)
	}
	// One port of the every-port read.
	got, err = ParseCounters([]string{"Ethernet2"}, updatesFixture(t, "counters-subscribe-lab.txt"))
	if c := got["Ethernet2"]; err != nil || len(got) != 1 || c.QueueECNMarked[3] != 40150 || c.QueueWatermarkBytes[0] != 4154000 {
		t.Errorf("Ethernet2 of the wildcard read: %s %v", renderCounters(c), err)
	}
}

// Every port is every Ethernet interface with counters; queues are numbered by queue-id, else
// by a numeric name; two queues of one number add up.
func TestParseCountersPortsAndQueues(t *testing.T) {
	path := func(s string) *gpb.Path {
		p, err := ygot.StringToStructuredPath(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	up := func(p, v string) Update { return Update{Path: path(p), JSON: []byte(v)} }
	ups := []Update{
		up("/interfaces/interface[name=Ethernet1]/state/counters/in-discards", "1"),
		up("/interfaces/interface[name=Ethernet1]/state/type", `"iana-if-type:ethernetCsmacd"`),
		up("/interfaces/interface[name=Port-Channel1]/state/counters/in-discards", "9"),
		up("/interfaces/interface[name=Port-Channel1]/state/type", `"iana-if-type:ieee8023adLag"`),
		up("/interfaces/interface[name=Loopback0]/state/counters/in-discards", "0"),
		up("/interfaces/interface[name=Loopback0]/config/type", `"softwareLoopback"`),
		up("/interfaces/interface[name=Management1]/state/type", `"iana-if-type:ethernetCsmacd"`), // no counters
		up("/interfaces/interface[name=Ethernet2]/state/counters/out-discards", "2"),
		up("/qos/queues/queue[name=UC3]/state/queue-id", "3"),
		up("/qos/queues/queue[name=UC3]/config/queue-id", "7"), // state wins
		up("/qos/queues/queue[name=MC3]/config/queue-id", "3"),
		up("/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=UC3]/state/dropped-pkts", "5"),
		up("/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=UC3]/state/max-queue-len", "100"),
		up("/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=MC3]/state/dropped-pkts", "2"),
		up("/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=MC3]/state/max-queue-len", "300"),
		up("/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=6]/state/ecn-marked-pkts", "4"),
		up("/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=07]/state/ecn-marked-pkts", "8"),
	}
	got, err := ParseCounters(nil, ups)
	if err != nil {
		t.Fatal(err)
	}
	if ports := slices.Sorted(maps.Keys(got)); !slices.Equal(ports, []string{"Ethernet1", "Ethernet2"}) {
		t.Errorf("every port: %v", ports)
	}
	c := got["Ethernet1"]
	if fmt.Sprint(c.QueueDropped) != "map[3:7]" || fmt.Sprint(c.QueueWatermarkBytes) != "map[3:300]" ||
		fmt.Sprint(c.QueueECNMarked) != "map[6:4]" || *c.ECNMarked != 12 {
		t.Errorf("Ethernet1: %s", renderCounters(c))
	}
	if _, err := ParseCounters(nil, nil); err == nil || !strings.Contains(err.Error(), "no Ethernet interface with counters") {
		t.Errorf("nothing read: %v", err)
	}
	bad := append(slices.Clone(ups), up("/qos/queues/queue[name=X]/state/queue-id", "256"))
	if _, err := ParseCounters(nil, bad); err == nil || !strings.Contains(err.Error(), "queue X: queue-id 256 is not a uint8") {
		t.Errorf("queue-id 256: %v", err)
	}
}

func TestParseCountersErrors(t *testing.T) {
	lab := updatesFixture(t, "counters-lab.txt")
	path := func(s string) *gpb.Path {
		p, err := ygot.StringToStructuredPath(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		ports   []string
		updates []Update
		want    string
	}{
		{[]string{"Ethernet9"}, lab, `the device has no interface "Ethernet9" (nothing at /interfaces/interface[name=Ethernet9]/state/counters)`},
		{[]string{"Ethernet2", "Ethernet9"}, lab, `the device has no interface "Ethernet9"`},
		{[]string{"Ethernet2"}, lab[1:], `the device has no interface "Ethernet2"`},
		{[]string{"Ethernet2"}, []Update{{Path: path("/interfaces/interface[name=Ethernet2]/state/counters"), JSON: []byte(`{"in-discards":"x"}`)}},
			`in-discards = x is not a counter`},
		{[]string{"Ethernet2"}, []Update{{Path: path("/interfaces"), JSON: []byte(`{`)}}, "value at /interfaces is not JSON"},
		{[]string{"Ethernet2"}, append(slices.Clone(lab), Update{Path: path("/qos/interfaces/interface[interface-id=Ethernet2]/output/queues/queue[name=3]/state/max-queue-len"), JSON: []byte(`-1`)}),
			"max-queue-len = -1 is not a counter"},
	} {
		if _, err := ParseCounters(tc.ports, tc.updates); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCounters(%v, ...): %v, want an error with %q", tc.ports, err, tc.want)
		}
	}
	// The whole tree in one update at the root parses too.
	got, err := ParseCounters([]string{"Ethernet2"}, []Update{{Path: &gpb.Path{}, JSON: []byte(
		`{"openconfig-interfaces:interfaces":{"interface":[{"name":"Ethernet2","state":{"counters":{"in-discards":"1","out-discards":"2"}}}]}}`)}})
	if c := got["Ethernet2"]; err != nil || *c.Dropped != 3 {
		t.Errorf("root update: %s %v", renderCounters(c), err)
	}
}

// A counter read the way the provider does it, against a lab switch: one Subscribe ONCE for
// the ports asked for or for every port; a port without queues bound sends no queue state.
func TestCountersOnLab(t *testing.T) {
	l, err := lab.Start(t.Context(), lab.Options{Switches: map[string]int{"openconfig": 1}, Ports: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	d := l.Inventory().Devices["openconfig-1"]
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM([]byte(d.CACertificate))
	conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	gc := gpb.NewGNMIClient(conn)
	ctx := metadata.AppendToOutgoingContext(t.Context(), "username", d.Username, "password", d.Password)

	// One Subscribe ONCE, as the provider reads (transport/gnmi SubscribeOnce).
	read := func(ports ...string) map[string]Counters {
		t.Helper()
		stream, err := gc.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var subs []*gpb.Subscription
		for _, p := range CountersPaths(ports) {
			subs = append(subs, &gpb.Subscription{Path: p})
		}
		err = stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
			Prefix: CountersPrefix(), Mode: gpb.SubscriptionList_ONCE, Encoding: gpb.Encoding_PROTO, Subscription: subs}}})
		if err != nil {
			t.Fatal(err)
		}
		var updates []Update
		for {
			resp, err := stream.Recv()
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetSyncResponse() {
				break
			}
			n := resp.GetUpdate()
			for _, u := range n.GetUpdate() {
				v, err := value.ToScalar(u.GetVal())
				if err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				full := &gpb.Path{Elem: append(append([]*gpb.PathElem{}, n.GetPrefix().GetElem()...), u.GetPath().GetElem()...)}
				updates = append(updates, Update{Path: full, JSON: b})
			}
		}
		got, err := ParseCounters(ports, updates)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if all := read(); len(all) != 2 || all["Ethernet1"].Dropped == nil || all["Ethernet2"].ECNMarked != nil {
		t.Fatalf("every port, nothing bound, no storm: %s", renderAll(all))
	}

	req, err := BuildSet(nil, examplePolicy(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gc.Set(ctx, req); err != nil {
		t.Fatal(err)
	}
	first := read("Ethernet2")["Ethernet2"] // the switch starts counting the queues it now sees
	if err := l.Switch("openconfig-1").Storm("Ethernet2", true); err != nil {
		t.Fatal(err)
	}
	var second Counters
	grew := func() bool {
		return first.ECNMarked != nil && second.ECNMarked != nil && *second.ECNMarked > *first.ECNMarked && *second.Dropped > *first.Dropped
	}
	platformtest.Eventually(func() bool { second = read("Ethernet2")["Ethernet2"]; return grew() })
	if !grew() {
		t.Errorf("during a storm: %s then %s", renderCounters(first), renderCounters(second))
	}
	// The policy's queues carry their traffic class as queue-id: the RoCE class's queue 3 marks.
	if second.QueueECNMarked[3] == 0 || second.QueueWatermarkBytes[3] <= first.QueueWatermarkBytes[3] {
		t.Errorf("queue 3 in the storm: %s then %s", renderCounters(first), renderCounters(second))
	}
}
