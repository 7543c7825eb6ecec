package gnmi

import (
	"context"
	"errors"
	"io"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// SubscribeOnce reads paths (relative to prefix, whose origin they take) with one Subscribe
// RPC of mode ONCE and returns every update the target sends before its sync_response: the
// gNMI specification's one-off read (3.5.1.5.1). Unlike a GetRequest it answers a path without
// data with nothing rather than NotFound, so one RPC can read paths that may be empty, and
// streaming targets take wildcard keys in it (NVIDIA documents them for Cumulus Linux, which
// answers no Get at all). Values come as the target
// encodes them; PROTO is asked for (scalar TypedValues, one update per leaf), which targets
// that stream support, and each is rendered as JSON as Get's are. Deletes are ignored. The
// configured Target is set on the prefix.
func (c *Client) SubscribeOnce(ctx context.Context, prefix *gpb.Path, paths ...*gpb.Path) ([]Update, error) {
	p := &gpb.Path{Origin: prefix.GetOrigin(), Elem: prefix.GetElem(), Target: c.cfg.Target}
	subs := make([]*gpb.Subscription, len(paths))
	for i, path := range paths {
		subs[i] = &gpb.Subscription{Path: path}
	}
	req := &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Prefix: p, Mode: gpb.SubscriptionList_ONCE, Encoding: gpb.Encoding_PROTO, Subscription: subs,
	}}}
	var out []Update
	err := c.do(ctx, "subscribe", func(ctx context.Context, gc gpb.GNMIClient) error {
		out = nil // a retried attempt starts over
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // ends the stream once the sync_response is in
		stream, err := gc.Subscribe(ctx)
		if err != nil {
			return err
		}
		if err := stream.Send(req); err != nil {
			return err
		}
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return nil // the target closed the RPC: ONCE ends so after its updates
			}
			if err != nil {
				return err
			}
			if resp.GetSyncResponse() {
				return nil
			}
			n := resp.GetUpdate()
			for _, u := range n.GetUpdate() {
				b, err := valueJSON(u.GetVal())
				if err != nil {
					return err
				}
				out = append(out, Update{Path: joinPath(n.GetPrefix(), u.GetPath()), JSON: b})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
