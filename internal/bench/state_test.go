package bench

import (
	"encoding/json"
	"strings"
	"testing"
)

const testState = `{
  "version": 4,
  "terraform_version": "1.5.7",
  "serial": 3,
  "lineage": "abc",
  "outputs": {},
  "resources": [
    {"mode": "managed", "type": "roce_qos_policy", "name": "leaf", "provider": "provider[\"registry.terraform.io/rocefabric/roce\"]",
     "instances": [
       {"index_key": "sonic-1", "schema_version": 0, "attributes": {"id": "sonic-1/ROCE"}},
       {"index_key": "sonic-2", "schema_version": 0, "attributes": {"id": "sonic-2/ROCE"}}
     ]},
    {"mode": "managed", "type": "roce_pfc_interface", "name": "port", "provider": "provider[\"registry.terraform.io/rocefabric/roce\"]",
     "instances": [
       {"index_key": "sonic-1/Ethernet0", "attributes": {"id": "sonic-1/Ethernet0"}, "dependencies": ["roce_qos_policy.leaf"]},
       {"index_key": "sonic-2/Ethernet0", "attributes": {"id": "sonic-2/Ethernet0"}, "dependencies": ["roce_qos_policy.leaf"]}
     ]},
    {"mode": "managed", "type": "roce_nic_qos", "name": "nic", "provider": "provider[\"registry.terraform.io/rocefabric/roce\"]",
     "instances": [{"index_key": "mlx5-2/eth0", "attributes": {"id": "mlx5-2/eth0"}}]}
  ],
  "check_results": null
}`

func TestSubsetState(t *testing.T) {
	out, err := SubsetState([]byte(testState), map[string]bool{"sonic-1": true, "sonic-1/Ethernet0": true})
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Version   int    `json:"version"`
		Serial    int    `json:"serial"`
		Lineage   string `json:"lineage"`
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				IndexKey     string   `json:"index_key"`
				Dependencies []string `json:"dependencies"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	if st.Version != 4 || st.Serial != 3 || st.Lineage != "abc" {
		t.Errorf("header changed: %+v", st)
	}
	if len(st.Resources) != 2 {
		t.Fatalf("%d resources, want 2 (the NIC resource has no instance left):\n%s", len(st.Resources), out)
	}
	if r := st.Resources[1]; r.Type != "roce_pfc_interface" || len(r.Instances) != 1 ||
		r.Instances[0].IndexKey != "sonic-1/Ethernet0" || r.Instances[0].Dependencies[0] != "roce_qos_policy.leaf" {
		t.Errorf("PFC resource: %+v", r)
	}
	if n, err := StateInstances(out); err != nil || n != 2 {
		t.Errorf("StateInstances = %d, %v; want 2", n, err)
	}
	if n, err := StateInstances([]byte(testState)); err != nil || n != 5 {
		t.Errorf("StateInstances(full) = %d, %v; want 5", n, err)
	}
	if !strings.Contains(string(out), `"check_results": null`) {
		t.Error("fields the bench does not know must be kept")
	}
}

func TestSubsetStateErrors(t *testing.T) {
	for name, in := range map[string]string{
		"not JSON":  "{",
		"version 3": `{"version": 3, "resources": []}`,
		"count key": `{"version": 4, "resources": [{"instances": [{"index_key": 0}]}]}`,
	} {
		if _, err := SubsetState([]byte(in), map[string]bool{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := StateInstances([]byte("[")); err == nil {
		t.Error("StateInstances accepted broken JSON")
	}
}

// A map-keyed state has an instance per device: a subset fabric keeps its devices' instances
// of every type, the switches' policies and PFC maps and the hosts' NIC maps, whole.
const testMapState = `{
  "version": 4, "serial": 1, "lineage": "m", "outputs": {},
  "resources": [
    {"mode": "managed", "type": "roce_qos_policy", "name": "leaf",
     "instances": [{"index_key": "sonic-1", "attributes": {}}, {"index_key": "sonic-2", "attributes": {}}]},
    {"mode": "managed", "type": "roce_pfc_interfaces", "name": "leaf",
     "instances": [
       {"index_key": "sonic-1", "attributes": {"device": "sonic-1", "interfaces": {"Ethernet0": {}, "Ethernet4": {}}}, "dependencies": ["roce_qos_policy.leaf"]},
       {"index_key": "sonic-2", "attributes": {"device": "sonic-2", "interfaces": {"Ethernet0": {}, "Ethernet4": {}}}, "dependencies": ["roce_qos_policy.leaf"]}
     ]},
    {"mode": "managed", "type": "roce_nic_qos_interfaces", "name": "host",
     "instances": [{"index_key": "mlx5-1", "attributes": {"interfaces": {"eth0": {}, "eth1": {}}}}, {"index_key": "mlx5-2", "attributes": {}}]},
    {"mode": "managed", "type": "roce_dcqcn_interfaces", "name": "host",
     "instances": [{"index_key": "mlx5-1", "attributes": {}}, {"index_key": "mlx5-2", "attributes": {}}]}
  ]
}`

func TestSubsetStateMapKeyed(t *testing.T) {
	_, f := testFabric(t)
	quarter := f.Subset(1, 4) // sonic-1 and mlx5-1
	out, err := SubsetState([]byte(testMapState), quarter.Keys(MapKeyed))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				IndexKey   string `json:"index_key"`
				Attributes struct {
					Interfaces map[string]json.RawMessage `json:"interfaces"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"roce_qos_policy": "sonic-1", "roce_pfc_interfaces": "sonic-1",
		"roce_nic_qos_interfaces": "mlx5-1", "roce_dcqcn_interfaces": "mlx5-1"}
	if len(st.Resources) != 4 {
		t.Fatalf("%d resources, want 4:\n%s", len(st.Resources), out)
	}
	for _, r := range st.Resources {
		if len(r.Instances) != 1 || r.Instances[0].IndexKey != want[r.Type] {
			t.Errorf("%s: %+v, want only %s", r.Type, r.Instances, want[r.Type])
		}
	}
	if got := len(st.Resources[1].Instances[0].Attributes.Interfaces); got != 2 {
		t.Errorf("sonic-1's PFC map lost ports: %d left", got)
	}
	if n, err := StateInstances(out); err != nil || n != quarter.Resources(MapKeyed) {
		t.Errorf("StateInstances = %d, %v; want %d", n, err, quarter.Resources(MapKeyed))
	}
}
