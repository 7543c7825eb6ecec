package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Settings of roce_pfc_interface in CONFIG_DB.
const (
	losslessPool     = "ingress_lossless_pool"
	defaultCableKey  = "AZURE"
	fPFCWDSwEnable   = "pfcwd_sw_enable"
	fPollInterval    = "POLL_INTERVAL"
	fProfile         = "profile"
	fWDAction        = "action"
	fWDDetection     = "detection_time"
	fWDRestoration   = "restoration_time"
	bufferProfileFmt = "roce-%s-lossless"
)

// bufferProfileName is the BUFFER_PROFILE roce_pfc_interface creates for a port's headroom,
// named after its values: a real switch's GCU takes a whole profile added or removed, but of
// the fields of an existing one changes only dynamic_th and xoff (sonic-utilities
// gcu_field_operation_validators.conf.json, buffer_profile_config_update_validator), so a new
// headroom is a new profile the PGs move to, and the old one goes.
func bufferProfileName(port string, xoff, xon int64) string {
	return fmt.Sprintf(bufferProfileFmt+"-%d-%d", port, xoff, xon)
}

// isOurProfile reports a profile roce_pfc_interface made for port (this version's names, and
// the older roce-<port>-lossless).
func isOurProfile(port, name string) bool {
	base := fmt.Sprintf(bufferProfileFmt, port)
	return name == base || strings.HasPrefix(name, base+"-")
}

// pfcProfile is the port's roce_pfc_interface profile: the one its lossless PGs reference,
// else one that exists without a reference; "" when there is none.
func (db *DB) pfcProfile(port string) string {
	for _, k := range db.pgKeys(port, db.losslessPGs(port)) {
		if v, _ := db.ref(tBufferPG, k, fProfile); isOurProfile(port, v) {
			return v
		}
	}
	for _, k := range db.keys(tBufferProf) {
		if isOurProfile(port, k) {
			return k
		}
	}
	return ""
}

// ourProfiles lists every profile roce_pfc_interface made for port.
func (db *DB) ourProfiles(port string) []string {
	var out []string
	for _, k := range db.keys(tBufferProf) {
		if isOurProfile(port, k) {
			out = append(out, k)
		}
	}
	return out
}

// PFC reads roce_pfc_interface on port; ok is false when PORT|<port> does not exist.
//   - mode is on when PORT_QOS_MAP|<port>.pfc_enable lists a priority (written by the bound
//     policy), else off; link_pause is false (CONFIG_DB has no 802.3x setting);
//   - buffer.cable_length_m is CABLE_LENGTH|<key>.<port> ("40m"); xoff_bytes and xon_bytes come
//     from the BUFFER_PROFILE roce-<port>-lossless-<xoff>-<xon> the lossless PGs reference. xoff
//     reads Unknown unless that profile is as
//     written (pool ingress_lossless_pool, size = xoff + xon, dynamic_th "0") and every
//     lossless PG of the port references it; buffer is nil when neither exists;
//   - watchdog is PFC_WD|<port> (action, detection_time, restoration_time in ms); its action
//     reads "" unless PORT_QOS_MAP|<port>.pfcwd_sw_enable lists the port's no-drop priorities.
func (db *DB) PFC(port string) (*fabric.PFCInterface, bool) {
	if _, ok := db.entry(tPort, port); !ok {
		return nil, false
	}
	p := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}
	prios, valid := db.priorities(port)
	if len(prios) > 0 || !valid {
		p.Mode = fabric.PFCModeOn
	}
	b := &fabric.PFCBuffer{}
	if v, ok := db.field(tCableLength, db.cableKey(port), port); ok {
		b.CableLengthM = fabric.Ptr(parseCable(v))
	}
	name := db.pfcProfile(port)
	if prof, ok := db.entry(tBufferProf, name); ok {
		xoff, xon := atoi64Or(prof["xoff"]), atoi64Or(prof["xon"])
		if !db.profileExact(port, name, prof, xoff, xon) {
			xoff = Unknown
		}
		b.XoffBytes, b.XonBytes = &xoff, &xon
	}
	if b.CableLengthM != nil || b.XoffBytes != nil {
		p.Buffer = b
	}
	if wd, ok := db.entry(tPFCWatchdog, port); ok && wd[fWDAction] != "" {
		w := &fabric.PFCWatchdog{Action: wd[fWDAction],
			DetectionTimeMs: atoiOr(wd[fWDDetection], true), RestorationTimeMs: atoiOr(wd[fWDRestoration], true)}
		sw, _ := db.field(tPortQoSMap, port, fPFCWDSwEnable)
		if set, ok := prioritySet(sw); !ok || !valid || !slices.Equal(set, prios) {
			w.Action = ""
		}
		p.Watchdog = w
	}
	return p, true
}

func (db *DB) profileExact(port, name string, prof map[string]string, xoff, xon int64) bool {
	if xoff == Unknown || xon == Unknown || normRef(prof["pool"]) != losslessPool || prof["dynamic_th"] != "0" ||
		prof["size"] != strconv.FormatInt(xoff+xon, 10) {
		return false
	}
	keys := db.pgKeys(port, db.losslessPGs(port))
	for _, k := range keys {
		if v, _ := db.ref(tBufferPG, k, fProfile); v != name {
			return false
		}
	}
	return len(keys) > 0
}

// parseCable reads "40m"; anything else (SONiC also allows "None") is Unknown.
func parseCable(v string) int {
	n, ok := strings.CutSuffix(v, "m")
	if !ok {
		return Unknown
	}
	return atoiOr(n, true)
}

// priorities are the no-drop priorities of the port (pfc_enable); valid is false for a value
// that is not a priority list.
func (db *DB) priorities(port string) ([]int, bool) {
	v, _ := db.field(tPortQoSMap, port, fPFCEnable)
	return prioritySet(v)
}

// losslessPGs maps the port's no-drop priorities (= traffic classes) to priority groups
// through the TC_TO_PRIORITY_GROUP_MAP bound to the port (tc_to_pg_map); without one the PG
// is the priority's number.
func (db *DB) losslessPGs(port string) []int {
	prios, _ := db.priorities(port)
	mapName, _ := db.ref(tPortQoSMap, port, fTCToPG)
	return db.mapPriorities(tTCToPG, mapName, prios)
}

// mapPriorities maps priorities through the map mapName of table (a priority the map does not
// list, or a map that is "" or absent, keeps its own number): the sorted set of what they map
// to. Priority-to-queue and TC-to-PG maps are read alike.
func (db *DB) mapPriorities(table, mapName string, prios []int) []int {
	m, _ := db.intMap(table, mapName, 8)
	var out []int
	for _, p := range prios {
		to, ok := m[p]
		if !ok {
			to = p
		}
		if !slices.Contains(out, to) {
			out = append(out, to)
		}
	}
	slices.Sort(out)
	return out
}

// pgKeys are the BUFFER_PG keys holding the lossless PGs: every existing key of the port whose
// PG or range ("Ethernet0|3-4") holds one (a range gets the profile as a whole: splitting it
// would rewrite PGs we do not own), and "<port>|<pg>" for a lossless PG no key holds.
func (db *DB) pgKeys(port string, pgs []int) []string {
	var out []string
	covered := map[int]bool{}
	for _, k := range db.keys(tBufferPG) {
		rest, ok := strings.CutPrefix(k, port+"|")
		if !ok {
			continue
		}
		lo, hi, ok := pgRange(rest)
		if !ok {
			continue
		}
		hit := false
		for _, pg := range pgs {
			if pg >= lo && pg <= hi {
				hit, covered[pg] = true, true
			}
		}
		if hit {
			out = append(out, k)
		}
	}
	for _, pg := range pgs {
		if !covered[pg] {
			out = append(out, port+"|"+strconv.Itoa(pg))
		}
	}
	slices.Sort(out)
	return out
}

// pgRange parses a BUFFER_PG pg_num: "3" or "3-4".
func pgRange(s string) (int, int, bool) { return indexRange(s, 7) }

// indexRange parses an index or a range of them, "3" or "3-4", at most highest: the form of
// BUFFER_PG's and BUFFER_QUEUE's key suffixes.
func indexRange(s string, highest int) (int, int, bool) {
	a, b, isRange := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(a)
	hi := lo
	var err2 error
	if isRange {
		hi, err2 = strconv.Atoi(b)
	}
	return lo, hi, err1 == nil && err2 == nil && lo >= 0 && lo <= hi && hi <= highest
}

// cableKey is the CABLE_LENGTH key to write the port's length under: the key that already
// lists the port, else the first key (SONiC has one, AZURE), else AZURE.
func (db *DB) cableKey(port string) string {
	keys := db.keys(tCableLength)
	for _, k := range keys {
		if _, ok := db.field(tCableLength, k, port); ok {
			return k
		}
	}
	if len(keys) > 0 {
		return keys[0]
	}
	return defaultCableKey
}

// CheckPFCAgainst returns why p cannot be applied to the device db describes: the port does
// not exist, no policy has made a priority of it lossless (mode on and the buffer need one:
// bind a roce_qos_policy with a lossless class first), or a watchdog time is below the
// device's poll interval PFC_WD|GLOBAL.POLL_INTERVAL (sonic-pfcwd requires both times at or
// above it). It includes CheckPFC's refusals.
func CheckPFCAgainst(p fabric.PFCInterface, db *DB) error {
	if u := CheckPFC(p); len(u) > 0 {
		return fmt.Errorf("sonic: %s: %s", fabric.AttrString(u[0].Attr), u[0].Reason)
	}
	port := p.Interface
	if _, ok := db.entry(tPort, port); !ok {
		return fmt.Errorf("sonic: interface %q does not exist on the device (CONFIG_DB has no PORT|%s)", port, port)
	}
	if prios, ok := db.priorities(port); !ok || len(prios) == 0 {
		v, _ := db.field(tPortQoSMap, port, fPFCEnable)
		return fabric.NeedsLossless{Reason: fmt.Sprintf("sonic: PFC on %s needs a no-drop priority, but PORT_QOS_MAP|%s.pfc_enable is %q: bind a "+
			"roce_qos_policy with a lossless class to the port first (depends_on)", port, port, v)}
	}
	if w := p.Watchdog; w != nil {
		if s, ok := db.field(tPFCWatchdog, keyPFCWDGlobl, fPollInterval); ok {
			poll := atoiOr(s, true)
			for _, t := range []struct {
				attr string
				ms   int
			}{{"detection_time_ms", w.DetectionTimeMs}, {"restoration_time_ms", w.RestorationTimeMs}} {
				if poll == Unknown || t.ms < poll {
					return fmt.Errorf("sonic: watchdog.%s %d is below the device's PFC watchdog poll interval "+
						"(PFC_WD|GLOBAL.POLL_INTERVAL = %q ms); set it to at least the poll interval", t.attr, t.ms, s)
				}
			}
		}
	}
	return nil
}

// BufferModel is the switch's buffer model (DEVICE_METADATA|localhost.buffer_model):
// "dynamic" or "traditional" (SONiC's default when the field is absent).
func (db *DB) BufferModel() string {
	if v, ok := db.field("DEVICE_METADATA", "localhost", "buffer_model"); ok && v != "" {
		return v
	}
	return "traditional"
}

// CheckBufferModel refuses a headroom (buffer.xoff_bytes, buffer.xon_bytes) the switch's
// buffer model would not keep. In the traditional model buffermgrd owns the lossless priority
// groups' profile: on every change of the port, its cable length or its no-drop priorities it
// points them at pg_lossless_<speed>_<cable>_profile from the SKU's pg_profile_lookup.ini,
// overwriting any other profile (sonic-swss cfgmgr/buffermgr.cpp doSpeedUpdateTask), so an
// explicit headroom would be undone at the next change and show as drift. There the headroom
// follows buffer.cable_length_m. The dynamic model keeps a static profile on a PG
// (buffermgrdyn.cpp takes a BUFFER_PROFILE with xoff as a headroom override).
func CheckBufferModel(p fabric.PFCInterface, db *DB) error {
	if p.Buffer == nil || (p.Buffer.XoffBytes == nil && p.Buffer.XonBytes == nil) {
		return nil
	}
	if db.BufferModel() != "traditional" {
		// A lossless pool with its own xoff is a shared headroom pool: there a PG's size is
		// not xoff + xon (the xoff comes from the pool), so what we would write is not exact.
		if v, ok := db.field("BUFFER_POOL", losslessPool, "xoff"); ok && v != "" && v != "0" {
			return fmt.Errorf("buffer.xoff_bytes and buffer.xon_bytes: the switch's %s is a shared headroom pool "+
				"(BUFFER_POOL|%s xoff = %s), where a priority group's headroom comes from the pool, not from "+
				"size = xoff + xon; leave them unset (the switch computes the headroom from buffer.cable_length_m)",
				losslessPool, losslessPool, v)
		}
		return nil
	}
	return fmt.Errorf("buffer.xoff_bytes and buffer.xon_bytes: the switch runs SONiC's traditional buffer model " +
		"(DEVICE_METADATA|localhost buffer_model = traditional), where buffermgrd sets the headroom of the lossless " +
		"priority groups from the port's speed and cable length (pg_profile_lookup.ini) and overwrites any other " +
		"profile at the next change; leave them unset and set buffer.cable_length_m, or move the switch to the " +
		"dynamic buffer model")
}

// keyHoldsLossless reports whether BUFFER_PG key (port|pg or port|lo-hi) holds one of the
// port's lossless PGs.
func (db *DB) keyHoldsLossless(port, key string) bool {
	rest, ok := strings.CutPrefix(key, port+"|")
	if !ok {
		return false
	}
	lo, hi, ok := pgRange(rest)
	if !ok {
		return false
	}
	for _, pg := range db.losslessPGs(port) {
		if pg >= lo && pg <= hi {
			return true
		}
	}
	return false
}
