package lab

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

// SONiCSwitch is a `sonic` switch as sonic-gnmi presents one: gNMI over TLS with the lab's CA
// and credentials, serving the switch's CONFIG_DB under the origin "sonic-db" at
// /sonic-db:CONFIG_DB/localhost/<TABLE>/<KEY>/<FIELD> (sonic_db.go). It boots with SONiC's stock
// QoS configuration (sonic_defaults.go) and checks every Set against SONiC's YANG models
// (sonic_schema.go, sonic_validate.go): the whole SetRequest is applied to a copy, the copy is
// validated whole, and only a valid copy replaces the database.
type SONiCSwitch struct {
	gnmiEndpoint
	ports []string
	wires *cabling.Panel // what each port hears over LLDP (APPL_DB LLDP_ENTRY_TABLE)

	mu      sync.RWMutex // guards db, saved, refusal and traffic
	db      configDB
	saved   configDB     // /etc/sonic/config_db.json: what `config save` wrote last
	refusal string       // why the last refused Set was refused, as GCU logs it
	traffic sonicTraffic // storms and congested queues, for COUNTERS_DB (sonic_counters.go)
	clock   func() time.Time
}

func startSONiCSwitch(spec device.Spec) (labDevice, error) {
	sw := &SONiCSwitch{
		gnmiEndpoint: gnmiEndpoint{name: spec.Name},
		ports:        sonicPortNames(spec.Ports),
		wires:        spec.Wires,
		clock:        time.Now,
	}
	sw.traffic = newSONiCTraffic(sw.ports, sw.clock())
	sw.db = stockConfigDB(spec.Name, sw.ports, sonicSKUs[spec.Model])
	sw.saved = sw.db.clone()
	if v := validateDB(sw.db); len(v) > 0 {
		return nil, fmt.Errorf("stock CONFIG_DB does not validate: %s", strings.Join(v, "; "))
	}
	if err := sw.listen(spec, &sonicService{sw: sw}); err != nil {
		return nil, err
	}
	return sw, nil
}

// Interfaces are the front-panel ports, Ethernet0, Ethernet4, ... as SONiC names them.
func (sw *SONiCSwitch) Interfaces() []string { return slices.Clone(sw.ports) }

// DB returns a copy of the switch's CONFIG_DB: table -> key -> field -> value.
func (sw *SONiCSwitch) DB() map[string]map[string]map[string]string {
	sw.mu.RLock()
	defer sw.mu.RUnlock()
	return sw.db.clone()
}

// Saved returns a copy of the saved configuration (/etc/sonic/config_db.json): sonic-gnmi runs
// `config save -y` after every Set GCU applied.
func (sw *SONiCSwitch) Saved() map[string]map[string]map[string]string {
	sw.mu.RLock()
	defer sw.mu.RUnlock()
	return sw.saved.clone()
}

// LastRefusal is why the last refused Set was refused, in full ("" after a Set that was
// applied): the YANG violations, jsonpatch's or sonic-gnmi's text, GCU's EmptyTableError. A real
// client sees only the first line GCU prints with "Error" in it; GCU logs the rest to syslog.
func (sw *SONiCSwitch) LastRefusal() string {
	sw.mu.RLock()
	defer sw.mu.RUnlock()
	return sw.refusal
}
