package bench

import (
	"encoding/json"
	"fmt"
)

// SubsetState cuts a Terraform state (format version 4) down to the resource instances whose
// for_each key is in keep, leaving every other field as it was. The smaller fabrics of the plot
// plan against such a cut of the full fabric's state: the devices already hold what they
// describe, so a subset needs no apply of its own (an apply of a subset would fight the full
// configuration over the same device objects).
func SubsetState(raw []byte, keep map[string]bool) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	var version int
	if err := json.Unmarshal(state["version"], &version); err != nil || version != 4 {
		return nil, fmt.Errorf("state: want format version 4, got %s", state["version"])
	}
	var resources []map[string]json.RawMessage
	if err := json.Unmarshal(state["resources"], &resources); err != nil {
		return nil, fmt.Errorf("state resources: %w", err)
	}
	kept := make([]map[string]json.RawMessage, 0, len(resources))
	for _, r := range resources {
		var instances []map[string]json.RawMessage
		if err := json.Unmarshal(r["instances"], &instances); err != nil {
			return nil, fmt.Errorf("state instances: %w", err)
		}
		var in []map[string]json.RawMessage
		for _, inst := range instances {
			var key string
			if err := json.Unmarshal(inst["index_key"], &key); err != nil {
				return nil, fmt.Errorf("state: instance without a string for_each key: %s", inst["index_key"])
			}
			if keep[key] {
				in = append(in, inst)
			}
		}
		if len(in) == 0 {
			continue
		}
		body, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		r["instances"] = body
		kept = append(kept, r)
	}
	body, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	state["resources"] = body
	return json.MarshalIndent(state, "", "  ")
}

// StateInstances counts the resource instances of a state.
func StateInstances(raw []byte) (int, error) {
	var state struct {
		Resources []struct {
			Instances []json.RawMessage `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		return 0, fmt.Errorf("state: %w", err)
	}
	n := 0
	for _, r := range state.Resources {
		n += len(r.Instances)
	}
	return n, nil
}
