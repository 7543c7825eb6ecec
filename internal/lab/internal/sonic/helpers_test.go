package sonic

// Helpers for the sonic switch tests: sonic-db paths written the way a gNMI client writes them
// (origin "sonic-db", then CONFIG_DB, localhost, TABLE, KEY, FIELD, one element each), sent
// with the plain client of room labtest.

import (
	"context"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// startSONiC starts one sonic switch of model ("": the default) with 4 ports
// (Ethernet0..Ethernet12); it is cheap (no schema to build), so each test gets its own.
func startSONiC(t *testing.T, model string) (*Switch, gpb.GNMIClient) {
	t.Helper()
	if model == "" {
		model = Models()[0]
	}
	sw := labtest.Start[*Switch](t, Start, labtest.Spec(t, "sonic", 4, model))
	return sw, labtest.Dial(t, sw.Entry())
}

// sget returns the JSON_IETF text at rel, or the gRPC error.
func sget(ctx context.Context, c gpb.GNMIClient, rel string) (string, error) {
	resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{labtest.SONiCPath(rel)}, Encoding: gpb.Encoding_JSON_IETF})
	if err != nil {
		return "", err
	}
	return string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal()), nil
}

func mustSGet(t *testing.T, c gpb.GNMIClient, rel string) string {
	t.Helper()
	s, err := sget(labtest.Ctx(t), c, rel)
	if err != nil {
		t.Fatalf("Get %s: %v", rel, err)
	}
	return s
}

func mustSet(t *testing.T, c gpb.GNMIClient, req *gpb.SetRequest) *gpb.SetResponse {
	t.Helper()
	resp, err := c.Set(labtest.Ctx(t), req)
	if err != nil {
		t.Fatalf("Set: %v", err)
	}
	return resp
}

// unchanged fails when the switch's CONFIG_DB differs from before.
func unchanged(t *testing.T, sw *Switch, before map[string]map[string]map[string]string) {
	t.Helper()
	if diff := cmp.Diff(before, sw.DB()); diff != "" {
		t.Fatalf("CONFIG_DB changed (-before +after):\n%s", diff)
	}
}

// roceConfig is a lossless RoCE policy written as sonic-gnmi takes it: whole keys for the maps,
// a DWRR scheduler per class and an ECN profile (Updates of keys in existing tables), fields of
// the existing QUEUE keys, and the port's PORT_QOS_MAP key whole (an Update of a key replaces it).
func roceConfig() *gpb.SetRequest {
	dscp := map[string]string{}
	for i := range 64 {
		dscp[strconv.Itoa(i)] = "0"
	}
	dscp["26"], dscp["48"] = "3", "6"
	return &gpb.SetRequest{Update: []*gpb.Update{
		labtest.SONiCUpdate("DSCP_TO_TC_MAP/ROCE", jsonText(dscp)),
		labtest.SONiCUpdate("TC_TO_QUEUE_MAP/ROCE", `{"0":"0","1":"1","2":"2","3":"3","4":"4","5":"5","6":"6","7":"7"}`),
		labtest.SONiCUpdate("TC_TO_PRIORITY_GROUP_MAP/ROCE", `{"0":"0","1":"0","2":"0","3":"3","4":"0","5":"0","6":"0","7":"0"}`),
		labtest.SONiCUpdate("MAP_PFC_PRIORITY_TO_QUEUE/ROCE", `{"0":"0","1":"1","2":"2","3":"3","4":"4","5":"5","6":"6","7":"7"}`),
		labtest.SONiCUpdate("SCHEDULER/ROCE-roce", `{"type":"DWRR","weight":"50"}`),
		labtest.SONiCUpdate("SCHEDULER/ROCE-default", `{"type":"DWRR","weight":"50"}`),
		labtest.SONiCUpdate("SCHEDULER/ROCE-cnp", `{"type":"STRICT"}`),
		labtest.SONiCUpdate("WRED_PROFILE/ROCE-roce", `{"wred_green_enable":"true","wred_yellow_enable":"true","wred_red_enable":"true","ecn":"ecn_all",
			"green_min_threshold":"153600","green_max_threshold":"1536000","green_drop_probability":"100",
			"yellow_min_threshold":"153600","yellow_max_threshold":"1536000","yellow_drop_probability":"100",
			"red_min_threshold":"153600","red_max_threshold":"1536000","red_drop_probability":"100"}`),
		labtest.SONiCUpdate("QUEUE/Ethernet0|3", `{"scheduler":"ROCE-roce","wred_profile":"ROCE-roce"}`),
		labtest.SONiCUpdate("QUEUE/Ethernet0|6/scheduler", `"ROCE-cnp"`),
		labtest.SONiCUpdate("QUEUE/Ethernet0|0/scheduler", `"ROCE-default"`),
		labtest.SONiCUpdate("PORT_QOS_MAP/Ethernet0", `{"dscp_to_tc_map":"ROCE","tc_to_queue_map":"ROCE","tc_to_pg_map":"ROCE",
			"pfc_to_queue_map":"ROCE","pfc_enable":"3"}`),
	}}
}
