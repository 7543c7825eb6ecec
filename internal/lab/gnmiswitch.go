package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lgnmi "github.com/openconfig/lemming/gnmi"
	"google.golang.org/grpc"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

// GNMISwitch is an `openconfig` switch: a gNMI server over TLS whose datastore
// is openconfig/lemming's, so every Set is validated against the OpenConfig
// schema and rolled back whole when any part of it is invalid.
type GNMISwitch struct {
	gnmiEndpoint
	ports []string
	store *lgnmi.Server
	wires *cabling.Panel // what each port hears over LLDP (gnmi_lldp.go)

	// mu makes each Set atomic with respect to Get: Get reads the datastore
	// leaf by leaf and must not see half of a Set.
	mu      sync.RWMutex
	traffic switchCounters    // interface and queue counters (gnmicounters.go), under mu
	lldpIDs map[string]string // the neighbour id written per port (gnmi_lldp.go), under mu
}

func startGNMISwitch(spec device.Spec) (labDevice, error) {
	// lemming registers its own server on the grpc.Server it is given; ours
	// is registered on the real one instead, so lemming gets a throwaway.
	store, err := lgnmi.New(grpc.NewServer(), spec.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("gNMI datastore: %w", err)
	}
	sw := &GNMISwitch{
		gnmiEndpoint: gnmiEndpoint{name: spec.Name},
		ports:        device.EthernetNames(spec.Ports),
		store:        store,
		wires:        spec.Wires,
	}
	sw.traffic = newSwitchCounters(sw.ports)
	if err := sw.addInterfaces(); err != nil {
		return nil, err
	}
	if err := sw.listen(spec, &gnmiService{Server: store, sw: sw}); err != nil {
		return nil, err
	}
	return sw, nil
}

// addInterfaces creates the front-panel ports as a real switch boots with
// them, so QoS configuration can reference existing interfaces.
func (sw *GNMISwitch) addInterfaces() error {
	type config struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		Enabled bool   `json:"enabled"`
	}
	type entry struct {
		Name   string `json:"name"`
		Config config `json:"config"`
	}
	req := &gpb.SetRequest{Prefix: &gpb.Path{Origin: lgnmi.OpenConfigOrigin}}
	for _, name := range sw.ports {
		body, err := json.Marshal(entry{Name: name, Config: config{Name: name, Type: "iana-if-type:ethernetCsmacd", Enabled: true}})
		if err != nil {
			return err
		}
		req.Update = append(req.Update, &gpb.Update{
			Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}},
			Val:  &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: body}},
		})
	}
	// The switch is configured with its name as hostname, which its LLDP agent advertises.
	req.Update = append(req.Update, &gpb.Update{
		Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "system"}, {Name: "config"}, {Name: "hostname"}}},
		Val:  &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: sw.name}},
	})
	if _, err := sw.store.Set(context.Background(), req); err != nil {
		return fmt.Errorf("create interfaces: %w", err)
	}
	return nil
}

// Interfaces are the front-panel ports, Ethernet1..EthernetN.
func (sw *GNMISwitch) Interfaces() []string { return slices.Clone(sw.ports) }
