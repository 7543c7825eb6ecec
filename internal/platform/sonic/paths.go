package sonic

import (
	"encoding/json"
	"fmt"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// Origin is the gNMI origin of every path this package reads or writes (sonic-gnmi's
// "sonic-db" model: the Redis databases addressed as DB/namespace/TABLE/KEY/FIELD).
const Origin = "sonic-db"

const (
	dbName    = "CONFIG_DB"
	namespace = "localhost"
)

// CONFIG_DB tables this package reads or writes.
const (
	tDSCPToTC     = "DSCP_TO_TC_MAP"
	tDot1pToTC    = "DOT1P_TO_TC_MAP"
	tTCToQueue    = "TC_TO_QUEUE_MAP"
	tTCToPG       = "TC_TO_PRIORITY_GROUP_MAP"
	tPFCToQueue   = "MAP_PFC_PRIORITY_TO_QUEUE"
	tScheduler    = "SCHEDULER"
	tWRED         = "WRED_PROFILE"
	tQueue        = "QUEUE"
	tPortQoSMap   = "PORT_QOS_MAP"
	tPort         = "PORT"
	tCableLength  = "CABLE_LENGTH"
	tBufferProf   = "BUFFER_PROFILE"
	tBufferPG     = "BUFFER_PG"
	tPFCWatchdog  = "PFC_WD"
	keyPFCWDGlobl = "GLOBAL"
)

// ReadPaths lists what a read needs: the CONFIG_DB root, in one Get. A Get of one path per
// table would be smaller, but sonic-gnmi fails a table path whose table has no key ("Failed
// to find"), and a switch commonly lacks DOT1P_TO_TC_MAP or WRED_PROFILE until someone writes
// one; one failing path fails the whole Get. The root always exists and is also the device
// snapshot every resource on the switch reads (DESIGN section 6).
func ReadPaths() []*gpb.Path {
	return []*gpb.Path{{Origin: Origin, Elem: []*gpb.PathElem{{Name: dbName}, {Name: namespace}}}}
}

// PFCReadPaths lists what a read of roce_pfc_interface on port needs: the same CONFIG_DB root
// as ReadPaths. The port's rows live in tables whose other keys are unknown before the read
// (the CABLE_LENGTH key, range keys of BUFFER_PG such as "Ethernet0|3-4", the bound
// TC_TO_PRIORITY_GROUP_MAP), so nothing narrower is reliable; port names nothing the read
// could leave out.
func PFCReadPaths(port string) []*gpb.Path {
	_ = port
	return ReadPaths()
}

// dbPath builds a path below CONFIG_DB/localhost: table, key (one element even when the key
// holds "|", such as "Ethernet0|3") and optionally a field. Paths carry no origin: the
// SetRequest prefix does.
func dbPath(table, key string, field ...string) *gpb.Path {
	elems := []*gpb.PathElem{{Name: dbName}, {Name: namespace}, {Name: table}, {Name: key}}
	for _, f := range field {
		elems = append(elems, &gpb.PathElem{Name: f})
	}
	return &gpb.Path{Elem: elems}
}

// pathKey renders a path for sorting, de-duplication and golden files:
// /CONFIG_DB/localhost/TABLE/KEY[/FIELD].
func pathKey(p *gpb.Path) string {
	s := ""
	for _, e := range p.GetElem() {
		s += "/" + e.GetName()
	}
	return s
}

func jsonIETF(v any) (*gpb.TypedValue, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("sonic: encode JSON_IETF: %w", err)
	}
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b}}, nil
}

// setBuilder collects the operations of one SetRequest: deletes, replaces, updates, each
// applied by the target in that order, the document validated once after all of them.
type setBuilder struct {
	req  *gpb.SetRequest
	seen map[string]bool // paths already written or deleted: each path is touched once
	err  error
}

func newSetBuilder() *setBuilder {
	return &setBuilder{req: &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}}, seen: map[string]bool{}}
}

func (b *setBuilder) claim(p *gpb.Path) bool {
	k := pathKey(p)
	if b.seen[k] {
		return false
	}
	b.seen[k] = true
	return true
}

func (b *setBuilder) del(p *gpb.Path) {
	if b.claim(p) {
		b.req.Delete = append(b.req.Delete, p)
	}
}

// replace writes a whole key (an object this package owns).
func (b *setBuilder) replace(p *gpb.Path, fields map[string]string) {
	if b.claim(p) {
		b.req.Replace = append(b.req.Replace, b.value(p, fields))
	}
}

// set writes one field of a key: the only way this package writes shared keys.
func (b *setBuilder) set(table, key, field, value string) {
	p := dbPath(table, key, field)
	if b.claim(p) {
		b.req.Update = append(b.req.Update, b.value(p, value))
	}
}

// setOrDelete writes a field, or deletes it when v is nil.
func (b *setBuilder) setOrDelete(table, key, field string, v *string) {
	if v == nil {
		b.del(dbPath(table, key, field))
		return
	}
	b.set(table, key, field, *v)
}

func (b *setBuilder) value(p *gpb.Path, v any) *gpb.Update {
	tv, err := jsonIETF(v)
	if err != nil && b.err == nil {
		b.err = err
	}
	return &gpb.Update{Path: p, Val: tv}
}

func (b *setBuilder) done() (*gpb.SetRequest, error) {
	if b.err != nil {
		return nil, b.err
	}
	return b.req, nil
}
