package driver

import (
	"encoding/json"
	"fmt"
)

// The private state (Prior) of the drivers: what a policy or interface recorded before it
// changed a device.

// decodeInto reads the private state into p; when nothing was recorded (an import, or a
// resource that recorded nothing) p keeps what it holds, the caller's default.
func decodeInto(raw Prior, p any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return fmt.Errorf("private state is unreadable: %w", err)
	}
	return nil
}

// decodeAs reads the private state as a P; the zero P when nothing was recorded.
func decodeAs[P any](raw Prior) (P, error) {
	var p P
	err := decodeInto(raw, &p)
	return p, err
}

// decodePrior reads the private state; nil when nothing was recorded.
func decodePrior[P any](raw Prior) (*P, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	p := new(P)
	if err := decodeInto(raw, p); err != nil {
		return nil, err
	}
	return p, nil
}

// keptFor is what prior recorded for each of ports (the zero value where it recorded nothing):
// the part of a policy's prior an update keeps, what the ports still bound had before it.
func keptFor[V any](ports []string, prior map[string]V) map[string]V {
	kept := make(map[string]V, len(ports))
	for _, port := range ports {
		kept[port] = prior[port]
	}
	return kept
}

// decodeByPort decodes a policy's prior P whose record is a map by port (ports reaches it):
// none recorded (an empty prior, a null map) is an empty map.
func decodeByPort[P, V any](raw Prior, ports func(*P) *map[string]V) (P, error) {
	var p P
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return p, fmt.Errorf("private state %q is unreadable: %w", string(raw), err)
		}
	}
	if m := ports(&p); *m == nil {
		*m = map[string]V{}
	}
	return p, nil
}
