package gnmiswitch

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
	"google.golang.org/grpc/codes"
)

// counterSwitch is a switch of its own (storms and clocks would disturb other tests) whose
// counters start at the fake clock's time.
func counterSwitch(t *testing.T) (*Switch, gpb.GNMIClient, *traffic.ManualClock) {
	t.Helper()
	sw, clk := labtest.Start[*Switch](t, Start, labtest.Spec(t, "openconfig", 4, "")), traffic.NewManualClock()
	sw.mu.Lock()
	sw.traffic = newSwitchCounters(sw.ports)
	sw.traffic.clock, sw.traffic.boot = clk.Now, clk.Now()
	sw.mu.Unlock()
	return sw, labtest.Dial(t, sw.Entry()), clk
}

func TestSwitchInterfaceCounters(t *testing.T) {
	sw, c, clk := counterSwitch(t)
	clk.Advance(2 * time.Second)
	const eth1 = "/interfaces/interface[name=Ethernet1]"
	labtest.JSONEqual(t, labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, eth1+"/state/counters"), `{
	  "openconfig-interfaces:in-octets": "16616001280", "openconfig-interfaces:in-pkts": "4000020",
	  "openconfig-interfaces:in-unicast-pkts": "4000000", "openconfig-interfaces:in-multicast-pkts": "20",
	  "openconfig-interfaces:in-broadcast-pkts": "0", "openconfig-interfaces:in-discards": "0",
	  "openconfig-interfaces:in-errors": "0", "openconfig-interfaces:in-fcs-errors": "0",
	  "openconfig-interfaces:out-octets": "16616001280", "openconfig-interfaces:out-pkts": "4000020",
	  "openconfig-interfaces:out-unicast-pkts": "4000000", "openconfig-interfaces:out-multicast-pkts": "20",
	  "openconfig-interfaces:out-broadcast-pkts": "0", "openconfig-interfaces:out-discards": "0",
	  "openconfig-interfaces:out-errors": "0"}`)

	// Each type reads its own containers; the key goes with the entry.
	state := labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, eth1)
	config := labtest.MustGetTyped(t, c, gpb.GetRequest_CONFIG, eth1)
	all := labtest.MustGetTyped(t, c, gpb.GetRequest_ALL, eth1)
	oper := labtest.MustGetTyped(t, c, gpb.GetRequest_OPERATIONAL, eth1)
	for _, tc := range []struct {
		name, got  string
		has, lacks []string
	}{
		{"STATE", state, []string{`"openconfig-interfaces:name":"Ethernet1"`, `"in-mac-pause-frames":"0"`, `"in-pkts":"4000020"`}, []string{`config"`}},
		{"OPERATIONAL", oper, []string{`"in-pkts":"4000020"`}, []string{`config"`}},
		{"CONFIG", config, []string{`"openconfig-interfaces:config":{`, `"openconfig-interfaces:name":"Ethernet1"`}, []string{`state"`, "in-pkts"}},
		{"ALL", all, []string{`"openconfig-interfaces:config":{`, `"in-pkts":"4000020"`}, nil},
	} {
		for _, want := range tc.has {
			if !strings.Contains(tc.got, want) {
				t.Errorf("%s Get lacks %s: %s", tc.name, want, tc.got)
			}
		}
		for _, bad := range tc.lacks {
			if strings.Contains(tc.got, bad) {
				t.Errorf("%s Get has %s: %s", tc.name, bad, tc.got)
			}
		}
	}
	_, err := labtest.GetTyped(t, c, gpb.GetRequest_CONFIG, eth1+"/state/counters")
	labtest.WantCode(t, err, codes.NotFound)
	_, err = labtest.GetTyped(t, c, gpb.GetRequest_STATE, eth1+"/config")
	labtest.WantCode(t, err, codes.NotFound)
	if got := labtest.MustGetTyped(t, c, gpb.GetRequest_CONFIG, eth1+"/name"); got != `"Ethernet1"` {
		t.Errorf("CONFIG Get of the key: %s", got)
	}
	_, err = c.Get(labtest.Ctx(t), &gpb.GetRequest{Path: []*gpb.Path{labtest.Path(t, eth1)}, Encoding: gpb.Encoding_JSON_IETF, Type: 7})
	labtest.WantCode(t, err, codes.InvalidArgument)

	// A storm makes the port discard; a Subscribe sees current values too.
	if err := sw.Storm("Ethernet1", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	got := labtest.SubscribeOnce(t, c, eth1+"/state/counters")
	for p, want := range map[string]string{"in-discards": "200", "out-discards": "1000", "in-pkts": "6000030"} {
		if v := got[eth1+"/state/counters/"+p]; v != want {
			t.Errorf("Subscribe %s = %q, want %s (all: %v)", p, v, want, got)
		}
	}
	if err := sw.Storm("Ethernet1", false); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	labtest.JSONEqual(t, labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, eth1+"/state/counters/out-discards"), `"1000"`)
	if err := sw.Storm("Ethernet9", true); err == nil || !strings.Contains(err.Error(), `openconfig-1 has no interface "Ethernet9"`) {
		t.Errorf("storm on a missing port: %v", err)
	}
}

// bindQueues creates two queues (a name and its config JSON each) and puts them on
// Ethernet2's output: ecn with an ECN-marking WRED profile, plain without one.
func bindQueues(t *testing.T, c gpb.GNMIClient, ecn, ecnConfig, plain, plainConfig string) {
	t.Helper()
	queue := func(name, config string) *gpb.Update {
		return labtest.Update(t, "/qos/queues/queue[name="+name+"]", fmt.Sprintf(`{"name":%q,"config":%s}`, name, config))
	}
	bind := labtest.SetReq(queue(ecn, ecnConfig), queue(plain, plainConfig),
		labtest.Update(t, "/qos/queue-management-profiles/queue-management-profile[name=ecn]",
			`{"name":"ecn","config":{"name":"ecn"},"wred":{"uniform":{"config":{"min-threshold":"153600","max-threshold":"1536000","enable-ecn":true}}}}`),
		labtest.Update(t, "/qos/interfaces/interface[interface-id=Ethernet2]", fmt.Sprintf(`{"interface-id":"Ethernet2","config":{"interface-id":"Ethernet2"},
		  "output":{"queues":{"queue":[{"name":%q,"config":{"name":%q,"queue-management-profile":"ecn"}},{"name":%q,"config":{"name":%q}}]}}}`,
			ecn, ecn, plain, plain)),
	)
	if _, err := c.Set(labtest.Ctx(t), bind); err != nil {
		t.Fatal(err)
	}
}

func TestSwitchQueueCounters(t *testing.T) {
	sw, c, clk := counterSwitch(t)
	bindQueues(t, c, "tc3", `{"name":"tc3"}`, "tc0", `{"name":"tc0"}`)
	const queues = "/qos/interfaces/interface[interface-id=Ethernet2]/output/queues"
	labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, queues) // the lab sees the queues now: counting starts
	clk.Advance(time.Second)
	// Before any storm a queue's deepest point is a couple of packets.
	labtest.JSONEqual(t, labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, queues+"/queue[name=tc3]/state/max-queue-len"), `"8308"`)
	if err := sw.Storm("Ethernet2", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	labtest.JSONEqual(t, labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, queues), `{"openconfig-qos:queue": [
	  {"name": "tc0", "state": {"transmit-pkts": "1500000", "transmit-octets": "6231000000", "dropped-pkts": "2000",
	    "dropped-octets": "8308000", "ecn-marked-pkts": "0", "max-queue-len": "4154000"}},
	  {"name": "tc3", "state": {"transmit-pkts": "1500000", "transmit-octets": "6231000000", "dropped-pkts": "2000",
	    "dropped-octets": "8308000", "ecn-marked-pkts": "40150", "max-queue-len": "4154000"}}]}`)
	// The answers a provider's counter read gets (platform/openconfig CountersPaths, type
	// STATE): that package's parser fixture testdata/counters-lab.txt.
	var answers strings.Builder
	for _, p := range []string{"/interfaces/interface[name=Ethernet2]/state/counters", queues} {
		answers.WriteString(p + "\t" + labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, p) + "\n")
	}
	golden.Check(t, "testdata/counters-openconfig-eth2.golden", answers.String())
	if cfg := labtest.MustGetTyped(t, c, gpb.GetRequest_CONFIG, "/qos"); strings.Contains(cfg, "state") {
		t.Errorf("CONFIG Get of /qos shows state: %s", cfg)
	}
	// Queues of other ports have no counters; every port has interface counters.
	_, err := labtest.GetTyped(t, c, gpb.GetRequest_STATE, "/qos/interfaces/interface[interface-id=Ethernet1]")
	labtest.WantCode(t, err, codes.NotFound)

	// Unbinding removes a queue's state; removing the interface removes all of it.
	del := &gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Delete: []*gpb.Path{labtest.Path(t, queues+"/queue[name=tc0]")}}
	if _, err := c.Set(labtest.Ctx(t), del); err != nil {
		t.Fatal(err)
	}
	if all := labtest.MustGetTyped(t, c, gpb.GetRequest_ALL, queues); strings.Contains(all, "tc0") || !strings.Contains(all, `"ecn-marked-pkts":"40150"`) {
		t.Errorf("after unbinding tc0: %s", all)
	}
	del.Delete = []*gpb.Path{labtest.Path(t, "/qos/interfaces/interface[interface-id=Ethernet2]")}
	if _, err := c.Set(labtest.Ctx(t), del); err != nil {
		t.Fatal(err)
	}
	_, err = labtest.GetTyped(t, c, gpb.GetRequest_ALL, "/qos/interfaces")
	labtest.WantCode(t, err, codes.NotFound)
	if got := labtest.SubscribeOnce(t, c, "/qos/interfaces"); len(got) != 0 {
		t.Errorf("state left in the datastore: %v", got)
	}
}

// subscribeLines reads paths (origin openconfig on the prefix, PROTO encoding) with one
// Subscribe ONCE and returns one "PATH<TAB>JSON" line per update, sorted (the datastore's walk
// order is its own), each value's JSON as a client renders a scalar.
func subscribeLines(t *testing.T, c gpb.GNMIClient, paths ...string) []string {
	t.Helper()
	var subs []*gpb.Subscription
	for _, p := range paths {
		subs = append(subs, &gpb.Subscription{Path: labtest.Path(t, p)})
	}
	var lines []string
	for _, l := range labtest.Leaves(t, labtest.Once(t, c, &gpb.SubscriptionList{
		Prefix: &gpb.Path{Origin: "openconfig"}, Encoding: gpb.Encoding_PROTO, Subscription: subs,
	})) {
		b, err := json.Marshal(l.Value)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l.Path+"\t"+string(b))
	}
	sort.Strings(lines)
	return lines
}

// The provider's read of every port's counters (platform/openconfig CountersPaths(nil)): one
// Subscribe ONCE of wildcard keys, which lemming's cache matches; queues named by queue-id.
// Its answer is that package's fixture testdata/counters-subscribe-lab.txt.
func TestSwitchCountersSubscribeOnce(t *testing.T) {
	sw, c, clk := counterSwitch(t)
	bindQueues(t, c, "gold", `{"name":"gold","queue-id":3}`, "bulk", `{"name":"bulk","queue-id":0}`)
	all := []string{
		"/interfaces/interface[name=*]/state/counters", "/interfaces/interface[name=*]/state/type",
		"/interfaces/interface[name=*]/config/type", "/qos/interfaces/interface[interface-id=*]/output/queues",
		"/qos/queues/queue[name=*]/state/queue-id", "/qos/queues/queue[name=*]/config/queue-id",
	}
	subscribeLines(t, c, all...) // the lab sees the queues now: counting starts
	clk.Advance(time.Second)
	if err := sw.Storm("Ethernet2", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	got := subscribeLines(t, c, all...)
	golden.Check(t, "testdata/counters-openconfig-subscribe.golden", strings.Join(got, "\n")+"\n")
	ports := map[string]bool{}
	for _, l := range got {
		if i := strings.Index(l, "/interfaces/interface[name="); i == 0 {
			ports[l[len("/interfaces/interface[name="):strings.Index(l, "]")]] = true
		}
	}
	if len(ports) != 4 {
		t.Errorf("the wildcard read %d interfaces, want the switch's 4: %v", len(ports), ports)
	}
	// Named keys read one port; a port the switch lacks answers nothing, not an error.
	one := subscribeLines(t, c, "/interfaces/interface[name=Ethernet1]/state/counters",
		"/qos/interfaces/interface[interface-id=Ethernet1]/output/queues", "/interfaces/interface[name=Ethernet9]/state/counters")
	for _, l := range one {
		if !strings.HasPrefix(l, "/interfaces/interface[name=Ethernet1]/state/counters/") {
			t.Errorf("a read of Ethernet1 got %s", l)
		}
	}
	if len(one) == 0 {
		t.Error("no counters of Ethernet1")
	}
}
