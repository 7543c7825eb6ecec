package sonic

import (
	"strings"
)

// Lossless priority groups equal the lossless traffic classes.
//
// SONiC's stock configuration reserves headroom for PGs 3-4 in one key (BUFFER_PG|<port>|3-4:
// NULL on the dynamic model, buffermgrd's pg_lossless_<speed>_<cable>_profile on the
// traditional one). A policy that makes only TC 3 lossless maps TC 4 to the lossy PG 0, so
// the range would keep lossless headroom for a PG that carries nothing, and on the traditional
// model buffermgrd would add BUFFER_PG|<port>|3 beside it without removing the range
// (cfgmgr/buffermgr.cpp doSpeedUpdateTask writes the keys of pfc_enable and deletes none). So
// while a policy binds a port, a range key with a lossless profile that holds lossless and
// lossy PGs of the policy is split: the lossless PGs keep its profile under keys of their own,
// the others lose the key. Unbinding puts the recorded range back (PortBinding.PGs); the keys
// the split made go with removeAddedPGs.

// splitPGRanges splits port's lossless range keys on the policy's lossless PGs (see above).
func splitPGRanges(b *setBuilder, db *DB, port string, lossless []int) {
	if len(lossless) == 0 {
		return
	}
	need := map[int]bool{}
	for _, pg := range lossless {
		need[pg] = true
	}
	for _, k := range db.keys(tBufferPG) {
		rest, ok := strings.CutPrefix(k, port+"|")
		if !ok {
			continue
		}
		lo, hi, ok := pgRange(rest)
		if !ok || lo == hi {
			continue
		}
		profile, _ := db.ref(tBufferPG, k, fProfile)
		if !db.isHeadroom(port, profile) {
			continue
		}
		some, all := false, true
		for pg := lo; pg <= hi; pg++ {
			some, all = some || need[pg], all && need[pg]
		}
		if !some || all {
			continue
		}
		b.del(tBufferPG, k)
		for start, pg := lo, lo; pg <= hi; pg++ {
			if pg < hi && need[pg+1] == need[pg] {
				continue
			}
			if key := port + "|" + qindex(start, pg); need[pg] {
				if _, exists := db.entry(tBufferPG, key); !exists {
					b.replace(tBufferPG, key, map[string]string{fProfile: profile})
				}
			}
			start = pg + 1
		}
	}
}

// isHeadroom reports whether a BUFFER_PG profile gives its PGs lossless headroom: NULL (the
// dynamic model computes it), roce_pfc_interface's profile, or any profile on the lossless
// ingress pool.
func (db *DB) isHeadroom(port, profile string) bool {
	if profile == "NULL" || isOurProfile(port, profile) {
		return true
	}
	v, _ := db.ref(tBufferProf, profile, "pool")
	return v == losslessPool
}

// restorePGRanges puts back, when a port leaves the policy, the range keys it had before that
// are gone now (splitPGRanges took them). A range takes the profile the port's lossless keys
// reference now when that is roce_pfc_interface's headroom (the PFC interface stays
// configured), else the recorded one while it exists, else NULL on the dynamic model; a
// traditional-model range whose profile is gone is left to buffermgrd.
func restorePGRanges(b *setBuilder, db *DB, port string, prev PortBinding) {
	pfc := db.pfcProfile(port)
	for rest, recorded := range prev.PGs {
		if lo, hi, ok := pgRange(rest); !ok || lo == hi {
			continue
		}
		key := port + "|" + rest
		if _, exists := db.entry(tBufferPG, key); exists {
			continue
		}
		profile := recorded
		_, known := db.entry(tBufferProf, recorded)
		switch {
		case pfc != "" && db.pgsReference(port, pfc):
			profile = pfc
		case recorded == "NULL" || (known && !isOurProfile(port, recorded)):
		case db.BufferModel() == "dynamic":
			profile = "NULL"
		default:
			continue
		}
		b.replace(tBufferPG, key, map[string]string{fProfile: profile})
	}
}

// pgsReference reports whether every BUFFER_PG key holding a lossless PG of port references
// profile (and there is one).
func (db *DB) pgsReference(port, profile string) bool {
	keys := db.pgKeys(port, db.losslessPGs(port))
	for _, k := range keys {
		if v, ok := db.ref(tBufferPG, k, fProfile); !ok || v != profile {
			return false
		}
	}
	return len(keys) > 0
}
