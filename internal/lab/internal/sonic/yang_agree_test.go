package sonic

import (
	"context"
	"strings"
	"testing"
)

// The lab's own CONFIG_DB rules (schema.go, validate.go) agree with SONiC's YANG
// models under yanglint, change by change: each variant is the stock CONFIG_DB with one change,
// and the lab accepts it exactly when yanglint does.
func TestSONiCRulesAgreeWithSONiCYANG(t *testing.T) {
	m := yangJudge(t)
	sw, _ := startSONiC(t, "")
	type db = map[string]map[string]map[string]string
	set := func(table, key, field, value string) func(db) {
		return func(d db) {
			if d[table] == nil {
				d[table] = map[string]map[string]string{}
			}
			if d[table][key] == nil {
				d[table][key] = map[string]string{}
			}
			d[table][key][field] = value
		}
	}
	del := func(table, key, field string) func(db) {
		return func(d db) {
			if field == "" {
				delete(d[table], key)
				return
			}
			delete(d[table][key], field)
		}
	}
	variants := map[string]func(db){
		"cable length None":                 set("CABLE_LENGTH", "AZURE", "Ethernet0", "None"),
		"cable length 5m":                   set("CABLE_LENGTH", "AZURE", "Ethernet0", "5m"),
		"cable length 40":                   set("CABLE_LENGTH", "AZURE", "Ethernet0", "40"),
		"bracket reference":                 set("QUEUE", "Ethernet0|3", "scheduler", "[SCHEDULER|scheduler.1]"),
		"bare reference":                    set("QUEUE", "Ethernet0|3", "scheduler", "scheduler.0"),
		"missing scheduler":                 set("QUEUE", "Ethernet0|3", "scheduler", "nope"),
		"wred ecn_green_min_threshold":      set("WRED_PROFILE", "AZURE_LOSSLESS", "ecn_green_min_threshold", "100"),
		"wred green_min 0":                  set("WRED_PROFILE", "AZURE_LOSSLESS", "green_min_threshold", "0"),
		"wred ecn_green":                    set("WRED_PROFILE", "AZURE_LOSSLESS", "ecn", "ecn_green"),
		"wred ecn bogus":                    set("WRED_PROFILE", "AZURE_LOSSLESS", "ecn", "ecn_blue"),
		"scheduler pir without cir":         set("SCHEDULER", "scheduler.0", "pir", "1000"),
		"scheduler STRICT":                  set("SCHEDULER", "scheduler.0", "type", "STRICT"),
		"scheduler weight 0":                set("SCHEDULER", "scheduler.0", "weight", "0"),
		"scheduler weight 101":              set("SCHEDULER", "scheduler.0", "weight", "101"),
		"scheduler DWRR without weight":     del("SCHEDULER", "scheduler.0", "weight"),
		"scheduler meter_type bytes":        set("SCHEDULER", "scheduler.0", "meter_type", "bytes"),
		"queue range 0-2":                   set("QUEUE", "Ethernet0|0-2", "scheduler", "scheduler.0"),
		"queue 8":                           set("QUEUE", "Ethernet0|8", "scheduler", "scheduler.0"),
		"queue 9":                           set("QUEUE", "Ethernet0|9", "scheduler", "scheduler.0"),
		"queue 10":                          set("QUEUE", "Ethernet0|10", "scheduler", "scheduler.0"),
		"tc 8 in DSCP map":                  set("DSCP_TO_TC_MAP", "AZURE", "26", "8"),
		"tc 15 in DSCP map":                 set("DSCP_TO_TC_MAP", "AZURE", "26", "15"),
		"tc 16 in DSCP map":                 set("DSCP_TO_TC_MAP", "AZURE", "26", "16"),
		"DSCP 63":                           set("DSCP_TO_TC_MAP", "AZURE", "63", "1"),
		"TC_TO_QUEUE 8":                     set("TC_TO_QUEUE_MAP", "AZURE", "3", "8"),
		"PG 8":                              set("TC_TO_PRIORITY_GROUP_MAP", "AZURE", "3", "8"),
		"pfc_enable 3,4":                    set("PORT_QOS_MAP", "Ethernet0", "pfc_enable", "3,4"),
		"pfc_enable 3,8":                    set("PORT_QOS_MAP", "Ethernet0", "pfc_enable", "3,8"),
		"pfcwd_sw_enable empty":             set("PORT_QOS_MAP", "Ethernet0", "pfcwd_sw_enable", ""),
		"port mtu 9216":                     set("PORT", "Ethernet0", "mtu", "9216"),
		"port mtu 9217":                     set("PORT", "Ethernet0", "mtu", "9217"),
		"port fec rs":                       set("PORT", "Ethernet0", "fec", "rs"),
		"port autoneg on":                   set("PORT", "Ethernet0", "autoneg", "on"),
		"port description":                  set("PORT", "Ethernet0", "description", "to gpu-1"),
		"metadata bgp_asn":                  set("DEVICE_METADATA", "localhost", "bgp_asn", "65100"),
		"metadata buffer_model traditional": set("DEVICE_METADATA", "localhost", "buffer_model", "traditional"),
		"metadata buffer_model bogus":       set("DEVICE_METADATA", "localhost", "buffer_model", "bogus"),
		"metadata deployment_id":            set("DEVICE_METADATA", "localhost", "deployment_id", "1"),
		"watchdog action drop":              set("PFC_WD", "Ethernet0", "action", "drop"),
		"watchdog action shutdown":          set("PFC_WD", "Ethernet0", "action", "shutdown"),
		"watchdog detection 50":             set("PFC_WD", "Ethernet0", "detection_time", "50"),
		"watchdog big_red_switch":           set("PFC_WD", "GLOBAL", "BIG_RED_SWITCH", "enable"),
		"profile dynamic_th 8":              set("BUFFER_PROFILE", "ingress_lossy_profile", "dynamic_th", "8"),
		"profile without size":              del("BUFFER_PROFILE", "ingress_lossy_profile", "size"),
		"profile xoff":                      set("BUFFER_PROFILE", "ingress_lossy_profile", "xoff", "1000"),
		"profile static_th":                 set("BUFFER_PROFILE", "egress_lossy_profile", "static_th", "1000"),
		"pg 3-4 lossy":                      set("BUFFER_PG", "Ethernet0|3-4", "profile", "ingress_lossy_profile"),
		"pg profile NULL":                   set("BUFFER_PG", "Ethernet0|0", "profile", "NULL"),
		"default lossless params":           set("DEFAULT_LOSSLESS_BUFFER_PARAMETER", "AZURE", "default_dynamic_th", "0"),
		"lossless traffic pattern":          set("LOSSLESS_TRAFFIC_PATTERN", "AZURE", "mtu", "1024"),
		"flex counter":                      set("FLEX_COUNTER_TABLE", "QUEUE", "FLEX_COUNTER_STATUS", "enable"),
		"pool without type":                 del("BUFFER_POOL", "ingress_lossless_pool", "type"),
	}
	var disagree []string
	for name, mutate := range variants {
		d := sw.DB()
		mutate(d)
		lab := validateDB(d)
		yerr := m.Check(context.Background(), d)
		if (len(lab) == 0) != (yerr == nil) {
			verdict := "lab accepts, yanglint refuses: " + firstLine(yerr)
			if len(lab) > 0 {
				verdict = "lab refuses (" + lab[0] + "), yanglint accepts"
			}
			disagree = append(disagree, name+": "+verdict)
		}
	}
	if len(disagree) > 0 {
		t.Errorf("%d of %d variants disagree:\n%s", len(disagree), len(variants), strings.Join(disagree, "\n"))
	}
}

func firstLine(err error) string {
	if err == nil {
		return ""
	}
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.Contains(l, "libyang err") {
			return strings.TrimSpace(l)
		}
	}
	return err.Error()
}
