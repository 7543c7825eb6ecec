package lab

// The CONFIG_DB a SONiC switch boots with: what sonic-cfggen renders from sonic-buildimage's
// files/build_templates/qos_config.j2 (the Azure QoS defaults: lossless priorities 3 and 4,
// DSCP 26 in TC 1, AZURE_LOSSLESS WRED on queues 3 and 4) and a dynamic-model buffer
// configuration like the one in sonic-utilities' mock CONFIG_DB (lossless PGs 3-4 with profile
// NULL, computed by buffermgrd). Values as in /work/shared/samples/sonic-config_db-qos-1.json.txt.

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

func stockConfigDB(hostname string, ports []string) configDB {
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
			"hwsku":                "rocelab-" + strconv.Itoa(len(ports)) + "x100G",
			"platform":             "x86_64-kvm_x86_64-r0",
			"mac":                  "52:54:00:12:34:56",
			"type":                 "ToRRouter",
			"buffer_model":         "dynamic",
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
		"WRED_PROFILE": {"AZURE_LOSSLESS": wred},
		"BUFFER_POOL": {
			"ingress_lossless_pool": {"mode": "dynamic", "type": "ingress"},
			"ingress_lossy_pool":    {"mode": "dynamic", "type": "ingress"},
			"egress_lossless_pool":  {"mode": "dynamic", "size": "13945824", "type": "egress"},
			"egress_lossy_pool":     {"mode": "dynamic", "type": "egress"},
		},
		"BUFFER_PROFILE": {
			"ingress_lossy_profile":   {"dynamic_th": "3", "pool": "ingress_lossy_pool", "size": "0"},
			"egress_lossless_profile": {"dynamic_th": "0", "pool": "egress_lossless_pool", "size": "0"},
			"egress_lossy_profile":    {"dynamic_th": "3", "pool": "egress_lossy_pool", "size": "1518"},
		},
		"PORT_QOS_MAP": {"global": {"dscp_to_tc_map": "AZURE"}},
		"PFC_WD":       {"GLOBAL": {"POLL_INTERVAL": "200"}},
		"CABLE_LENGTH": {"AZURE": {}},
		"PORT":         {},
		"QUEUE":        {},
		"BUFFER_PG":    {},
		"BUFFER_QUEUE": {},
	}
	for i, p := range ports {
		d["PORT"][p] = map[string]string{
			"admin_status": "up",
			"alias":        fmt.Sprintf("etp%d", i+1),
			"index":        strconv.Itoa(i + 1),
			"lanes":        fmt.Sprintf("%d,%d,%d,%d", 4*i, 4*i+1, 4*i+2, 4*i+3),
			"mtu":          "9100",
			"speed":        "100000",
		}
		d["PORT_QOS_MAP"][p] = map[string]string{
			"dscp_to_tc_map":   "AZURE",
			"tc_to_queue_map":  "AZURE",
			"tc_to_pg_map":     "AZURE",
			"pfc_to_queue_map": "AZURE",
			"pfc_enable":       "3,4",
			"pfcwd_sw_enable":  "3,4",
		}
		for _, q := range []string{"0", "1", "2", "5", "6"} {
			d["QUEUE"][p+"|"+q] = map[string]string{"scheduler": "scheduler.0"}
		}
		for _, q := range []string{"3", "4"} {
			d["QUEUE"][p+"|"+q] = map[string]string{"scheduler": "scheduler.1", "wred_profile": "AZURE_LOSSLESS"}
		}
		d["BUFFER_PG"][p+"|0"] = map[string]string{"profile": "ingress_lossy_profile"}
		d["BUFFER_PG"][p+"|3-4"] = map[string]string{"profile": "NULL"}
		d["BUFFER_QUEUE"][p+"|0-2"] = map[string]string{"profile": "egress_lossy_profile"}
		d["BUFFER_QUEUE"][p+"|3-4"] = map[string]string{"profile": "egress_lossless_profile"}
		d["BUFFER_QUEUE"][p+"|5-6"] = map[string]string{"profile": "egress_lossy_profile"}
		d["CABLE_LENGTH"]["AZURE"][p] = "40m"
	}
	d.prune()
	return d
}
