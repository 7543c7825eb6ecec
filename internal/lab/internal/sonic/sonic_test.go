package sonic

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestSONiCAccessAndCapabilities(t *testing.T) {
	spec := labtest.Spec(t, "sonic", 8, Models()[0])
	spec.Name, spec.Latency = "sonic-2", 30*time.Millisecond
	sw := labtest.Start[*Switch](t, Start, spec)
	d := sw.Entry()
	if d.Platform != "sonic" || d.CACertificate == "" || d.Username != spec.Username {
		t.Errorf("inventory entry %+v", d)
	}
	want := []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet16", "Ethernet20", "Ethernet24", "Ethernet28"}
	if got := sw.Interfaces(); !slices.Equal(got, want) {
		t.Errorf("interfaces %v, want %v", got, want)
	}

	ctx := labtest.Ctx(t)
	bad := labtest.Dial(t, d, grpc.WithPerRPCCredentials(labtest.LoginCreds{Username: d.Username, Password: d.Password + "x"}))
	_, err := bad.Set(ctx, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("SCHEDULER/scheduler.0/weight", `"1"`)}})
	labtest.WantCode(t, err, codes.Unauthenticated)
	_, err = sget(ctx, bad, "SCHEDULER")
	labtest.WantCode(t, err, codes.Unauthenticated)

	c := labtest.Dial(t, d)
	start := time.Now()
	resp, err := c.Capabilities(ctx, &gpb.CapabilityRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Errorf("Capabilities took %s, want at least the 30ms latency", took)
	}
	var names []string
	for _, m := range resp.GetSupportedModels() {
		names = append(names, m.GetName())
	}
	for _, m := range []string{"sonic-scheduler", "sonic-wred-profile", "sonic-queue", "sonic-port-qos-map", "sonic-pfcwd"} {
		if !slices.Contains(names, m) {
			t.Errorf("model %s not announced in %v", m, names)
		}
	}
	// Rejected calls count too: the counters measure what clients send.
	if got := sw.Counters(); got.Set != 1 || got.Get != 1 || got.Capabilities != 1 || got.Connections != 2 {
		t.Errorf("counters %+v, want 1 Set, 1 Get, 1 Capabilities over 2 connections", got)
	}
	unchanged(t, sw, stockConfigDB("sonic-2", want, sonicSKUs["ACS-MSN2700"]))
}

func TestSONiCStockDefaults(t *testing.T) {
	sw, c := startSONiC(t, "")
	if got := mustSGet(t, c, "DSCP_TO_TC_MAP/AZURE/26"); got != `"1"` {
		t.Errorf("stock DSCP 26 -> TC %s, want \"1\"", got)
	}
	var dscp map[string]string
	labtest.MustUnmarshal(t, mustSGet(t, c, "DSCP_TO_TC_MAP/AZURE"), &dscp)
	if len(dscp) != 64 || dscp["46"] != "5" || dscp["48"] != "6" || dscp["8"] != "0" {
		t.Errorf("stock DSCP_TO_TC_MAP|AZURE %v", dscp)
	}
	labtest.JSONEqual(t, mustSGet(t, c, "QUEUE/Ethernet4|3"), `{"scheduler":"scheduler.1","wred_profile":"AZURE_LOSSLESS"}`)
	// The default model is Mellanox's ACS-MSN2700: qos_config.j2's Mellanox branch (pfc_to_pg_map)
	// and the dynamic buffer model (lossless PGs 3-4 with profile NULL).
	labtest.JSONEqual(t, mustSGet(t, c, "PORT_QOS_MAP/Ethernet12"), `{"dscp_to_tc_map":"AZURE","tc_to_queue_map":"AZURE",
		"tc_to_pg_map":"AZURE","pfc_to_queue_map":"AZURE","pfc_to_pg_map":"AZURE","pfc_enable":"3,4","pfcwd_sw_enable":"3,4"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"), `{"AZURE":{"3":"3","4":"4"}}`)
	labtest.JSONEqual(t, mustSGet(t, c, "PORT/Ethernet8"), `{"admin_status":"up","alias":"etp3","index":"3",
		"lanes":"8,9,10,11","mtu":"9100","speed":"100000"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "WRED_PROFILE/AZURE_LOSSLESS/green_max_threshold"), `"2097152"`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG"), `{
		"Ethernet0|0":{"profile":"ingress_lossy_profile"},"Ethernet0|3-4":{"profile":"NULL"},
		"Ethernet4|0":{"profile":"ingress_lossy_profile"},"Ethernet4|3-4":{"profile":"NULL"},
		"Ethernet8|0":{"profile":"ingress_lossy_profile"},"Ethernet8|3-4":{"profile":"NULL"},
		"Ethernet12|0":{"profile":"ingress_lossy_profile"},"Ethernet12|3-4":{"profile":"NULL"}}`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_QUEUE/Ethernet0|0-2"), `{"profile":"q_lossy_profile"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "CABLE_LENGTH/AZURE/Ethernet12"), `"5m"`)
	labtest.JSONEqual(t, mustSGet(t, c, "PFC_WD"), `{"GLOBAL":{"POLL_INTERVAL":"200"}}`)
	labtest.JSONEqual(t, mustSGet(t, c, "DEVICE_METADATA/localhost/buffer_model"), `"dynamic"`)
	labtest.JSONEqual(t, mustSGet(t, c, "DEVICE_METADATA/localhost/hwsku"), `"ACS-MSN2700"`)

	// The whole database, as one JSON object of tables.
	var all map[string]map[string]map[string]string
	labtest.MustUnmarshal(t, mustSGet(t, c, ""), &all)
	if len(all["QUEUE"]) != 4*7 || all["SCHEDULER"]["scheduler.0"]["weight"] != "14" {
		t.Errorf("CONFIG_DB root: %d QUEUE keys, SCHEDULER %v", len(all["QUEUE"]), all["SCHEDULER"])
	}

	// DB is a copy.
	db := sw.DB()
	db["SCHEDULER"]["scheduler.0"]["weight"] = "99"
	delete(db, "PORT")
	if got := mustSGet(t, c, "SCHEDULER/scheduler.0/weight"); got != `"14"` {
		t.Errorf("changing DB()'s result changed the switch: weight %s", got)
	}
}

func TestSONiCLosslessRoCEConfig(t *testing.T) {
	sw, c := startSONiC(t, "")
	req := roceConfig()
	resp := mustSet(t, c, req)
	if len(resp.GetResponse()) != len(req.GetUpdate()) || resp.GetResponse()[0].GetOp() != gpb.UpdateResult_UPDATE {
		t.Errorf("SetResponse %v, want one UPDATE per update", resp.GetResponse())
	}
	if got := mustSGet(t, c, "DSCP_TO_TC_MAP/ROCE/26"); got != `"3"` {
		t.Errorf("DSCP 26 -> %s, want \"3\"", got)
	}
	labtest.JSONEqual(t, mustSGet(t, c, "QUEUE/Ethernet0|3"), `{"scheduler":"ROCE-roce","wred_profile":"ROCE-roce"}`)
	// An Update of a key replaces it whole (a JSON Patch add): the stock pfcwd_sw_enable is gone.
	labtest.JSONEqual(t, mustSGet(t, c, "PORT_QOS_MAP/Ethernet0"), `{"dscp_to_tc_map":"ROCE","tc_to_queue_map":"ROCE",
		"tc_to_pg_map":"ROCE","pfc_to_queue_map":"ROCE","pfc_enable":"3"}`)
	// A field Update of an existing key keeps the key's other fields.
	labtest.JSONEqual(t, mustSGet(t, c, "QUEUE/Ethernet0|6"), `{"scheduler":"ROCE-cnp"}`)
	if sw.Saved()["QUEUE"]["Ethernet0|6"]["scheduler"] != "ROCE-cnp" {
		t.Errorf("config save did not follow the Set: saved QUEUE|Ethernet0|6 %v", sw.Saved()["QUEUE"]["Ethernet0|6"])
	}
	labtest.JSONEqual(t, mustSGet(t, c, "SCHEDULER/ROCE-cnp"), `{"type":"STRICT"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "WRED_PROFILE/ROCE-roce/green_min_threshold"), `"153600"`)
	if db := sw.DB(); db["QUEUE"]["Ethernet0|6"]["scheduler"] != "ROCE-cnp" || db["PORT_QOS_MAP"]["Ethernet4"]["pfc_enable"] != "3,4" {
		t.Errorf("DB(): QUEUE|Ethernet0|6 %v, PORT_QOS_MAP|Ethernet4 %v", db["QUEUE"]["Ethernet0|6"], db["PORT_QOS_MAP"]["Ethernet4"])
	}

	// Replace of an existing key drops the fields the value leaves out; an Update of a table
	// replaces the table.
	mustSet(t, c, &gpb.SetRequest{
		Replace: []*gpb.Update{labtest.SONiCUpdate("QUEUE/Ethernet0|3", `{"scheduler":"ROCE-roce"}`)},
		Update:  []*gpb.Update{labtest.SONiCUpdate("SCHEDULER/ROCE-roce/weight", `"60"`), labtest.SONiCUpdate("DOT1P_TO_TC_MAP", `{"ROCE":{"3":"3"}}`)},
	})
	labtest.JSONEqual(t, mustSGet(t, c, "DOT1P_TO_TC_MAP"), `{"ROCE":{"3":"3"}}`)
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("DOT1P_TO_TC_MAP", `{"ROCE2":{"4":"4"}}`)}})
	labtest.JSONEqual(t, mustSGet(t, c, "DOT1P_TO_TC_MAP"), `{"ROCE2":{"4":"4"}}`)
	labtest.JSONEqual(t, mustSGet(t, c, "QUEUE/Ethernet0|3"), `{"scheduler":"ROCE-roce"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "SCHEDULER/ROCE-roce/weight"), `"60"`)

	// Deleting the last field deletes the key; deleting what is absent is skipped; deleting a
	// whole table is how a table goes (its last key alone cannot: EmptyTableError).
	mustSet(t, c, &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath("QUEUE/Ethernet0|3/scheduler"), labtest.SONiCPath("QUEUE/Ethernet0|9"), labtest.SONiCPath("NO_TABLE"),
		labtest.SONiCPath("DOT1P_TO_TC_MAP")}})
	_, err := sget(labtest.Ctx(t), c, "QUEUE/Ethernet0|3")
	labtest.WantCode(t, err, codes.NotFound)
	_, err = sget(labtest.Ctx(t), c, "DOT1P_TO_TC_MAP")
	labtest.WantCode(t, err, codes.NotFound)
}

func TestSONiCPaths(t *testing.T) {
	_, c := startSONiC(t, "")
	ctx := labtest.Ctx(t)
	getWith := func(prefix, p *gpb.Path) (string, error) {
		req := &gpb.GetRequest{Prefix: prefix, Encoding: gpb.Encoding_JSON_IETF}
		if p != nil {
			req.Path = []*gpb.Path{p}
		}
		resp, err := c.Get(ctx, req)
		if err != nil {
			return "", err
		}
		return string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal()), nil
	}
	elems := func(names ...string) []*gpb.PathElem {
		var out []*gpb.PathElem
		for _, n := range names {
			out = append(out, &gpb.PathElem{Name: n})
		}
		return out
	}
	// The origin on the prefix, with part of the path in it (or all of it, the request naming no
	// path), or written on the first element.
	for _, tc := range []struct{ prefix, path *gpb.Path }{
		{&gpb.Path{Origin: "sonic-db", Target: "sonic-1", Elem: elems("CONFIG_DB", "localhost")}, &gpb.Path{Elem: elems("QUEUE", "Ethernet0|3", "scheduler")}},
		{&gpb.Path{Origin: "sonic-db", Elem: elems("CONFIG_DB", "localhost", "QUEUE", "Ethernet0|3", "scheduler")}, nil},
		{nil, &gpb.Path{Elem: elems("sonic-db:CONFIG_DB", "localhost", "QUEUE", "Ethernet0|3", "scheduler")}},
	} {
		if got, err := getWith(tc.prefix, tc.path); err != nil || got != `"scheduler.1"` {
			t.Errorf("Get %v %v: %s, %v", tc.prefix, tc.path, got, err)
		}
	}
	for _, tc := range []struct {
		path *gpb.Path
		code codes.Code
		msg  string
	}{
		{&gpb.Path{Elem: elems("CONFIG_DB", "localhost", "QUEUE")}, codes.InvalidArgument, `unsupported origin ""`},
		{&gpb.Path{Origin: "openconfig", Elem: elems("qos")}, codes.InvalidArgument, `unsupported origin "openconfig"`},
		// sonic-gnmi's own texts (mixed_db_client.go ParseDatabase, wrapped NotFound by server.go).
		{&gpb.Path{Origin: "sonic-db", Elem: elems("CONFIG_DB")}, codes.NotFound, "rpc error: code = Unimplemented desc = Invalid elem length"},
		{&gpb.Path{Origin: "sonic-db"}, codes.NotFound, "rpc error: code = Unimplemented desc = No target specified in path"},
		{&gpb.Path{Origin: "sonic-db", Elem: elems("FOO_DB", "localhost")}, codes.NotFound, "rpc error: code = Unimplemented desc = Invalid target: ns , container "},
		{&gpb.Path{Origin: "sonic-db", Elem: elems("STATE_DB", "localhost")}, codes.NotFound, "this switch serves CONFIG_DB, and APPL_DB for reading (LLDP_ENTRY_TABLE), only"},
		{&gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}, {Name: "QUEUE", Key: map[string]string{"name": "x"}}}}, codes.InvalidArgument, "take no [key=value]"},
		// A key split at its | leaves one element too many: getDbtablePath's text.
		{labtest.SONiCPath("QUEUE/Ethernet0/3/scheduler"), codes.NotFound, "Invalid index scheduler"},
		{labtest.SONiCPath("QUEUE/Ethernet0/3/scheduler/x"), codes.NotFound, "Invalid db table Path QUEUE|Ethernet0|3|scheduler|x"},
		{labtest.SONiCPath("QUEUE/Ethernet0/3"), codes.NotFound, `No valid entry found for path origin:"sonic-db"`},
		{labtest.SONiCPath("NO_TABLE"), codes.NotFound, "Failed to find CONFIG_DB NO_TABLE <nil> []"},
		{labtest.SONiCPath("SCHEDULER/scheduler.0/colour"), codes.NotFound, `No valid entry found for path origin:"sonic-db"`},
	} {
		_, err := getWith(nil, tc.path)
		if status.Code(err) != tc.code || !strings.Contains(status.Convert(err).Message(), tc.msg) {
			t.Errorf("Get %v: %v, want %s with %q", tc.path, err, tc.code, tc.msg)
		}
	}
	// A table name that starts a Redis key but names no table passes getDbtablePath's KEYS check
	// and renders nothing: no notification, no error.
	if resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("BUFFER"), labtest.SONiCPath("SCHEDULER/scheduler.1/weight")}, Encoding: gpb.Encoding_JSON_IETF}); err != nil ||
		len(resp.GetNotification()) != 1 || resp.GetNotification()[0].GetUpdate()[0].GetPath().GetElem()[3].GetName() != "scheduler.1" {
		t.Errorf("Get of BUFFER and a field: %v, %v", resp, err)
	}
	_, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("SCHEDULER/scheduler.9")}, Encoding: gpb.Encoding_PROTO})
	labtest.WantStatus(t, "PROTO Get of a missing key", err, codes.NotFound, "No proto bytes found in redis map[]")
	// Paths of two origins under a prefix without one: ParseOrigin's refusal, for Get as for Set.
	_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("QUEUE"), {Origin: "openconfig", Elem: elems("qos")}}, Encoding: gpb.Encoding_JSON_IETF})
	labtest.WantStatus(t, "a Get of two origins", err, codes.Unimplemented, "Origin conflict in path")
	// On a single-ASIC switch the namespace element is not checked: any name reads as localhost.
	if got, err := getWith(nil, &gpb.Path{Origin: "sonic-db", Elem: elems("CONFIG_DB", "asic0", "SCHEDULER", "scheduler.1", "weight")}); err != nil || got != `"15"` {
		t.Errorf("Get under namespace asic0: %s, %v", got, err)
	}
	// Encodings (sonic-switch.md, "RPCs"): server.go takes JSON, JSON_IETF and PROTO; the
	// MixedDbClient renders a field as JSON_IETF in any of them and anything larger in JSON_IETF only.
	_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("QUEUE")}, Encoding: gpb.Encoding_ASCII})
	labtest.WantStatus(t, "ASCII Get", err, codes.Unimplemented, "unsupported encoding: ASCII")
	_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("QUEUE")}, Encoding: gpb.Encoding(9)})
	labtest.WantStatus(t, "Get of encoding 9", err, codes.Unimplemented, "unsupported encoding: ")
	for _, enc := range []gpb.Encoding{gpb.Encoding_JSON, gpb.Encoding_PROTO} {
		resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("SCHEDULER/scheduler.1/weight")}, Encoding: enc})
		if err != nil || string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal()) != `"15"` {
			t.Errorf("%s Get of a field: %v, %v", enc, resp, err)
		}
	}
	for _, tc := range []struct {
		enc  gpb.Encoding
		path string
		msg  string
	}{
		{gpb.Encoding_PROTO, "SCHEDULER/scheduler.1", "No proto bytes found in redis map[type:DWRR weight:15]"},
		{gpb.Encoding_PROTO, "SCHEDULER", "No proto bytes found in msi map[scheduler.0:map[type:DWRR weight:14] scheduler.1:map[type:DWRR weight:15]]"},
		{gpb.Encoding_PROTO, "", "No proto bytes found in msi map[BUFFER_PG:0x"},
		{gpb.Encoding_JSON, "SCHEDULER/scheduler.1", `No valid entry found for path origin:"sonic-db"`},
		{gpb.Encoding_JSON, "SCHEDULER", "Unknown encoding JSON"},
		{gpb.Encoding_JSON, "", "Unknown encoding JSON"},
	} {
		_, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath(tc.path)}, Encoding: tc.enc})
		if st := status.Convert(err); st.Code() != codes.NotFound || !strings.HasPrefix(st.Message(), tc.msg) {
			t.Errorf("%s Get of /%s: %v, want NotFound starting %q", tc.enc, tc.path, err, tc.msg)
		}
	}
	caps, err := c.Capabilities(ctx, &gpb.CapabilityRequest{})
	if err != nil || fmt.Sprint(caps.GetSupportedEncodings()) != "[JSON JSON_IETF PROTO]" {
		t.Errorf("Capabilities' encodings: %v, %v", caps.GetSupportedEncodings(), err)
	}
	// sonic-gnmi answers GetRequests of type ALL only, whatever the path (server.go Get's first
	// check): a CONFIG or STATE Get of a table that exists is refused.
	for _, typ := range []gpb.GetRequest_DataType{gpb.GetRequest_CONFIG, gpb.GetRequest_STATE} {
		_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath("SCHEDULER")}, Encoding: gpb.Encoding_JSON_IETF, Type: typ})
		labtest.WantStatus(t, "a Get of type "+typ.String(), err, codes.Unimplemented, "unsupported request type: "+typ.String())
	}
}

func TestSONiCSubscribeOnce(t *testing.T) {
	_, c := startSONiC(t, "")
	var got []string
	for _, n := range labtest.Once(t, c, &gpb.SubscriptionList{
		Prefix:   &gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}}},
		Encoding: gpb.Encoding_JSON_IETF,
		Subscription: []*gpb.Subscription{
			{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "SCHEDULER"}}}},
			{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "QUEUE"}, {Name: "Ethernet4|9"}}}},
			{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "BUFFER"}}}},
			{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "QUEUE"}, {Name: "Ethernet4|4"}, {Name: "wred_profile"}}}},
		},
	}) {
		got = append(got, string(n.GetUpdate()[0].GetVal().GetJsonIetfVal()))
	}
	if len(got) != 2 || got[1] != `"AZURE_LOSSLESS"` || !strings.Contains(got[0], `"scheduler.0":{"type":"DWRR","weight":"14"}`) {
		t.Errorf("ONCE updates %q", got)
	}

	// A table no Redis key starts with ends OnceRun with a fatal message, after the updates before it.
	stream, err := c.Subscribe(labtest.Ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Mode: gpb.SubscriptionList_ONCE, Subscription: []*gpb.Subscription{{Path: labtest.SONiCPath("SCHEDULER")}, {Path: labtest.SONiCPath("NO_TABLE")}},
	}}})
	if resp, err := stream.Recv(); err != nil || resp.GetUpdate() == nil {
		t.Errorf("first answer %v, %v, want SCHEDULER's update", resp, err)
	}
	_, err = stream.Recv()
	labtest.WantStatus(t, "ONCE of NO_TABLE", err, codes.InvalidArgument, "OnceRun error: Failed to find CONFIG_DB NO_TABLE <nil> []")

	stream, err = c.Subscribe(labtest.Ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Mode: gpb.SubscriptionList_STREAM, Subscription: []*gpb.Subscription{{Path: labtest.SONiCPath("QUEUE")}},
	}}})
	_, err = stream.Recv()
	labtest.WantStatus(t, "STREAM", err, codes.Unimplemented, "subscription mode STREAM is not supported: use ONCE")

	// sonic-gnmi reads sonic-db as JSON_IETF whatever encoding the subscription asks for.
	for _, enc := range []gpb.Encoding{gpb.Encoding_PROTO, gpb.Encoding_JSON, gpb.Encoding_ASCII} {
		ns := labtest.Once(t, c, &gpb.SubscriptionList{Encoding: enc, Subscription: []*gpb.Subscription{{Path: labtest.SONiCPath("SCHEDULER/scheduler.1")}}})
		if len(ns) != 1 || string(ns[0].GetUpdate()[0].GetVal().GetJsonIetfVal()) != `{"type":"DWRR","weight":"15"}` {
			t.Errorf("ONCE in %s: %v", enc, ns)
		}
	}

	// client_subscribe.go Run's refusals.
	first := func(req *gpb.SubscribeRequest) error {
		t.Helper()
		stream, err := c.Subscribe(labtest.Ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		_ = stream.Send(req)
		_, err = stream.Recv()
		return err
	}
	list := func(l *gpb.SubscriptionList) *gpb.SubscribeRequest {
		return &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: l}}
	}
	queue := []*gpb.Subscription{{Path: labtest.SONiCPath("QUEUE")}}
	poll := &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Poll{Poll: &gpb.Poll{}}}
	for _, tc := range []struct {
		what string
		req  *gpb.SubscribeRequest
		code codes.Code
		msg  string
	}{
		{"a Poll first", poll, codes.InvalidArgument, fmt.Sprintf("first message must be SubscriptionList: %q", poll)},
		{"no subscription", list(&gpb.SubscriptionList{}), codes.NotFound, fmt.Sprintf("Invalid subscription path: No Subscription %q", list(&gpb.SubscriptionList{}))},
		{"mode 7", list(&gpb.SubscriptionList{Mode: 7, Subscription: queue}), codes.InvalidArgument,
			fmt.Sprintf("Unkown subscription mode: %q", list(&gpb.SubscriptionList{Mode: 7, Subscription: queue}))}, //nolint:misspell // sonic-gnmi's text
		{"two origins", list(&gpb.SubscriptionList{Subscription: []*gpb.Subscription{{Path: labtest.SONiCPath("QUEUE")}, {Path: &gpb.Path{Origin: "openconfig"}}}}),
			codes.Unimplemented, "Origin conflict in path"},
		{"prefix and path origins", list(&gpb.SubscriptionList{Prefix: &gpb.Path{Origin: "openconfig"}, Subscription: queue}),
			codes.InvalidArgument, "Origin conflict between prefix and paths"},
		{"origin foo", list(&gpb.SubscriptionList{Prefix: &gpb.Path{Origin: "foo"}, Subscription: []*gpb.Subscription{{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "x"}}}}}}),
			codes.Unimplemented, "Unsupported origin: foo"},
		{"no origin or target", list(&gpb.SubscriptionList{Subscription: []*gpb.Subscription{{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}}}}}}),
			codes.Unimplemented, "Empty target data not supported"},
	} {
		labtest.WantStatus(t, tc.what, first(tc.req), tc.code, tc.msg)
	}
}

func TestSONiCFailNextSet(t *testing.T) {
	sw, c := startSONiC(t, "")
	before := sw.DB()
	sw.FailNextSet("configuration locked by another session")
	_, err := c.Set(labtest.Ctx(t), roceConfig())
	labtest.WantCode(t, err, codes.FailedPrecondition)
	if !strings.Contains(err.Error(), "configuration locked by another session") {
		t.Errorf("error %v lacks the message", err)
	}
	unchanged(t, sw, before)
	mustSet(t, c, roceConfig())
	if n := sw.Counters().Set; n != 2 {
		t.Errorf("Set counter %d, want 2", n)
	}
	sw.ResetCounters()
	if n := sw.Counters().Set; n != 0 {
		t.Errorf("Set counter %d after reset", n)
	}

	// union_replace is refused before anything is read (gnmiswitch.Endpoint.RefuseSet, as on openconfig).
	before = sw.DB()
	_, err = c.Set(labtest.Ctx(t), &gpb.SetRequest{UnionReplace: roceConfig().GetUpdate()})
	labtest.WantCode(t, err, codes.Unimplemented)
	if !strings.Contains(err.Error(), "union_replace is not supported") {
		t.Errorf("union_replace: error %v", err)
	}
	unchanged(t, sw, before)
}

func TestSONiCStorm(t *testing.T) {
	sw, _ := startSONiC(t, "")
	if err := sw.Storm("Ethernet4", true); err != nil {
		t.Fatal(err)
	}
	if err := sw.Storm("Ethernet1", true); err == nil || !strings.Contains(err.Error(), "Ethernet0, Ethernet4, Ethernet8, Ethernet12") {
		t.Errorf("storm on a missing port: %v", err)
	}
}

// A Broadcom SKU runs the traditional buffer model: qos_config.j2's generic branch (no
// pfc_to_pg_map), and buffermgrd's lossless PGs from the lookup table, which follow every
// change of cable length, speed or pfc_enable and overwrite a profile set by hand.
func TestSONiCTraditionalBufferManager(t *testing.T) {
	sw, c := startSONiC(t, "Arista-7060CX-32S-C32")
	labtest.JSONEqual(t, mustSGet(t, c, "DEVICE_METADATA/localhost/buffer_model"), `"traditional"`)
	labtest.JSONEqual(t, mustSGet(t, c, "PORT_QOS_MAP/Ethernet0"), `{"dscp_to_tc_map":"AZURE","tc_to_queue_map":"AZURE",
		"tc_to_pg_map":"AZURE","pfc_to_queue_map":"AZURE","pfc_enable":"3,4","pfcwd_sw_enable":"3,4"}`)
	if _, err := sget(labtest.Ctx(t), c, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"); status.Code(err) != codes.NotFound {
		t.Errorf("a Broadcom SKU has PFC_PRIORITY_TO_PRIORITY_GROUP_MAP: %v", err)
	}
	// At boot: pg_lossless_100000_5m_profile from the th/gen/BALANCED row "100000 5m 1248 2288 165568 0 2288".
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet0|3-4"), `{"profile":"pg_lossless_100000_5m_profile"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PROFILE/pg_lossless_100000_5m_profile"), `{"pool":"ingress_lossless_pool",
		"xon":"2288","xon_offset":"2288","xoff":"165568","size":"1248","dynamic_th":"0"}`)

	// A cable length change: a new profile, the PG moved to it, the old profile kept.
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("CABLE_LENGTH/AZURE/Ethernet0", `"40m"`)}})
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet0|3-4"), `{"profile":"pg_lossless_100000_40m_profile"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PROFILE/pg_lossless_100000_40m_profile/xoff"), `"177632"`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PROFILE/pg_lossless_100000_5m_profile/xoff"), `"165568"`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet4|3-4"), `{"profile":"pg_lossless_100000_5m_profile"}`)

	// A profile set by hand lasts until the next change buffermgrd watches.
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{
		labtest.SONiCUpdate("BUFFER_PROFILE/mine", `{"pool":"ingress_lossless_pool","xon":"2288","xoff":"100000","size":"1248","dynamic_th":"0"}`),
		labtest.SONiCUpdate("BUFFER_PG/Ethernet0|3-4/profile", `"mine"`)}})
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet0|3-4"), `{"profile":"mine"}`)
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("PORT/Ethernet0/mtu", `"9000"`)}})
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet0|3-4"), `{"profile":"pg_lossless_100000_40m_profile"}`)

	// pfc_enable 3: a new PG key 3; the old 3-4 key stays (buffermgrd deletes none).
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("PORT_QOS_MAP/Ethernet4/pfc_enable", `"3"`)}})
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet4|3"), `{"profile":"pg_lossless_100000_5m_profile"}`)
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet4|3-4"), `{"profile":"pg_lossless_100000_5m_profile"}`)

	// A cable length without a lookup row: buffermgrd drops the entry, the PG keeps its profile.
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("CABLE_LENGTH/AZURE/Ethernet8", `"7m"`)}})
	labtest.JSONEqual(t, mustSGet(t, c, "BUFFER_PG/Ethernet8|3-4"), `{"profile":"pg_lossless_100000_5m_profile"}`)
	if db := sw.DB(); db["BUFFER_PROFILE"]["pg_lossless_100000_7m_profile"] != nil {
		t.Error("buffermgrd made a profile without a lookup row")
	}
	for _, ids := range []struct{ in, want string }{{"3,4", "3-4"}, {"2,3,4,6", "2-4,6"}, {"3", "3"}, {"3,5", "3,5"}, {"", ""}} {
		if got := strings.Join(pgIDList(ids.in), ","); got != ids.want {
			t.Errorf("pgIDList(%q) = %q, want %q", ids.in, got, ids.want)
		}
	}
}
