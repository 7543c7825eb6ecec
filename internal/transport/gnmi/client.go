// Package gnmi is the provider's gNMI transport: one lazily opened gRPC/TLS connection per
// device, credentials as per-RPC metadata, retries of transient failures, typed results and
// errors. It knows nothing about QoS.
package gnmi

import (
	"context"
	"crypto/tls"
	"fmt"
	"sync"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/tlsconf"
)

// Config is everything needed to reach one gNMI target.
type Config struct {
	tlsconf.Endpoint
	// Target is set as the gNMI path target of every request when non-empty.
	Target string
	// Attempts: Timeout bounds each attempt (0 means 30s); Retries are the extra attempts after a
	// transient failure.
	retry.Attempts
	Logger Logger
}

// Logger receives transport events (event.Logger, every transport's).
type Logger = event.Logger

// Client talks to one device. It is safe for concurrent use; the connection opens on first use
// and is then shared.
type Client struct {
	cfg Config

	mu   sync.Mutex
	conn *grpc.ClientConn
	gc   gpb.GNMIClient
}

// New returns a client for cfg without connecting.
func New(cfg Config) *Client {
	cfg.Attempts = cfg.WithDefaults() // retry.Attempts.WithDefaults
	return &Client{cfg: cfg}
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

func (c *Client) client() (gpb.GNMIClient, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gc != nil {
		return c.gc, nil
	}
	tlsCfg, err := c.tlsConfig()
	if err != nil {
		return nil, &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "connect", Err: err}
	}
	conn, err := grpc.NewClient(c.cfg.Address,
		grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)),
		grpc.WithPerRPCCredentials(passwordCreds{c.cfg.Username, c.cfg.Password}),
	)
	if err != nil {
		return nil, &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "connect", Err: err}
	}
	c.conn = conn
	c.gc = gpb.NewGNMIClient(conn)
	return c.gc, nil
}

func (c *Client) tlsConfig() (*tls.Config, error) {
	return c.cfg.TLS()
}

// Close drops the connection; a later call reconnects.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn, c.gc = nil, nil
	return err
}

// passwordCreds sends the username and password as gRPC metadata, the convention gNMI targets
// (and the contract) use. It refuses to send them over a connection without transport security.
type passwordCreds struct{ username, password string }

func (p passwordCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	if p.username == "" && p.password == "" {
		return nil, nil
	}
	return map[string]string{"username": p.username, "password": p.password}, nil
}

func (passwordCreds) RequireTransportSecurity() bool { return true }

// Update is one value a Get returned.
type Update struct {
	Path *gpb.Path
	// JSON holds the value as JSON (JSON_IETF or JSON encodings); scalar values are rendered
	// as JSON too, so callers parse one format.
	JSON []byte
}

// Get fetches the configuration at paths with JSON_IETF encoding and returns every update of
// every notification.
func (c *Client) Get(ctx context.Context, paths ...*gpb.Path) ([]Update, error) {
	return c.get(ctx, gpb.GetRequest_CONFIG, paths)
}

// GetAll fetches paths with a GetRequest of type ALL (configuration and state alike). SONiC's
// gNMI server (sonic-gnmi, gnmi_server/server.go Get) refuses every other type before it
// looks at the paths, with `unsupported request type: CONFIG` (Unimplemented), so every read of
// a SONiC switch uses it.
func (c *Client) GetAll(ctx context.Context, paths ...*gpb.Path) ([]Update, error) {
	return c.get(ctx, gpb.GetRequest_ALL, paths)
}

// GetState fetches operational state (counters) at paths.
func (c *Client) GetState(ctx context.Context, paths ...*gpb.Path) ([]Update, error) {
	return c.get(ctx, gpb.GetRequest_STATE, paths)
}

// GetDB fetches paths of one database of a SONiC switch: sonic-gnmi routes a Get whose prefix
// target names a Redis database (COUNTERS_DB, CONFIG_DB, ...) to its DB client, which serves
// the database's tables and its virtual counter paths (DESIGN.md, "Data sources"), and it
// answers only GetRequests of type ALL. The target replaces the configured one.
func (c *Client) GetDB(ctx context.Context, target string, paths ...*gpb.Path) ([]Update, error) {
	return c.getAt(ctx, target, gpb.GetRequest_ALL, paths)
}

func (c *Client) get(ctx context.Context, typ gpb.GetRequest_DataType, paths []*gpb.Path) ([]Update, error) {
	return c.getAt(ctx, c.cfg.Target, typ, paths)
}

func (c *Client) getAt(ctx context.Context, target string, typ gpb.GetRequest_DataType, paths []*gpb.Path) ([]Update, error) {
	req := &gpb.GetRequest{Path: paths, Encoding: gpb.Encoding_JSON_IETF, Type: typ}
	if target != "" {
		req.Prefix = &gpb.Path{Target: target}
	}
	var resp *gpb.GetResponse
	err := c.do(ctx, "get", func(ctx context.Context, gc gpb.GNMIClient) error {
		var err error
		resp, err = gc.Get(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []Update
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			b, err := valueJSON(u.GetVal())
			if err != nil {
				return nil, &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "get", Err: err}
			}
			out = append(out, Update{Path: joinPath(n.GetPrefix(), u.GetPath()), JSON: b})
		}
	}
	return out, nil
}

// Set sends one SetRequest: the device applies all of it or none of it.
func (c *Client) Set(ctx context.Context, req *gpb.SetRequest) error {
	if c.cfg.Target != "" {
		// A copy: the caller's request stays as it built it.
		req = proto.Clone(req).(*gpb.SetRequest) //nolint:forcetypeassert // Clone keeps the type
		if req.Prefix == nil {
			req.Prefix = &gpb.Path{}
		}
		req.Prefix.Target = c.cfg.Target
	}
	return c.do(ctx, "set", func(ctx context.Context, gc gpb.GNMIClient) error {
		_, err := gc.Set(ctx, req)
		return err
	})
}

// Capabilities returns the target's supported models and encodings.
func (c *Client) Capabilities(ctx context.Context) (*gpb.CapabilityResponse, error) {
	var resp *gpb.CapabilityResponse
	err := c.do(ctx, "capabilities", func(ctx context.Context, gc gpb.GNMIClient) error {
		var err error
		resp, err = gc.Capabilities(ctx, &gpb.CapabilityRequest{})
		return err
	})
	return resp, err
}

func valueJSON(v *gpb.TypedValue) ([]byte, error) {
	switch x := v.GetValue().(type) {
	case *gpb.TypedValue_JsonIetfVal:
		return x.JsonIetfVal, nil
	case *gpb.TypedValue_JsonVal:
		return x.JsonVal, nil
	case nil:
		return []byte("null"), nil
	default:
		return scalarJSON(v)
	}
}

func joinPath(prefix, p *gpb.Path) *gpb.Path {
	if prefix == nil {
		return p
	}
	out := &gpb.Path{Origin: prefix.GetOrigin(), Target: prefix.GetTarget()}
	if p.GetOrigin() != "" {
		out.Origin = p.GetOrigin()
	}
	out.Elem = append(append(out.Elem, prefix.GetElem()...), p.GetElem()...)
	return out
}

func (c *Client) String() string { return fmt.Sprintf("%s (%s)", c.cfg.Device, c.cfg.Address) }
