package sonic

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

type tables = map[string]map[string]map[string]string

// afterSetBase is a dynamic-model switch with a shared key, an owned key and a table of one
// key.
func afterSetBase(t *testing.T, model string) *DB {
	t.Helper()
	return fakeDB{
		"DEVICE_METADATA": {"localhost": {"hostname": "sonic-1", "buffer_model": model}},
		"PORT":            {"Ethernet0": {"speed": "100000"}},
		"PORT_QOS_MAP":    {"Ethernet0": {"dscp_to_tc_map": "AZURE", "pfc_enable": "3,4"}},
		"SCHEDULER":       {"scheduler.0": {"type": "DWRR", "weight": "14"}, "scheduler.1": {"type": "DWRR", "weight": "15"}},
		"WRED_PROFILE":    {"AZURE_LOSSLESS": {"ecn": "ecn_all"}},
	}.dbOf(t)
}

func upd(t *testing.T, v any, elems ...string) *gpb.Update {
	t.Helper()
	tv, err := jsonIETF(v)
	if err != nil {
		t.Fatal(err)
	}
	return &gpb.Update{Path: dbPath(elems[0], elems[1:]...), Val: tv}
}

func del(elems ...string) *gpb.Path { return dbPath(elems[0], elems[1:]...) }

func setReq(dels []*gpb.Path, ups ...*gpb.Update) *gpb.SetRequest {
	return &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}, Delete: dels, Update: ups}
}

// Each operation as sonic-gnmi applies it (mixed_db_client.go SetIncrementalConfig, json_client.go
// Remove and Add; GCU writes each changed key whole): deletes first, then updates; a delete of an
// absent target is skipped; the update of a table or a key sets it whole, of a field the field.
func TestAfterSetOperations(t *testing.T) {
	cases := []struct {
		name string
		req  func(t *testing.T) *gpb.SetRequest
		want func(tables)
	}{
		{"delete a field", func(*testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("PORT_QOS_MAP", "Ethernet0", "pfc_enable")})
		}, func(w tables) { delete(w["PORT_QOS_MAP"]["Ethernet0"], "pfc_enable") }},
		{"delete a key's last field: the key goes (Redis keeps no empty hash)", func(*testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("WRED_PROFILE", "AZURE_LOSSLESS", "ecn")})
		}, func(w tables) { delete(w, "WRED_PROFILE") }},
		{"delete a key", func(*testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("SCHEDULER", "scheduler.1")})
		}, func(w tables) { delete(w["SCHEDULER"], "scheduler.1") }},
		{"delete a table", func(*testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("SCHEDULER")})
		}, func(w tables) { delete(w, "SCHEDULER") }},
		{"deletes of absent targets are skipped", func(*testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("QUEUE"), del("SCHEDULER", "nope"), del("PORT_QOS_MAP", "Ethernet0", "nope"), del("PFC_WD", "Ethernet0", "action")})
		}, func(tables) {}},
		{"update a field of an existing key: the others stay", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "ROCE", "PORT_QOS_MAP", "Ethernet0", "dscp_to_tc_map"))
		}, func(w tables) { w["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"] = "ROCE" }},
		{"update a key: written whole (JSON Patch add replaces it)", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, map[string]string{"type": "STRICT"}, "SCHEDULER", "scheduler.0"))
		}, func(w tables) { w["SCHEDULER"]["scheduler.0"] = map[string]string{"type": "STRICT"} }},
		{"update a table: written whole", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, map[string]any{"ROCE-roce": map[string]string{"type": "DWRR", "weight": "50"}}, "SCHEDULER"))
		}, func(w tables) {
			w["SCHEDULER"] = map[string]map[string]string{"ROCE-roce": {"type": "DWRR", "weight": "50"}}
		}},
		{"update a new table, key and field", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil,
				upd(t, map[string]any{"ROCE": map[string]string{"0": "0", "3": "3"}}, "DOT1P_TO_TC_MAP"),
				upd(t, map[string]string{"action": "drop"}, "PFC_WD", "Ethernet0"),
				upd(t, "400", "PFC_WD", "Ethernet0", "restoration_time"))
		}, func(w tables) {
			w["DOT1P_TO_TC_MAP"] = map[string]map[string]string{"ROCE": {"0": "0", "3": "3"}}
			w["PFC_WD"] = map[string]map[string]string{"Ethernet0": {"action": "drop", "restoration_time": "400"}}
		}},
		{"a list field reads back joined with commas, as a Get renders it", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, []string{"3", "4"}, "PORT_QOS_MAP", "Ethernet0", "pfcwd_sw_enable"))
		}, func(w tables) { w["PORT_QOS_MAP"]["Ethernet0"]["pfcwd_sw_enable"] = "3,4" }},
		{"deletes go first: a key deleted and written again holds the update", func(t *testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("SCHEDULER", "scheduler.0")}, upd(t, map[string]string{"type": "DWRR", "weight": "20"}, "SCHEDULER", "scheduler.0"))
		}, func(w tables) { w["SCHEDULER"]["scheduler.0"] = map[string]string{"type": "DWRR", "weight": "20"} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := afterSetBase(t, "dynamic")
			before := deepCopy(db.tables)
			got, err := db.AfterSet(c.req(t))
			if err != nil {
				t.Fatal(err)
			}
			want := deepCopy(db.tables)
			c.want(want)
			if diff := cmp.Diff(want, got.tables); diff != "" {
				t.Errorf("CONFIG_DB after the Set (-want +got):\n%s", diff)
			}
			// Readers may hold the snapshot the request was built against: it must not change.
			if diff := cmp.Diff(before, db.tables); diff != "" {
				t.Errorf("AfterSet changed the DB it started from (-before +after):\n%s", diff)
			}
		})
	}
}

func deepCopy(in tables) tables {
	out := tables{}
	for t, keys := range in {
		out[t] = map[string]map[string]string{}
		for k, e := range keys {
			out[t][k] = map[string]string{}
			for f, v := range e {
				out[t][k][f] = v
			}
		}
	}
	return out
}

// Where the switch itself writes CONFIG_DB after the Set, only a fresh read knows the result:
// the traditional buffer model's buffermgrd rewrites BUFFER_PG and BUFFER_PROFILE after a change
// of PORT, CABLE_LENGTH or pfc_enable (sonic-swss cfgmgr/buffermgr.cpp doSpeedUpdateTask), and
// follows DEVICE_METADATA's buffer model; the dynamic model's buffermgrd writes no CONFIG_DB.
func TestAfterSetNotKnownWhereTheSwitchRewrites(t *testing.T) {
	pfcEnable := func(t *testing.T) *gpb.SetRequest {
		return setReq(nil, upd(t, "3", "PORT_QOS_MAP", "Ethernet0", "pfc_enable"))
	}
	cases := []struct {
		name, model string
		req         func(t *testing.T) *gpb.SetRequest
		known       bool
	}{
		{"pfc_enable, dynamic model", "dynamic", pfcEnable, true},
		{"pfc_enable, traditional model", "traditional", pfcEnable, false},
		{"pfc_enable, no buffer_model (traditional)", "", pfcEnable, false},
		{"a cable length, traditional model", "traditional", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "40m", "CABLE_LENGTH", "AZURE", "Ethernet0"))
		}, false},
		{"a port field deleted, traditional model", "traditional", func(*testing.T) *gpb.SetRequest {
			return setReq([]*gpb.Path{del("PORT", "Ethernet0", "mtu")})
		}, false},
		{"a scheduler and a watchdog, traditional model", "traditional", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "20", "SCHEDULER", "scheduler.0", "weight"), upd(t, map[string]string{"action": "drop"}, "PFC_WD", "Ethernet0"))
		}, true},
		{"DEVICE_METADATA, dynamic model", "dynamic", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "traditional", "DEVICE_METADATA", "localhost", "buffer_model"))
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := afterSetBase(t, c.model).AfterSet(c.req(t))
			switch {
			case c.known && err != nil:
				t.Errorf("want CONFIG_DB known after the Set, got %v", err)
			case !c.known && (!errors.Is(err, ErrNotKnown) || got != nil):
				t.Errorf("want ErrNotKnown, got %v (%v)", err, got)
			}
		})
	}
}

// What this package never sends is not guessed at: the writer reads again.
func TestAfterSetRefusesWhatItDoesNotBuild(t *testing.T) {
	str := &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: "ROCE"}}
	field := dbPath("PORT_QOS_MAP", "Ethernet0", "dscp_to_tc_map")
	cases := map[string]struct {
		req  *gpb.SetRequest
		want string
	}{
		"a Replace": {&gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin},
			Replace: []*gpb.Update{upd(t, "ROCE", "PORT_QOS_MAP", "Ethernet0", "dscp_to_tc_map")}}, "Replace"},
		"another origin":  {&gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Delete: []*gpb.Path{field}}, "origin"},
		"a prefix target": {&gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin, Target: "APPL_DB"}, Delete: []*gpb.Path{field}}, "target"},
		"a string_val":    {setReq(nil, &gpb.Update{Path: field, Val: str}), "JSON_IETF"},
		"a number":        {setReq(nil, upd(t, 3, "PORT_QOS_MAP", "Ethernet0", "pfc_enable")), "want a string"},
		"the root":        {setReq([]*gpb.Path{{Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}}}}), "TABLE"},
		"a keyed element": {setReq([]*gpb.Path{{Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}, {Name: "PORT", Key: map[string]string{"name": "Ethernet0"}}}}}), "keyed"},
		"APPL_DB":         {setReq([]*gpb.Path{{Elem: []*gpb.PathElem{{Name: "APPL_DB"}, {Name: "localhost"}, {Name: "PORT_TABLE"}}}}), "CONFIG_DB"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := afterSetBase(t, "dynamic").AfterSet(c.req)
			if err == nil || !strings.Contains(err.Error(), c.want) || got != nil {
				t.Errorf("got %v, %v; want an error mentioning %q", got, err, c.want)
			}
		})
	}
}
