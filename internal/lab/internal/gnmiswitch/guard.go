package gnmiswitch

import (
	"context"
	"crypto/subtle"
	"path"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// Counters are the RPCs a device received (authenticated or not) and the TCP
// connections it accepted, for benchmarks that measure how chatty a client is.
type Counters struct {
	Get          int64
	Set          int64
	Subscribe    int64
	Capabilities int64
	Connections  int64
}

type rpcCounters struct {
	get, set, subscribe, capabilities, connections atomic.Int64
}

func (c *rpcCounters) snapshot() Counters {
	return Counters{
		Get:          c.get.Load(),
		Set:          c.set.Load(),
		Subscribe:    c.subscribe.Load(),
		Capabilities: c.capabilities.Load(),
		Connections:  c.connections.Load(),
	}
}

func (c *rpcCounters) reset() {
	for _, v := range []*atomic.Int64{&c.get, &c.set, &c.subscribe, &c.capabilities, &c.connections} {
		v.Store(0)
	}
}

func (c *rpcCounters) count(fullMethod string) {
	switch path.Base(fullMethod) {
	case "Get":
		c.get.Add(1)
	case "Set":
		c.set.Add(1)
	case "Subscribe":
		c.subscribe.Add(1)
	case "Capabilities":
		c.capabilities.Add(1)
	}
}

// guard is the per-RPC front door of a gNMI device: count, stall (fault.Stall), delay (latency
// and fault.Slow), check the credentials the way gNMI devices take them (metadata on every
// call), then drop or refuse a Set (fault.Drop, fault.Reject). openconfig-switch.md, "Access
// and faults (shared with sonic)", gives the source of each answer.
type guard struct {
	username, password string
	latency            time.Duration
	counters           *rpcCounters
	faults             *fault.Set
	conns              *fault.Conns
	rejectText         gnmiReject // fault.Reject's answer
	unauthenticated    string     // codes.Unauthenticated's text (gnmiUnauthenticatedText)
}

// gnmiUnauthenticatedText is what each platform answers a call whose credentials it does not
// take (missing, or a wrong username or password), always with codes.Unauthenticated.
// openconfig: Arista EOS's OpenConfig gNMI server, whose answer to incorrect username and
// password strings Arista's openmgmt guide shows as `rpc error: code = Unauthenticated desc =
// Authentication failed`. sonic: sonic-gnmi's authenticate (gnmi_server/server.go), which drops
// the password check's own error and answers `Unauthenticated` when no method took the call.
var gnmiUnauthenticatedText = map[string]string{
	"openconfig": "Authentication failed",
	"sonic":      "Unauthenticated",
}

func (g *guard) admit(ctx context.Context, fullMethod string) error {
	g.counters.count(fullMethod)
	if !g.faults.Stall(ctx.Done()) {
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		// Released by Stop: the device goes down under the call, and its connection with it,
		// so the client reads the closed connection (grpc-go's `error reading from server:
		// EOF`), never this status.
		closePeer(g.conns, ctx)
		return status.Error(codes.Unavailable, "the device is shutting down")
	}
	if d := g.latency + g.faults.SlowBy(); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return status.FromContextError(ctx.Err()).Err()
		}
	}
	md, _ := metadata.FromIncomingContext(ctx)
	if !matches(md.Get("username"), g.username) || !matches(md.Get("password"), g.password) {
		return status.Error(codes.Unauthenticated, g.unauthenticated)
	}
	if path.Base(fullMethod) == "Set" {
		if g.faults.Take(fault.Drop) {
			// The client sees its connection close mid-call (grpc-go's `error reading from
			// server: EOF`), never this status; the Set never reaches the service.
			closePeer(g.conns, ctx)
			return status.Error(codes.Unavailable, "connection dropped")
		}
		if g.faults.Take(fault.Reject) {
			return status.Error(g.rejectText.code, g.rejectText.text)
		}
	}
	return nil
}

// matches wants exactly one value, compared in constant time.
func matches(got []string, want string) bool {
	return len(got) == 1 && subtle.ConstantTimeCompare([]byte(got[0]), []byte(want)) == 1
}

func (g *guard) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := g.admit(ctx, info.FullMethod); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func (g *guard) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if err := g.admit(ss.Context(), info.FullMethod); err != nil {
		return err
	}
	return handler(srv, ss)
}
