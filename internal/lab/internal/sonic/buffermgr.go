package sonic

// buffermgrd of the traditional buffer model, as sonic-net/sonic-swss cfgmgr/buffermgr.cpp
// (master e6b0c5b5, 202511) runs it: it subscribes to CONFIG_DB PORT, CABLE_LENGTH and
// PORT_QOS_MAP, and for a port whose speed (any PORT field), cable length or pfc_enable changed
// it runs doSpeedUpdateTask: the profile pg_lossless_<speed>_<cable>_profile from the SKU's
// pg_profile_lookup.ini row, created in CONFIG_DB when absent (never updated, never deleted),
// and every lossless PG of the port (pfc_enable's priorities, consecutive ones as one "lo-hi"
// key) pointed at it in CONFIG_DB BUFFER_PG, overwriting whatever profile the PG had. Old PG
// keys are never deleted. In the dynamic model (DEVICE_METADATA buffer_model "dynamic") it does
// nothing to CONFIG_DB: buffermgrdyn computes the headroom of `NULL` PGs into APPL_DB.

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// runBufferManager applies buffermgrd's reaction to the change from before to d (before nil:
// the switch booting, every port). It writes d directly, as buffermgrd writes CONFIG_DB
// through its own tables, not through GCU.
func runBufferManager(d, before configDB) {
	meta := d["DEVICE_METADATA"]["localhost"]
	if meta["buffer_model"] == "dynamic" {
		return // "Dynamic buffer model enabled. Skipping further processing"
	}
	sku, ok := sonicSKUs[meta["hwsku"]]
	if !ok {
		return
	}
	for _, port := range slices.Sorted(maps.Keys(d["PORT"])) {
		if before != nil && !bufferInputsChanged(d, before, port) {
			continue
		}
		speedUpdate(d, sku, port)
	}
}

// bufferInputsChanged reports whether anything buffermgrd watches changed for port.
func bufferInputsChanged(d, before configDB, port string) bool {
	return !maps.Equal(d["PORT"][port], before["PORT"][port]) || cableOf(d, port) != cableOf(before, port) ||
		d["PORT_QOS_MAP"][port]["pfc_enable"] != before["PORT_QOS_MAP"][port]["pfc_enable"]
}

// cableOf is the port's cable length, from whichever CABLE_LENGTH key lists it.
func cableOf(d configDB, port string) string {
	for _, key := range slices.Sorted(maps.Keys(d["CABLE_LENGTH"])) {
		if v, ok := d["CABLE_LENGTH"][key][port]; ok {
			return v
		}
	}
	return ""
}

// speedUpdate is doSpeedUpdateTask for one port.
func speedUpdate(d configDB, sku sonicSKU, port string) {
	cable := cableOf(d, port)
	p := d["PORT"][port]
	pfc, havePFC := d["PORT_QOS_MAP"][port]["pfc_enable"]
	switch {
	case cable == "" || cable == "0m": // "Cable length is not set" (retried) / "Not creating/updating PG profile"
		return
	case p["admin_status"] == "" || !havePFC: // retried until known / handled when PORT_QOS_MAP arrives
		return
	}
	row, ok := sku.lookup[[2]string{p["speed"], cable}]
	if !ok {
		return // "No PG profile configured for speed %s and cable length %s": the entry is dropped
	}
	mode := d["BUFFER_POOL"]["ingress_lossless_pool"]["mode"]
	if mode == "" {
		return // need_retry
	}
	name := "pg_lossless_" + p["speed"] + "_" + cable + "_profile"
	if _, exists := d["BUFFER_PROFILE"][name]; !exists { // "Creating new profile"; else "Reusing existing profile"
		prof := map[string]string{"pool": "ingress_lossless_pool", "xon": row.xon, "xoff": row.xoff, "size": row.size,
			mode + "_th": row.threshold}
		if row.xonOffset != "" {
			prof["xon_offset"] = row.xonOffset
		}
		d["BUFFER_PROFILE"][name] = prof
	}
	if d["BUFFER_PG"] == nil {
		d["BUFFER_PG"] = map[string]map[string]string{}
	}
	for _, id := range pgIDList(pfc) {
		key := port + "|" + id
		if d["BUFFER_PG"][key]["profile"] == name {
			continue // "PG to Buffer Profile Mapping %s already present"
		}
		if d["BUFFER_PG"][key] == nil {
			d["BUFFER_PG"][key] = map[string]string{}
		}
		d["BUFFER_PG"][key]["profile"] = name
	}
}

// pgIDList is orchagent's generateIdListFromMap over pfc_enable's priorities: runs of
// consecutive ids become "lo-hi", single ids stay ("3,4" -> 3-4; "2,3,4,6" -> 2-4, 6).
func pgIDList(pfcEnable string) []string {
	var on [8]bool
	for _, t := range strings.Split(pfcEnable, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(t)); err == nil && n >= 0 && n < 8 {
			on[n] = true
		}
	}
	var out []string
	for i := 0; i < 8; i++ {
		if !on[i] {
			continue
		}
		j := i
		for j+1 < 8 && on[j+1] {
			j++
		}
		if j == i {
			out = append(out, strconv.Itoa(i))
		} else {
			out = append(out, strconv.Itoa(i)+"-"+strconv.Itoa(j))
		}
		i = j
	}
	return out
}
