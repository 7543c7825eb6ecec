package sonic

import (
	"regexp"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sonicGNMIText matches the texts a refused Set carries on a real switch (sonic-switch.md,
// "Refusals"): GCU's click error line, or sonic-gnmi's JsonClient errors.
var sonicGNMIText = regexp.MustCompile(`^(Error: Validate json patch: \[.*\] failed due to: .+|` +
	`Error: Failed to apply patch on the following scopes:|Invalid (entry|field|table|database|db table Path) .*|Fail to parse .*)$`)

// rejected sends req and wants it refused as sonic-gnmi refuses it (code Unknown, one of its
// texts), with want in the text or in the reasons the switch logged (LastRefusal), and
// CONFIG_DB unchanged.
func rejected(t *testing.T, sw *Switch, c gpb.GNMIClient, name string, req *gpb.SetRequest, want string) {
	t.Helper()
	before := sw.DB()
	_, err := c.Set(labtest.Ctx(t), req)
	msg := status.Convert(err).Message()
	switch {
	case status.Code(err) != codes.Unknown || !sonicGNMIText.MatchString(msg):
		t.Errorf("%s: got %v\nwant code Unknown with one of sonic-gnmi's texts", name, err)
	case !strings.Contains(msg, want) && !strings.Contains(sw.LastRefusal(), want):
		t.Errorf("%s: got %v, logged %q\nwant %q in either", name, err, sw.LastRefusal(), want)
	}
	unchanged(t, sw, before)
}

func TestSONiCValidationRejectsWholeRequest(t *testing.T) {
	sw, c := startSONiC(t, "")
	// A port watchdog, so the poll-interval rule has something to compare.
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{
		labtest.SONiCUpdate("PFC_WD/Ethernet0", `{"action":"drop","detection_time":"200","restoration_time":"400"}`),
		labtest.SONiCUpdate("BUFFER_PROFILE/roce-Ethernet0-lossless", `{"pool":"ingress_lossless_pool","size":"184320","xoff":"122880","xon":"61440","dynamic_th":"0"}`),
	}})
	// Every case rides with a valid update, before and after it: nothing may be applied.
	valid := labtest.SONiCUpdate("SCHEDULER/mixed", `{"type":"DWRR","weight":"10"}`)
	cases := []struct {
		name string
		up   *gpb.Update
		want string
	}{
		{"unknown table", labtest.SONiCUpdate("FOO_TABLE/x", `{"a":"b"}`), "FOO_TABLE: unknown table; this switch's CONFIG_DB holds BUFFER_PG, BUFFER_POOL"},
		{"unknown field", labtest.SONiCUpdate("SCHEDULER/s1", `{"type":"DWRR","weight":"10","colour":"red"}`), "SCHEDULER|s1|colour: unknown field; known: cbs, cir, meter_type"},
		{"JSON number", labtest.SONiCUpdate("SCHEDULER/s1", `{"type":"DWRR","weight":10}`), `SCHEDULER|s1|weight: value 10 is a JSON number; CONFIG_DB values are strings: write "10"`},
		{"JSON array", labtest.SONiCUpdate("PORT_QOS_MAP/Ethernet0/pfc_enable", `[3,4]`), "PORT_QOS_MAP|Ethernet0|pfc_enable: value [3,4] is a JSON array"},
		{"key not an object", labtest.SONiCUpdate("SCHEDULER/s1", `"DWRR"`), "SCHEDULER|s1: value must be a JSON object of fields, got a JSON string"},
		{"not JSON", labtest.SONiCUpdate("SCHEDULER/s1", `{type:DWRR}`), "SCHEDULER|s1: value is not JSON"},
		{"DSCP 64", labtest.SONiCUpdate("DSCP_TO_TC_MAP/AZURE/64", `"1"`), `DSCP_TO_TC_MAP|AZURE|64: field name "64" is not a DSCP 0-63 (sonic-dscp-tc-map.yang)`},
		{"DSCP leading zero", labtest.SONiCUpdate("DSCP_TO_TC_MAP/AZURE/07", `"1"`), `field name "07" is not a DSCP 0-63`},
		{"TC 16", labtest.SONiCUpdate("DSCP_TO_TC_MAP/AZURE/26", `"16"`), `DSCP_TO_TC_MAP|AZURE|26: "16" is not a traffic class 0-15`},
		{"map name", labtest.SONiCUpdate("DSCP_TO_TC_MAP/RO.CE", `{"26":"3"}`), `DSCP_TO_TC_MAP|RO.CE: key "RO.CE" is not a map name`},
		{"queue 10", labtest.SONiCUpdate("TC_TO_QUEUE_MAP/AZURE/3", `"10"`), `"10" is not a queue 0-9 (sonic-tc-queue-map.yang)`},
		{"PG 8", labtest.SONiCUpdate("TC_TO_PRIORITY_GROUP_MAP/AZURE/3", `"8"`), `"8" is not a priority group 0-7`},
		{"TC key 16", labtest.SONiCUpdate("TC_TO_QUEUE_MAP/AZURE/16", `"7"`), `field name "16" is not a traffic class 0-15`},
		{"dot1p 8", labtest.SONiCUpdate("DOT1P_TO_TC_MAP/ROCE", `{"8":"3"}`), `field name "8" is not a DOT1P priority 0-7`},
		{"PFC priority 9", labtest.SONiCUpdate("MAP_PFC_PRIORITY_TO_QUEUE/AZURE/9", `"1"`), `field name "9" is not a PFC priority 0-7`},
		{"scheduler type", labtest.SONiCUpdate("SCHEDULER/s1", `{"type":"PRIORITY","weight":"5"}`), `SCHEDULER|s1|type: "PRIORITY" is not one of DWRR, WRR, STRICT (sonic-scheduler.yang)`},
		{"weight 0", labtest.SONiCUpdate("SCHEDULER/s1", `{"type":"DWRR","weight":"0"}`), `SCHEDULER|s1|weight: "0" is not an integer in 1..100`},
		{"weight 101", labtest.SONiCUpdate("SCHEDULER/scheduler.0/weight", `"101"`), `"101" is not an integer in 1..100`},
		{"pir without cir", labtest.SONiCUpdate("SCHEDULER/s1", `{"type":"DWRR","weight":"10","pir":"1000"}`), "SCHEDULER|s1|pir: pir can't be configured without cir."},
		{"WRED max < min", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"green_min_threshold":"2000","green_max_threshold":"1000"}`),
			"WRED_PROFILE|w1|green_max_threshold: Green max threshold must be greater than or equal to min threshold (1000 < 2000)"},
		{"WRED max without min", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"yellow_max_threshold":"1000"}`), "yellow_min_threshold is not set"},
		{"WRED lowers min of stock", labtest.SONiCUpdate("WRED_PROFILE/AZURE_LOSSLESS/red_min_threshold", `"3000000"`), "WRED_PROFILE|AZURE_LOSSLESS|red_max_threshold: Red max threshold"},
		{"drop probability 101", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"green_drop_probability":"101"}`), `"101" is not an integer in 0..100`},
		{"threshold not uint64", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"green_min_threshold":"-1"}`), `WRED_PROFILE|w1|green_min_threshold: "-1" is not an integer in 0..18446744073709551615`},
		{"wred enable", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"wred_green_enable":"yes"}`), `"yes" is not one of true, false`},
		{"ecn mode", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"ecn":"ecn_blue"}`), `"ecn_blue" is not one of ecn_none, ecn_green`},
		{"ECN threshold field", labtest.SONiCUpdate("WRED_PROFILE/w1", `{"ecn":"ecn_red","ecn_green_min_threshold":"100"}`), "WRED_PROFILE|w1|ecn_green_min_threshold: unknown field"},
		{"WRED name", labtest.SONiCUpdate("WRED_PROFILE/w.1", `{"ecn":"ecn_all"}`), `key "w.1" is not a WRED profile name`},
		{"queue on missing port", labtest.SONiCUpdate("QUEUE/Ethernet99|3", `{"scheduler":"scheduler.0"}`), `QUEUE|Ethernet99|3: key "Ethernet99" is not a port: PORT|Ethernet99 does not exist (leafref) (sonic-queue.yang)`},
		{"multi-ASIC key", labtest.SONiCUpdate("QUEUE/dut|asic0|Ethernet0|3", `{"scheduler":"scheduler.0"}`), "multi-ASIC keys host|asic|port|index are not served"},
		{"missing scheduler", labtest.SONiCUpdate("QUEUE/Ethernet0|3/scheduler", `"nope"`), `QUEUE|Ethernet0|3|scheduler: "nope" refers to SCHEDULER|nope, which does not exist (leafref)`},
		{"missing WRED profile", labtest.SONiCUpdate("QUEUE/Ethernet4|3/wred_profile", `"nope"`), `"nope" refers to WRED_PROFILE|nope, which does not exist`},
		{"reference in the [TABLE|key] form", labtest.SONiCUpdate("QUEUE/Ethernet0|3/scheduler", `"[SCHEDULER|scheduler.0]"`), `refers to SCHEDULER|[SCHEDULER|scheduler.0], which does not exist`},
		{"cable length None", labtest.SONiCUpdate("CABLE_LENGTH/AZURE/Ethernet0", `"None"`), `"None" is not a length in metres`},
		{"port QoS map on missing port", labtest.SONiCUpdate("PORT_QOS_MAP/Ethernet99", `{"pfc_enable":"3"}`), `key "Ethernet99" is not a port: PORT|Ethernet99 does not exist (leafref); or "global"`},
		{"missing DSCP map", labtest.SONiCUpdate("PORT_QOS_MAP/Ethernet0/dscp_to_tc_map", `"ROCE"`), `"ROCE" refers to DSCP_TO_TC_MAP|ROCE, which does not exist`},
		{"pfc_enable 8", labtest.SONiCUpdate("PORT_QOS_MAP/Ethernet0/pfc_enable", `"3,8"`), `PORT_QOS_MAP|Ethernet0|pfc_enable: "3,8" is not a comma-separated list of priorities 0-7`},
		{"profile without pool", labtest.SONiCUpdate("BUFFER_PROFILE/p1", `{"size":"0"}`), "BUFFER_PROFILE|p1|pool: mandatory field is missing (sonic-buffer-profile.yang)"},
		{"profile without size", labtest.SONiCUpdate("BUFFER_PROFILE/p1", `{"pool":"ingress_lossless_pool"}`), "BUFFER_PROFILE|p1|size: mandatory field is missing"},
		{"profile on missing pool", labtest.SONiCUpdate("BUFFER_PROFILE/p1", `{"pool":"nope","size":"0"}`), `"nope" refers to BUFFER_POOL|nope`},
		{"dynamic_th 8", labtest.SONiCUpdate("BUFFER_PROFILE/roce-Ethernet0-lossless/dynamic_th", `"8"`), `"8" is not an integer in -8..7`},
		{"xoff not a number", labtest.SONiCUpdate("BUFFER_PROFILE/roce-Ethernet0-lossless/xoff", `"120k"`), `"120k" is not an integer`},
		{"PG profile missing", labtest.SONiCUpdate("BUFFER_PG/Ethernet0|3", `{"profile":"nope"}`), `BUFFER_PG|Ethernet0|3|profile: "nope" refers to BUFFER_PROFILE|nope`},
		{"PG 8", labtest.SONiCUpdate("BUFFER_PG/Ethernet0|3-8", `{"profile":"NULL"}`), `key "8" is not a priority group 0-7`},
		{"pool without type", labtest.SONiCUpdate("BUFFER_POOL/p1", `{"mode":"dynamic"}`), "BUFFER_POOL|p1|type: mandatory field is missing"},
		{"cable length on missing port", labtest.SONiCUpdate("CABLE_LENGTH/AZURE/Ethernet99", `"40m"`), `CABLE_LENGTH|AZURE|Ethernet99: field name "Ethernet99" is not a port`},
		{"cable length unit", labtest.SONiCUpdate("CABLE_LENGTH/AZURE/Ethernet0", `"40"`), `CABLE_LENGTH|AZURE|Ethernet0: "40" is not a length in metres`},
		{"watchdog action", labtest.SONiCUpdate("PFC_WD/Ethernet0/action", `"shutdown"`), `PFC_WD|Ethernet0|action: "shutdown" is not one of drop, forward, alert (sonic-pfcwd.yang)`},
		{"detection time range", labtest.SONiCUpdate("PFC_WD/Ethernet0/detection_time", `"50"`), `"50" is not an integer in 100..5000`},
		{"detection below poll", labtest.SONiCUpdate("PFC_WD/Ethernet0/detection_time", `"150"`),
			"PFC_WD|Ethernet0|detection_time: detection_time must be greater than or equal to POLL_INTERVAL (150 < PFC_WD|GLOBAL|POLL_INTERVAL 200)"},
		{"poll raised above detection", labtest.SONiCUpdate("PFC_WD/GLOBAL/POLL_INTERVAL", `"300"`), "PFC_WD|Ethernet0|detection_time: detection_time must be greater than or equal to POLL_INTERVAL (200 < PFC_WD|GLOBAL|POLL_INTERVAL 300)"},
		{"restoration range", labtest.SONiCUpdate("PFC_WD/Ethernet0/restoration_time", `"70000"`), `"70000" is not an integer in 100..60000`},
		{"poll range", labtest.SONiCUpdate("PFC_WD/GLOBAL/POLL_INTERVAL", `"1001"`), `"1001" is not an integer in 100..1000`},
		{"action on GLOBAL", labtest.SONiCUpdate("PFC_WD/GLOBAL/action", `"drop"`), "PFC_WD|GLOBAL|action: action is not allowed on PFC_WD|GLOBAL, only on a port"},
		{"poll on a port", labtest.SONiCUpdate("PFC_WD/Ethernet0/POLL_INTERVAL", `"200"`), "PFC_WD|Ethernet0|POLL_INTERVAL: POLL_INTERVAL is not allowed on a port's PFC_WD entry"},
		{"MTU", labtest.SONiCUpdate("PORT/Ethernet0/mtu", `"9217"`), `PORT|Ethernet0|mtu: "9217" is not an integer in 68..9216 (sonic-port.yang)`},
		{"new port without lanes", labtest.SONiCUpdate("PORT/Ethernet64", `{"speed":"100000"}`), "PORT|Ethernet64|lanes: mandatory field is missing"},
	}
	for _, tc := range cases {
		rejected(t, sw, c, tc.name, &gpb.SetRequest{Update: []*gpb.Update{valid, tc.up, valid}}, tc.want)
	}

	for _, tc := range []struct {
		name string
		req  *gpb.SetRequest
		want string
	}{
		{"delete all of CONFIG_DB", &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath("")}}, "Invalid db table Path []"},
		{"proto value", &gpb.SetRequest{Update: []*gpb.Update{{Path: labtest.SONiCPath("SCHEDULER/scheduler.0/weight"), Val: &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: 5}}}}},
			"Fail to parse "},
		{"string_val", &gpb.SetRequest{Update: []*gpb.Update{{Path: labtest.SONiCPath("SCHEDULER/scheduler.0/weight"), Val: &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: "5"}}}}},
			"Fail to parse "},
		{"replace with an invalid table", &gpb.SetRequest{Replace: []*gpb.Update{labtest.SONiCUpdate("SCHEDULER", `{"only":{"type":"STRICT"}}`)}},
			`QUEUE|Ethernet0|0|scheduler: "scheduler.0" refers to SCHEDULER|scheduler.0, which does not exist`},
		// sonic-gnmi's Replace is JsonClient Remove then Add: an absent target fails the Set.
		{"replace an absent key", &gpb.SetRequest{Replace: []*gpb.Update{labtest.SONiCUpdate("SCHEDULER/new", `{"type":"STRICT"}`)}}, "Invalid entry map[scheduler.0:map["},
		{"replace an absent field", &gpb.SetRequest{Replace: []*gpb.Update{labtest.SONiCUpdate("SCHEDULER/scheduler.0/meter_type", `"bytes"`)}}, "Invalid entry map[type:DWRR weight:14]"},
		{"replace an absent table", &gpb.SetRequest{Replace: []*gpb.Update{labtest.SONiCUpdate("DOT1P_TO_TC_MAP/ROCE", `{"3":"3"}`)}}, "Invalid database DOT1P_TO_TC_MAP -> map["},
		// A field Update needs its key: JsonClient creates it, GCU's jsonpatch does not.
		{"field of an absent key", &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("PFC_WD/Ethernet4/action", `"drop"`)}},
			"failed due to: member 'Ethernet4' not found in {'Ethernet0': {'action': 'drop'"},
		// The last key of a table deleted without the table: GCU's EmptyTableError.
		{"empty table", &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath("CABLE_LENGTH/AZURE")}},
			"localhost: given patch is not valid because it will result in empty tables " + strings.Repeat(" ", 33) +
				"which is not allowed in ConfigDb. " + strings.Repeat(" ", 33) + "Table: CABLE_LENGTH"},
	} {
		rejected(t, sw, c, tc.name, tc.req, tc.want)
	}
	// Paths outside sonic-db are refused before any of that, as gnmi_server/server.go does: paths
	// of two origins conflict, and one other origin goes to translib, whose writes are off.
	before := sw.DB()
	_, err := c.Set(labtest.Ctx(t), &gpb.SetRequest{Update: []*gpb.Update{valid, {Path: labtest.Path(t, "/qos"), Val: labtest.JSONIETF(`{}`)}}})
	labtest.WantStatus(t, "paths of two origins", err, codes.Unimplemented, "Origin conflict in path")
	_, err = c.Set(labtest.Ctx(t), &gpb.SetRequest{Update: []*gpb.Update{{Path: labtest.Path(t, "/qos"), Val: labtest.JSONIETF(`{}`)}}})
	labtest.WantStatus(t, "openconfig origin", err, codes.Unimplemented, "Translib write is disabled")
	// Elements past TABLE/KEY/FIELD: JsonClient Add's text (code Unknown); a delete of one is skipped.
	_, err = c.Set(labtest.Ctx(t), &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("QUEUE/Ethernet0/3/scheduler", `"scheduler.0"`)}})
	labtest.WantStatus(t, "a split key", err, codes.Unknown, "Invalid index scheduler")
	_, err = c.Set(labtest.Ctx(t), &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "STATE_DB"}, {Name: "localhost"}, {Name: "X"}}}, Val: labtest.JSONIETF(`{}`)}}})
	labtest.WantStatus(t, "a Set of STATE_DB", err, codes.Unknown, "Set RPC does not support STATE_DB")
	unchanged(t, sw, before)
}

// Deleting an object a reference still names is rejected: validation looks at the database the
// request would leave, so it fails on the referrer.
func TestSONiCReferences(t *testing.T) {
	sw, c := startSONiC(t, "")
	del := func(rel string) *gpb.SetRequest { return &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath(rel)}} }
	for _, tc := range []struct {
		rel, want string
	}{
		{"SCHEDULER/scheduler.1", `QUEUE|Ethernet0|3|scheduler: "scheduler.1" refers to SCHEDULER|scheduler.1, which does not exist (leafref) (sonic-queue.yang)`},
		{"WRED_PROFILE/AZURE_LOSSLESS", `QUEUE|Ethernet0|3|wred_profile: "AZURE_LOSSLESS" refers to WRED_PROFILE|AZURE_LOSSLESS`},
		{"DSCP_TO_TC_MAP/AZURE", `PORT_QOS_MAP|Ethernet0|dscp_to_tc_map: "AZURE" refers to DSCP_TO_TC_MAP|AZURE`},
		{"TC_TO_PRIORITY_GROUP_MAP", `PORT_QOS_MAP|Ethernet0|tc_to_pg_map: "AZURE" refers to TC_TO_PRIORITY_GROUP_MAP|AZURE`},
		{"BUFFER_POOL/ingress_lossy_pool", `BUFFER_PROFILE|ingress_lossy_profile|pool: "ingress_lossy_pool" refers to BUFFER_POOL|ingress_lossy_pool`},
		{"BUFFER_PROFILE/ingress_lossy_profile/size", "BUFFER_PROFILE|ingress_lossy_profile|size: mandatory field is missing"},
		{"PORT/Ethernet4", `BUFFER_PG|Ethernet4|0: key "Ethernet4" is not a port: PORT|Ethernet4 does not exist (leafref) (sonic-buffer-pg.yang)`},
		{"PORT/Ethernet4", "; and "},
	} {
		rejected(t, sw, c, "delete "+tc.rel, del(tc.rel), tc.want)
	}

	// Moving every queue off scheduler.1 in the same request lets it go: the delete comes first
	// in the request, but only the database the whole request leaves is validated.
	req := &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath("SCHEDULER/scheduler.1")}}
	for _, p := range sonicPortNames(4) {
		for _, q := range []string{"3", "4"} {
			req.Update = append(req.Update, labtest.SONiCUpdate("QUEUE/"+p+"|"+q+"/scheduler", `"scheduler.0"`))
		}
	}
	mustSet(t, c, req)
	if db := sw.DB(); db["SCHEDULER"]["scheduler.1"] != nil || db["QUEUE"]["Ethernet12|4"]["scheduler"] != "scheduler.0" {
		t.Errorf("after moving the queues: SCHEDULER %v, QUEUE|Ethernet12|4 %v", db["SCHEDULER"], db["QUEUE"]["Ethernet12|4"])
	}
}

// GCU's field-operation validators judge the change itself: of an existing BUFFER_PROFILE only
// dynamic_th and xoff may change (a whole profile may come and go), BUFFER_POOL not at all, and
// PFC_WD|GLOBAL's POLL_INTERVAL may not be removed.
func TestSONiCFieldOperationValidators(t *testing.T) {
	sw, c := startSONiC(t, "")
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{
		labtest.SONiCUpdate("BUFFER_PROFILE/mine", `{"pool":"ingress_lossless_pool","size":"184320","xoff":"122880","xon":"61440","dynamic_th":"0"}`)}})
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("BUFFER_PROFILE/mine/dynamic_th", `"1"`), labtest.SONiCUpdate("BUFFER_PROFILE/mine/xoff", `"100000"`)}})
	const profile = "Modification of BUFFER_PROFILE table is illegal- validating function " +
		"generic_config_updater.field_operation_validators.buffer_profile_config_update_validator returned False"
	for _, tc := range []struct {
		name string
		req  *gpb.SetRequest
		want string
	}{
		{"xon of an existing profile", &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("BUFFER_PROFILE/mine/xon", `"1000"`)}}, profile},
		{"the whole profile rewritten with another size", &gpb.SetRequest{Update: []*gpb.Update{
			labtest.SONiCUpdate("BUFFER_PROFILE/mine", `{"pool":"ingress_lossless_pool","size":"1","xoff":"100000","xon":"61440","dynamic_th":"1"}`)}}, profile},
		{"a pool", &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("BUFFER_POOL/ingress_lossless_pool/mode", `"static"`)}},
			"Modification of BUFFER_POOL table is illegal"},
		{"the watchdog poll interval", &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath("PFC_WD/GLOBAL/POLL_INTERVAL")}},
			"Given patch operation is invalid. Operation: remove is illegal on field: /PFC_WD/GLOBAL"},
	} {
		rejected(t, sw, c, tc.name, tc.req, tc.want)
	}
	// A whole profile goes, and another comes.
	mustSet(t, c, &gpb.SetRequest{Delete: []*gpb.Path{labtest.SONiCPath("BUFFER_PROFILE/mine")}, Update: []*gpb.Update{
		labtest.SONiCUpdate("BUFFER_PROFILE/mine2", `{"pool":"ingress_lossless_pool","size":"1","xoff":"1","xon":"0","dynamic_th":"0"}`)}})
}
