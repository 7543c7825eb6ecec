package openconfig

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/ygot/ygot"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func TestCountersPaths(t *testing.T) {
	var lines []string
	for _, p := range CountersPaths("Ethernet1/1") {
		s, err := ygot.PathToString(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, p.GetOrigin()+":"+s)
	}
	want := "openconfig:/interfaces/interface[name=Ethernet1/1]/state/counters\n" +
		"openconfig:/qos/interfaces/interface[interface-id=Ethernet1/1]/output/queues"
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("CountersPaths:\n%s\nwant:\n%s", got, want)
	}
}

// updatesFixture reads testdata/name: "#" lines, then one "PATH<TAB>JSON" update a line.
func updatesFixture(t *testing.T, name string) []Update {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []Update
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
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
	num := func(p *int64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	}
	prios := func(m map[int]int64) string {
		if m == nil {
			return "null"
		}
		return fmt.Sprint(m)
	}
	return fmt.Sprintf("pfc_rx_pause %s\npfc_tx_pause %s\necn_marked_packets %s\ndropped_packets %s\ncnp_sent %s\ncnp_handled %s\nout_of_sequence %s\n",
		prios(c.PFCRxPause), prios(c.PFCTxPause), num(c.ECNMarked), num(c.Dropped), num(c.CNPSent), num(c.CNPHandled), num(c.OutOfSequence))
}

func TestParseCountersGolden(t *testing.T) {
	for name, ifname := range map[string]string{"counters-lab": "Ethernet2", "counters-leaves": "Ethernet1/1"} {
		c, err := ParseCounters(ifname, updatesFixture(t, name+".txt"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.PFCRxPause != nil || c.PFCTxPause != nil || c.CNPSent != nil || c.CNPHandled != nil || c.OutOfSequence != nil {
			t.Errorf("%s: counters OpenConfig does not have: %+v", name, c)
		}
		golden(t, name+".parsed.golden", renderCounters(c))
	}
	// No queue bound (the queue path was NotFound): no ECN counter.
	c, err := ParseCounters("Ethernet2", updatesFixture(t, "counters-lab.txt")[:1])
	if err != nil || c.ECNMarked != nil || c.Dropped == nil || *c.Dropped != 2400 {
		t.Errorf("interface only: %s %v", renderCounters(c), err)
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
		ifname  string
		updates []Update
		want    string
	}{
		{"Ethernet9", lab, "the device reports no counters for interface Ethernet9"},
		{"Ethernet2", lab[1:], "the device reports no counters for interface Ethernet2"},
		{"Ethernet2", []Update{{Path: path("/interfaces/interface[name=Ethernet2]/state/counters"), JSON: []byte(`{"in-discards":"x"}`)}},
			`in-discards = x is not a counter`},
		{"Ethernet2", []Update{{Path: path("/interfaces"), JSON: []byte(`{`)}}, "value at /interfaces is not JSON"},
	} {
		if _, err := ParseCounters(tc.ifname, tc.updates); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCounters(%s, ...): %v, want an error with %q", tc.ifname, err, tc.want)
		}
	}
	// The whole tree in one update at the root parses too.
	c, err := ParseCounters("Ethernet2", []Update{{Path: &gpb.Path{}, JSON: []byte(
		`{"openconfig-interfaces:interfaces":{"interface":[{"name":"Ethernet2","state":{"counters":{"in-discards":"1","out-discards":"2"}}}]}}`)}})
	if err != nil || *c.Dropped != 3 {
		t.Errorf("root update: %s %v", renderCounters(c), err)
	}
}

// A counter read the way the provider does it, against a lab switch: one Get of type STATE per
// path, a NotFound queue path meaning no queue is bound.
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

	read := func() Counters {
		t.Helper()
		var updates []Update
		for _, p := range CountersPaths("Ethernet2") {
			resp, err := gc.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p}, Type: gpb.GetRequest_STATE, Encoding: gpb.Encoding_JSON_IETF})
			if status.Code(err) == codes.NotFound {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range resp.GetNotification() {
				for _, u := range n.GetUpdate() {
					full := &gpb.Path{Elem: append(append([]*gpb.PathElem{}, n.GetPrefix().GetElem()...), u.GetPath().GetElem()...)}
					updates = append(updates, Update{Path: full, JSON: u.GetVal().GetJsonIetfVal()})
				}
			}
		}
		c, err := ParseCounters("Ethernet2", updates)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := read(); c.ECNMarked != nil || c.Dropped == nil || *c.Dropped != 0 {
		t.Fatalf("nothing bound, no storm: %s", renderCounters(c))
	}
	_, err = gc.Get(ctx, &gpb.GetRequest{Path: CountersPaths("Ethernet2")[:1], Type: gpb.GetRequest_CONFIG, Encoding: gpb.Encoding_JSON_IETF})
	if status.Code(err) != codes.NotFound {
		t.Errorf("a CONFIG Get of the counters: %v, want NotFound", err)
	}

	req, err := BuildSet(nil, examplePolicy(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gc.Set(ctx, req); err != nil {
		t.Fatal(err)
	}
	first := read() // the switch starts counting the queues it now sees
	if err := l.Switch("openconfig-1").Storm("Ethernet2", true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	second := read()
	if first.ECNMarked == nil || second.ECNMarked == nil || *second.ECNMarked <= *first.ECNMarked || *second.Dropped <= *first.Dropped {
		t.Errorf("during a storm: %s then %s", renderCounters(first), renderCounters(second))
	}
}
