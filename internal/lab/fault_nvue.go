package lab

// Fault injection on the NVUE switch (`cumulus`): the listener (fault_conns.go) refuses
// connections and tracks the open ones by client address; serve calls fault before NVUE sees
// a request, which stalls, slows, drops the connection an apply arrived on, or makes the
// revision it applies fail as NVUE fails one (faults.md, cumulus-switch.md "Faults").

import (
	"net/http"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/nvued"
)

// nvueReject is the issue of a revision FaultReject fails: NVUE's own example of an apply it
// refused, verbatim (the NVUE API page's troubleshooting section, cumulus-switch.md "Faults").
// NVUE validates the whole configuration a revision would make, so a refusal may name any part
// of it.
var nvueReject = struct{ location, reason string }{"router.bgp.enable", "BGP requires router-id to be set globally or in the VRF."}

func (sw *CumulusSwitch) FaultSet() *fault.Set { return &sw.faults }

// CloseConns closes every open connection (FaultRefuse).
func (sw *CumulusSwitch) CloseConns() { sw.conns.CloseAll() }

// fault applies the armed faults to one request before NVUE answers it: stall and slow to
// every request, drop and reject to an authenticated apply (PATCH /nvue_v1/revision/<id>), the
// one request that changes the applied configuration. A request that must not be answered
// (dropped, or its client gone while it stalled) ends the handler with http.ErrAbortHandler,
// which net/http treats as a silent abort.
func (sw *CumulusSwitch) fault(r *http.Request) {
	if !sw.faults.Stall(r.Context().Done()) {
		panic(http.ErrAbortHandler)
	}
	if d := sw.faults.SlowBy(); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done(): // the client gave up, or the switch stopped
			t.Stop()
			panic(http.ErrAbortHandler)
		}
	}
	if !nvued.IsApply(r) || !sw.api.Authorized(r) {
		return
	}
	if sw.faults.Take(FaultDrop) {
		// The connection closes before NVUE reads the apply: the revision stays pending.
		sw.conns.CloseAddr(r.RemoteAddr)
		panic(http.ErrAbortHandler)
	}
	if sw.faults.Take(FaultReject) {
		sw.api.RejectNext(nvueReject.location, nvueReject.reason)
	}
}
