package lab

import (
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"google.golang.org/grpc/codes"
)

func TestCapabilities(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	resp, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetGNMIVersion() != "0.10.0" {
		t.Errorf("gNMI version %q, want 0.10.0", resp.GetGNMIVersion())
	}
	models := map[string]*gpb.ModelData{}
	for _, m := range resp.GetSupportedModels() {
		models[m.GetName()] = m
	}
	for _, name := range []string{"openconfig-qos", "openconfig-interfaces"} {
		m, ok := models[name]
		if !ok {
			t.Fatalf("model %s not announced in %v", name, resp.GetSupportedModels())
		}
		if m.GetOrganization() != "OpenConfig working group" || m.GetVersion() == "" {
			t.Errorf("model %s: organization %q version %q", name, m.GetOrganization(), m.GetVersion())
		}
	}
	var ietf bool
	for _, e := range resp.GetSupportedEncodings() {
		ietf = ietf || e == gpb.Encoding_JSON_IETF
	}
	if !ietf {
		t.Errorf("encodings %v lack JSON_IETF", resp.GetSupportedEncodings())
	}
}

// rocePolicy is a small RoCE QoS policy: a queue, its forwarding group, an ECN
// profile and a DSCP classifier, written as list entries the way gNMI
// clients write OpenConfig.
func rocePolicy(t *testing.T) *gpb.SetRequest {
	return labtest.SetReq(
		labtest.Update(t, "/qos/queues/queue[name=tc3]", `{"name":"tc3","config":{"name":"tc3"}}`),
		labtest.Update(t, "/qos/forwarding-groups/forwarding-group[name=fg-tc3]",
			`{"name":"fg-tc3","config":{"name":"fg-tc3","output-queue":"tc3"}}`),
		labtest.Update(t, "/qos/queue-management-profiles/queue-management-profile[name=ecn-tc3]",
			`{"name":"ecn-tc3","config":{"name":"ecn-tc3"},"wred":{"uniform":{"config":
			 {"min-threshold":"153600","max-threshold":"1536000","enable-ecn":true,"max-drop-probability-percent":5}}}}`),
		labtest.Update(t, "/qos/classifiers/classifier[name=dscp]",
			`{"name":"dscp","config":{"name":"dscp","type":"IPV4"},"terms":{"term":[{"id":"3","config":{"id":"3"},
			 "conditions":{"ipv4":{"config":{"dscp-set":[26]}}},"actions":{"config":{"target-group":"fg-tc3"}}}]}}`),
	)
}

func TestSetThenGetAndSubscribe(t *testing.T) {
	// openconfig-2 is this test's alone, so /qos holds exactly what it set.
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-2"))
	resp, err := c.Set(labtest.Ctx(t), rocePolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetResponse()) != 4 || resp.GetResponse()[1].GetOp() != gpb.UpdateResult_UPDATE {
		t.Errorf("SetResponse results %v, want 4 UPDATEs", resp.GetResponse())
	}

	fg := "/qos/forwarding-groups/forwarding-group[name=fg-tc3]"
	labtest.JSONEqual(t, labtest.MustGet(t, c, fg),
		`{"openconfig-qos:config":{"name":"fg-tc3","output-queue":"tc3"},"openconfig-qos:name":"fg-tc3"}`)
	// uint64 leaves are JSON strings in RFC 7951.
	labtest.JSONEqual(t, labtest.MustGet(t, c, "/qos/queue-management-profiles/queue-management-profile[name=ecn-tc3]/wred/uniform/config/min-threshold"), `"153600"`)
	labtest.JSONEqual(t, labtest.MustGet(t, c, "/qos"), `{
	  "openconfig-qos:classifiers": {"classifier": [{"config": {"name": "dscp", "type": "IPV4"}, "name": "dscp",
	    "terms": {"term": [{"actions": {"config": {"target-group": "fg-tc3"}},
	      "conditions": {"ipv4": {"config": {"dscp-set": [26]}}}, "config": {"id": "3"}, "id": "3"}]}}]},
	  "openconfig-qos:forwarding-groups": {"forwarding-group": [{"config": {"name": "fg-tc3", "output-queue": "tc3"}, "name": "fg-tc3"}]},
	  "openconfig-qos:queue-management-profiles": {"queue-management-profile": [{"config": {"name": "ecn-tc3"}, "name": "ecn-tc3",
	    "red": {"uniform": {"config": {"drop": false, "enable-ecn": false}}},
	    "wred": {"uniform": {"config": {"drop": false, "enable-ecn": true, "max-drop-probability-percent": 5,
	      "max-threshold": "1536000", "min-threshold": "153600"}}}}]},
	  "openconfig-qos:queues": {"queue": [{"config": {"name": "tc3"}, "name": "tc3"}]}
	}`)

	want := map[string]string{
		fg + "/name":                "fg-tc3",
		fg + "/config/name":         "fg-tc3",
		fg + "/config/output-queue": "tc3",
	}
	got := labtest.SubscribeOnce(t, c, fg)
	if len(got) != len(want) {
		t.Fatalf("Subscribe ONCE leaves %v, want %v", got, want)
	}
	for p, v := range want {
		if got[p] != v {
			t.Errorf("Subscribe ONCE %s = %q, want %q", p, got[p], v)
		}
	}
}

func TestGetRoot(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	root := labtest.MustGet(t, c, "/")
	for _, member := range []string{`"openconfig-interfaces:interfaces":`, `"iana-if-type:ethernetCsmacd"`} {
		if !strings.Contains(root, member) {
			t.Errorf("Get / lacks %s", member)
		}
	}
}

func TestInterfacesExistAtStart(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	var cfg map[string]any
	labtest.MustUnmarshal(t, labtest.MustGet(t, c, "/interfaces/interface[name=Ethernet8]/config"), &cfg)
	for k, want := range map[string]any{
		"openconfig-interfaces:name":    "Ethernet8",
		"openconfig-interfaces:type":    "iana-if-type:ethernetCsmacd",
		"openconfig-interfaces:enabled": true,
	} {
		if cfg[k] != want {
			t.Errorf("%s = %v, want %v", k, cfg[k], want)
		}
	}
	_, err := labtest.Get(labtest.Ctx(t), c, labtest.Path(t, "/interfaces/interface[name=Ethernet9]"))
	labtest.WantCode(t, err, codes.NotFound)
}

func TestGetErrors(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	ctx := labtest.Ctx(t)
	_, err := labtest.Get(ctx, c, labtest.Path(t, "/qos/queues/queue[name=absent]"))
	labtest.WantCode(t, err, codes.NotFound)
	_, err = labtest.Get(ctx, c, labtest.Path(t, "/interfaces/interface[name=*]"))
	labtest.WantCode(t, err, codes.Unimplemented)
	_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.Path(t, "/interfaces")}, Encoding: gpb.Encoding_PROTO})
	labtest.WantCode(t, err, codes.Unimplemented)
	_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{{Origin: "cli", Elem: labtest.Path(t, "/interfaces").Elem}}})
	labtest.WantCode(t, err, codes.InvalidArgument)
}

func TestGetPlainJSON(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	resp, err := c.Get(labtest.Ctx(t), &gpb.GetRequest{
		Prefix:   &gpb.Path{Origin: "openconfig", Elem: labtest.Path(t, "/interfaces/interface[name=Ethernet1]").Elem},
		Path:     []*gpb.Path{labtest.Path(t, "/config/name")},
		Encoding: gpb.Encoding_JSON,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonVal()); got != `"Ethernet1"` {
		t.Errorf("JSON value %q, want \"Ethernet1\" (prefix + path)", got)
	}
	// A request naming no path reads what its prefix names (gnmiswitch.GetPaths, as on sonic).
	resp, err = c.Get(labtest.Ctx(t), &gpb.GetRequest{
		Prefix:   &gpb.Path{Origin: "openconfig", Elem: labtest.Path(t, "/interfaces/interface[name=Ethernet1]/config/name").Elem},
		Encoding: gpb.Encoding_JSON,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonVal()); got != `"Ethernet1"` {
		t.Errorf("JSON value %q, want \"Ethernet1\" (the prefix alone)", got)
	}
}
