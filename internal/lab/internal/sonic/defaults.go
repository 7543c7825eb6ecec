package sonic

// The CONFIG_DB a SONiC switch of a given SKU boots with (sonic-switch.md, "Models"): what
// sonic-cfggen renders from sonic-buildimage's files/build_templates/qos_config.j2 (the Azure
// QoS defaults: lossless priorities 3 and 4, DSCP 26 in TC 1, AZURE_LOSSLESS WRED on queues 3
// and 4; on Mellanox also pfc_to_pg_map) and buffers_config.j2 with the SKU's
// buffers_defaults_t0.j2 (pools, profiles, BUFFER_PG 0 and, in the dynamic model, 3-4 NULL;
// BUFFER_QUEUE 0-2, 3-4, 5-6; the SKU's default cable length), then what buffermgrd adds.

import (
	"fmt"
	"maps"
	"strconv"
)

// sonicPortNames is SONiC's front-panel naming: one port per 4 SerDes lanes, Ethernet0,
// Ethernet4, ...
func sonicPortNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Ethernet%d", 4*i)
	}
	return names
}

// azureDSCPToTC is qos_config.j2's DSCP_TO_TC_MAP|AZURE: every DSCP to TC 1 except these.
var azureDSCPToTC = map[int]string{3: "3", 4: "4", 5: "2", 8: "0", 46: "5", 48: "6"}

func stockConfigDB(hostname string, ports []string, sku sonicSKU) configDB {
	identity := map[string]string{}
	for i := range 8 {
		identity[strconv.Itoa(i)] = strconv.Itoa(i)
	}
	dscp := map[string]string{}
	for i := range 64 {
		tc, ok := azureDSCPToTC[i]
		if !ok {
			tc = "1"
		}
		dscp[strconv.Itoa(i)] = tc
	}
	wred := map[string]string{"ecn": "ecn_all"}
	for _, c := range wredColours {
		wred["wred_"+c+"_enable"] = "true"
		wred[c+"_min_threshold"] = "1048576"
		wred[c+"_max_threshold"] = "2097152"
		wred[c+"_drop_probability"] = "5"
	}
	d := configDB{
		"DEVICE_METADATA": {"localhost": {
			"hostname":             hostname,
			"hwsku":                sku.hwsku,
			"platform":             sku.platform,
			"mac":                  "52:54:00:12:34:56",
			"type":                 "ToRRouter",
			"buffer_model":         sku.bufferModel,
			"default_pfcwd_status": "disable",
		}},
		"DSCP_TO_TC_MAP":            {"AZURE": dscp},
		"TC_TO_QUEUE_MAP":           {"AZURE": identity},
		"MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE": maps.Clone(identity)},
		"TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {
			"0": "0", "1": "0", "2": "0", "3": "3", "4": "4", "5": "0", "6": "0", "7": "7",
		}},
		"SCHEDULER": {
			"scheduler.0": {"type": "DWRR", "weight": "14"},
			"scheduler.1": {"type": "DWRR", "weight": "15"},
		},
		"WRED_PROFILE":   {"AZURE_LOSSLESS": wred},
		"BUFFER_POOL":    sku.pools(),
		"BUFFER_PROFILE": sku.profiles(),
		"PORT_QOS_MAP":   {"global": {"dscp_to_tc_map": "AZURE"}},
		"PFC_WD":         {"GLOBAL": {"POLL_INTERVAL": "200"}},
		"CABLE_LENGTH":   {"AZURE": {}},
		"PORT":           {},
		"QUEUE":          {},
		"BUFFER_PG":      {},
		"BUFFER_QUEUE":   {},
	}
	if sku.asic == "mellanox" {
		// qos_config.j2: pfc_to_pg_map_supported_asics = ['mellanox', 'barefoot'].
		d["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = map[string]map[string]string{"AZURE": {"3": "3", "4": "4"}}
	}
	if sku.bufferModel == "dynamic" {
		// buffers_config.j2 with dynamic_mode.
		d["DEFAULT_LOSSLESS_BUFFER_PARAMETER"] = map[string]map[string]string{"AZURE": {"default_dynamic_th": "0"}}
		d["LOSSLESS_TRAFFIC_PATTERN"] = map[string]map[string]string{"AZURE": {"mtu": "1024", "small_packet_percentage": "50"}}
	}
	for i, p := range ports {
		d["PORT"][p] = map[string]string{
			"admin_status": "up",
			"alias":        fmt.Sprintf("etp%d", i+1),
			"index":        strconv.Itoa(i + 1),
			"lanes":        fmt.Sprintf("%d,%d,%d,%d", 4*i, 4*i+1, 4*i+2, 4*i+3),
			"mtu":          "9100",
			"speed":        sku.speed,
		}
		qos := map[string]string{
			"dscp_to_tc_map":   "AZURE",
			"tc_to_queue_map":  "AZURE",
			"tc_to_pg_map":     "AZURE",
			"pfc_to_queue_map": "AZURE",
			"pfc_enable":       "3,4",
			"pfcwd_sw_enable":  "3,4",
		}
		if sku.asic == "mellanox" {
			qos["pfc_to_pg_map"] = "AZURE"
		}
		d["PORT_QOS_MAP"][p] = qos
		for _, q := range []string{"0", "1", "2", "5", "6"} {
			d["QUEUE"][p+"|"+q] = map[string]string{"scheduler": "scheduler.0"}
		}
		for _, q := range []string{"3", "4"} {
			d["QUEUE"][p+"|"+q] = map[string]string{"scheduler": "scheduler.1", "wred_profile": "AZURE_LOSSLESS"}
		}
		d["BUFFER_PG"][p+"|0"] = map[string]string{"profile": "ingress_lossy_profile"}
		if sku.bufferModel == "dynamic" {
			d["BUFFER_PG"][p+"|3-4"] = map[string]string{"profile": "NULL"} // buffermgrd computes the headroom
		}
		d["BUFFER_QUEUE"][p+"|0-2"] = map[string]string{"profile": sku.lossyQueueProfile()}
		d["BUFFER_QUEUE"][p+"|3-4"] = map[string]string{"profile": "egress_lossless_profile"}
		d["BUFFER_QUEUE"][p+"|5-6"] = map[string]string{"profile": sku.lossyQueueProfile()}
		d["CABLE_LENGTH"]["AZURE"][p] = sku.cable
	}
	// The traditional model's lossless PGs are buffermgrd's (buffermgr.go), as on a
	// switch that has booted.
	runBufferManager(d, nil)
	d.prune()
	return d
}
