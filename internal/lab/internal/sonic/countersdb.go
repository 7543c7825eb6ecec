package sonic

// A Get whose prefix target names a Redis database, as sonic-gnmi's DB client answers it
// (sonic-net/sonic-gnmi 5ec1c20b: gnmi_server/server.go Get, sonic_data_client/db_client.go
// NewDbClient/parsePath/probePathElements/ensureKeysExistInRedis/TableData2Msi,
// virtual_db.go). The lab serves COUNTERS_DB this way (counters.go); sonic-switch.md,
// "COUNTERS_DB", lists the paths.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sonicTargets are the names of sonic-gnmi's proto Target enum (proto/sonic.proto): a prefix
// target among them sends the Get to the DB client (IsTargetDb).
var sonicTargets = []string{"APPL_DB", "ASIC_DB", "COUNTERS_DB", "CONFIG_DB", "PFC_WD_DB", "FLEX_COUNTER_DB",
	"STATE_DB", "CHASSIS_STATE_DB"}

func isTargetDB(target string) bool { return slices.Contains(sonicTargets, target) }

// getTargetDB answers a Get of a database target (of type ALL in an encoding server.go takes:
// Get refused the others); an error of the DB client is NotFound with its text. The DB client
// reads no encoding (NewDbClient takes none): its values are JSON_IETF, or a string_val, whatever
// the request asks.
func (s *sonicService) getTargetDB(req *gpb.GetRequest) (*gpb.GetResponse, error) {
	target := req.GetPrefix().GetTarget()
	if target != "COUNTERS_DB" {
		return nil, status.Errorf(codes.NotFound, "target %s: this switch serves COUNTERS_DB by target, and CONFIG_DB and APPL_DB under origin sonic-db", target)
	}
	s.sw.mu.RLock()
	defer s.sw.mu.RUnlock()
	now := s.sw.clock()
	db := s.sw.countersDB(now)
	resp := &gpb.GetResponse{}
	for _, p := range req.GetPath() {
		var names []string
		for _, e := range append(slices.Clone(req.GetPrefix().GetElem()), p.GetElem()...) {
			names = append(names, e.GetName())
		}
		val, err := s.sw.countersValue(db, names)
		if err != nil {
			return nil, status.Error(codes.NotFound, err.Error())
		}
		resp.Notification = append(resp.Notification, &gpb.Notification{
			Timestamp: now.UnixNano(),
			Prefix:    req.GetPrefix(),
			Update:    []*gpb.Update{{Path: p, Val: val}},
		})
	}
	return resp, nil
}

// countersValue resolves one path below COUNTERS_DB: a virtual path first, then a table,
// key and field of the database itself.
func (sw *Switch) countersValue(db configDB, names []string) (*gpb.TypedValue, error) {
	if v, ok, err := sw.virtualCounters(db, names); ok || err != nil {
		return v, err
	}
	return realPath(db, names)
}

// redisHash is the hash at a COUNTERS_DB key ("COUNTERS:oid:0x..."; a table without keys is one hash
// named as the table) as the lab holds it.
func redisHash(db configDB, key string) (map[string]string, bool) {
	table, k, _ := strings.Cut(key, ":")
	h, ok := db[table][k]
	return h, ok && len(h) > 0
}

// realPath is parsePath's reading of a path that is no virtual one (the separator is ":"):
// TABLE (every key of COUNTERS, keyed by what follows "COUNTERS:"; any other table is one hash),
// TABLE/KEY (the hash TABLE:KEY, else the field KEY of hash TABLE), TABLE/K1/K2 (the hash
// TABLE:K1:K2, else field K2 of TABLE:K1), TABLE/K1/K2/FIELD; a key that does not exist is
// `No valid entry found on COUNTERS_DB with key <key>`.
func realPath(db configDB, names []string) (*gpb.TypedValue, error) {
	full := append([]string{"COUNTERS_DB"}, names...)
	if len(names) == 0 || len(names) > 4 {
		return nil, fmt.Errorf("Invalid db table Path %v", full) //nolint:staticcheck // sonic-gnmi's text
	}
	table := names[0]
	if len(names) == 1 {
		msi := map[string]map[string]string{}
		if table == "COUNTERS" {
			for k, h := range db[table] {
				if k != "" && len(h) > 0 {
					msi[k] = h
				}
			}
			return countersJSON(msi)
		}
		h, _ := redisHash(db, table)
		return countersJSON(h)
	}
	key, field := strings.Join(names[1:min(len(names), 3)], ":"), ""
	if len(names) == 4 {
		field = names[3]
	}
	if field == "" {
		if _, ok := redisHash(db, table+":"+key); !ok {
			// probePathElements: the last element may name a field of the key before it.
			parent := table
			if k1, k2, two := strings.Cut(key, ":"); two {
				parent, key = table+":"+k1, k2
			}
			if h, ok := redisHash(db, parent); ok {
				if v, ok := h[key]; ok {
					return &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: v}}, nil
				}
			}
			if parent != table {
				key = strings.TrimPrefix(parent, table+":") + ":" + key
			}
		}
	}
	h, ok := redisHash(db, table+":"+key)
	if !ok {
		return nil, fmt.Errorf("No valid entry found on COUNTERS_DB with key %s:%s", table, key) //nolint:staticcheck // sonic-gnmi's text
	}
	if field != "" {
		v, ok := h[field]
		if !ok {
			return nil, fmt.Errorf("redis: nil") // go-redis HGet of a missing field
		}
		return &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: v}}, nil
	}
	return countersJSON(h)
}

// virtualCounters is virtual_db.go's table of virtual paths, those the lab serves: ok is false
// for a path that is none of them, or whose port the switch lacks (sonic-gnmi then reads it
// as a real path).
func (sw *Switch) virtualCounters(db configDB, names []string) (*gpb.TypedValue, bool, error) {
	if len(names) < 2 || !strings.HasPrefix(names[1], "Ethernet") {
		return nil, false, nil
	}
	portMap, _ := redisHash(db, "COUNTERS_PORT_NAME_MAP")
	// alias -> name and back (GetAliasMap reads CONFIG_DB PORT|<name> alias).
	alias2name, name2alias := map[string]string{}, map[string]string{}
	for _, p := range sw.ports {
		if a := sw.db.fields("PORT", p)["alias"]; a != "" {
			alias2name[a], name2alias[p] = p, a
		}
	}
	wild := strings.HasSuffix(names[1], "*")
	// ports are the ports a path covers, each with the name its JSON keys use (the alias on a
	// wildcard, the name as asked on a single port).
	type shown struct{ name, as string }
	var ports []shown
	if wild {
		for _, p := range sw.ports {
			as := p
			if a, ok := name2alias[p]; ok {
				as = a
			}
			ports = append(ports, shown{p, as})
		}
	} else {
		name := names[1]
		if n, ok := alias2name[name]; ok {
			name = n
		}
		if _, ok := portMap[name]; !ok {
			return nil, false, nil
		}
		ports = []shown{{name, names[1]}}
	}
	switch {
	case names[0] == "COUNTERS" && len(names) == 2:
		if !wild {
			h, _ := redisHash(db, "COUNTERS:"+portMap[ports[0].name])
			return mustJSON(h), true, nil
		}
		msi := map[string]map[string]string{}
		for _, p := range ports {
			msi[p.as], _ = redisHash(db, "COUNTERS:"+portMap[p.name])
		}
		return mustJSON(msi), true, nil
	case names[0] == "COUNTERS" && len(names) == 3 && (names[2] == "Queues" || names[2] == "Pfcwd"):
		queueMap, _ := redisHash(db, "COUNTERS_QUEUE_NAME_MAP")
		watched := sw.pfcwdQueues()
		msi := map[string]map[string]string{}
		for _, p := range ports {
			for q := range sonicUnicastQueues {
				oid := queueMap[p.name+":"+strconv.Itoa(q)]
				key := p.as + ":" + strconv.Itoa(q)
				if names[2] == "Pfcwd" && !watched[p.name][q] {
					continue
				}
				if h, ok := redisHash(db, "COUNTERS:"+oid); ok {
					msi[key] = h
				}
				// v2rEthPortQueStats adds the periodic watermark under "<port>:<q>:periodic".
				if w, ok := db["PERIODIC_WATERMARKS"][oid]["SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"]; ok && names[2] == "Queues" {
					msi[key+":periodic"] = map[string]string{"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": w}
				}
			}
		}
		return mustJSON(msi), true, nil
	case names[0] == "COUNTERS" && len(names) == 3:
		if !wild {
			h, _ := redisHash(db, "COUNTERS:"+portMap[ports[0].name])
			v, ok := h[names[2]]
			if !ok {
				return nil, true, fmt.Errorf("redis: nil")
			}
			return &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: v}}, true, nil
		}
		msi := map[string]map[string]string{}
		for _, p := range ports {
			h, _ := redisHash(db, "COUNTERS:"+portMap[p.name])
			if v, ok := h[names[2]]; ok {
				msi[p.as] = map[string]string{names[2]: v}
			}
		}
		return mustJSON(msi), true, nil
	case names[0] == "PERIODIC_WATERMARKS" && len(names) == 3 && names[2] == "PriorityGroups":
		pgMap, _ := redisHash(db, "COUNTERS_PG_NAME_MAP")
		msi := map[string]map[string]string{}
		for _, p := range ports {
			for g := range sonicPriorityGroups {
				if h, ok := redisHash(db, "PERIODIC_WATERMARKS:"+pgMap[p.name+":"+strconv.Itoa(g)]); ok {
					msi[p.as+":"+strconv.Itoa(g)] = h
				}
			}
		}
		return mustJSON(msi), true, nil
	}
	return nil, false, nil
}

// pfcwdQueues is GetPfcwdMap: the ports with a PFC_WD|<port> key, each with the queues of
// the no-drop priorities of the first port's PORT_QOS_MAP (sonic-gnmi reads one port's
// pfc_enable for all; the lab takes the first in name order) through
// MAP_PFC_PRIORITY_TO_QUEUE|AZURE.
func (sw *Switch) pfcwdQueues() map[string]map[int]bool {
	out := map[string]map[int]bool{}
	var qosKeys []string
	for k := range sw.db["PORT_QOS_MAP"] {
		if !strings.EqualFold(k, "global") {
			qosKeys = append(qosKeys, k)
		}
	}
	if len(qosKeys) == 0 {
		return out
	}
	slices.Sort(qosKeys)
	prioToQueue := sw.db.fields("MAP_PFC_PRIORITY_TO_QUEUE", "AZURE")
	var queues []int
	for _, prio := range strings.Split(sw.db.fields("PORT_QOS_MAP", qosKeys[0])["pfc_enable"], ",") {
		if q, err := strconv.Atoi(prioToQueue[prio]); err == nil {
			queues = append(queues, q)
		}
	}
	for port := range sw.db["PFC_WD"] {
		if strings.EqualFold(port, "GLOBAL") {
			continue
		}
		out[port] = map[int]bool{}
		for _, q := range queues {
			out[port][q] = true
		}
	}
	return out
}

func countersJSON(v any) (*gpb.TypedValue, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b}}, nil
}

func mustJSON(v any) *gpb.TypedValue {
	tv, err := countersJSON(v)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return tv
}
