package devices

import (
	"context"
	"fmt"
)

// Exclusive holds device's write turn until the returned release is called: one
// read-modify-write at a time per device within the provider process. Terraform runs
// resources concurrently, and a write is built from what the device holds (a SONiC SetRequest
// from CONFIG_DB, an EOS or NX-OS session from the running configuration): two resources on
// one switch that read before either writes would each undo part of the other's change (a
// policy's new no-drop priorities and a PFC interface's watchdog on the old ones). Waiting
// ends with ctx (the resource's timeout).
func (r *Registry) Exclusive(ctx context.Context, device string) (release func(), err error) {
	r.mu.Lock()
	if r.turns == nil {
		r.turns = map[string]chan struct{}{}
	}
	turn, ok := r.turns[device]
	if !ok {
		turn = make(chan struct{}, 1)
		r.turns[device] = turn
	}
	r.mu.Unlock()
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("device %q: waiting for another write to the device to finish: %w", device, ctx.Err())
	}
}
