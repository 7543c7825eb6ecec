package main

// rocelab get / set: an operator's own gNMI client, independent of the
// provider's transport (plain openconfig/gnmi code over TLS with the
// inventory's CA and credentials), to look at a device and to change it out
// of band.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
)

// rpcTimeout bounds one get or set.
const rpcTimeout = 30 * time.Second

// clientCommand parses `--dir DIR`, the flags extra defines, and exactly want positional
// arguments.
func clientCommand(name string, args []string, want []string, stderr io.Writer, extra ...func(*flag.FlagSet)) (dir string, pos []string, code int) {
	fs := newFlags(name, stderr)
	d := fs.String("dir", "", "directory of the running lab's inventory.json (required)")
	for _, f := range extra {
		f(fs)
	}
	if code, done := parseFlags(fs, args); done {
		return "", nil, code
	}
	switch {
	case *d == "":
		fmt.Fprintf(stderr, "rocelab %s: --dir is required\n", name)
		return "", nil, 2
	case fs.NArg() != len(want):
		fmt.Fprintf(stderr, "rocelab %s: want %d arguments (%s), got %d: %q\n",
			name, len(want), strings.Join(want, " "), fs.NArg(), fs.Args())
		return "", nil, 2
	}
	// lemming is linked in and logs through glog: keep its files out of /tmp.
	_ = flag.Set("log_dir", *d)
	return *d, fs.Args(), -1
}

func get(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var typ string
	dir, pos, code := clientCommand("get", args, []string{"DEVICE", "PATH"}, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&typ, "type", "all", "GetRequest data type: `all`, config, state or operational")
	})
	if code >= 0 {
		return code
	}
	dataType, ok := gpb.GetRequest_DataType_value[strings.ToUpper(typ)]
	if !ok {
		fmt.Fprintf(stderr, "rocelab get: --type %s: want all, config, state or operational\n", typ)
		return 2
	}
	out, err := getValue(ctx, dir, pos[0], pos[1], gpb.GetRequest_DataType(dataType))
	if err != nil {
		fmt.Fprintln(stderr, "rocelab get:", err)
		return 1
	}
	fmt.Fprintln(stdout, out)
	return 0
}

func set(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, pos, code := clientCommand("set", args, []string{"DEVICE", "PATH", "JSON"}, stderr)
	if code >= 0 {
		return code
	}
	if err := setValue(ctx, dir, pos[0], pos[1], pos[2]); err != nil {
		fmt.Fprintln(stderr, "rocelab set:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: set %s = %s\n", pos[0], pos[1], pos[2])
	return 0
}

// getValue returns the JSON_IETF value of the given data type at path on device, indented.
func getValue(ctx context.Context, dir, device, path string, dataType gpb.GetRequest_DataType) (string, error) {
	p, err := parsePath(path)
	if err != nil {
		return "", err
	}
	c, err := dial(dir, device)
	if err != nil {
		return "", err
	}
	defer c.close()
	ctx, cancel := c.context(ctx)
	defer cancel()
	resp, err := c.gnmi.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p}, Encoding: gpb.Encoding_JSON_IETF, Type: dataType})
	if err != nil {
		return "", c.explain("get "+path, err)
	}
	var val []byte
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			if val == nil {
				val = u.GetVal().GetJsonIetfVal()
			}
		}
	}
	if val == nil {
		return "", fmt.Errorf("%s: get %s: the device answered without a JSON_IETF value", device, path)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, val, "", "  "); err != nil {
		return "", fmt.Errorf("%s: get %s: the device sent invalid JSON: %v", device, path, err)
	}
	return pretty.String(), nil
}

// setValue makes one gNMI Update of path with a JSON_IETF value.
func setValue(ctx context.Context, dir, device, path, value string) error {
	p, err := parsePath(path)
	if err != nil {
		return err
	}
	if !json.Valid([]byte(value)) {
		return fmt.Errorf("value %s is not JSON: quote strings, and uint64 leaves take a JSON string, e.g. '\"100000\"'", value)
	}
	c, err := dial(dir, device)
	if err != nil {
		return err
	}
	defer c.close()
	ctx, cancel := c.context(ctx)
	defer cancel()
	_, err = c.gnmi.Set(ctx, &gpb.SetRequest{Update: []*gpb.Update{{
		Path: p,
		Val:  &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(value)}},
	}}})
	if err != nil {
		return c.explain("set "+path, err)
	}
	return nil
}

type client struct {
	device, address, user, pass string
	conn                        *grpc.ClientConn
	gnmi                        gpb.GNMIClient
}

// inventoryEntry reads device's entry from the inventory of the lab running in dir.
func inventoryEntry(dir, device string) (lab.DeviceEntry, string, error) {
	invPath := filepath.Join(dir, lab.InventoryFile)
	raw, err := os.ReadFile(filepath.Clean(invPath)) //nolint:gosec // G703: the lab directory is the operator's own --dir
	if errors.Is(err, os.ErrNotExist) {
		return lab.DeviceEntry{}, invPath, fmt.Errorf("no lab inventory at %s: start one with `rocelab up --dir %s`", invPath, dir)
	}
	if err != nil {
		return lab.DeviceEntry{}, invPath, err
	}
	var inv lab.Inventory
	if err := json.Unmarshal(raw, &inv); err != nil {
		return lab.DeviceEntry{}, invPath, fmt.Errorf("%s: %w", invPath, err)
	}
	d, ok := inv.Devices[device]
	if !ok {
		return lab.DeviceEntry{}, invPath, fmt.Errorf("device %q is not in %s (devices: %s)", device, invPath,
			strings.Join(slices.Sorted(maps.Keys(inv.Devices)), ", "))
	}
	return d, invPath, nil
}

// dial reads DIR/inventory.json and connects to device with its CA and
// credentials.
func dial(dir, device string) (*client, error) {
	d, invPath, err := inventoryEntry(dir, device)
	if err != nil {
		return nil, err
	}
	if d.CACertificate == "" {
		return nil, fmt.Errorf("device %q is a %s device without gNMI (no ca_certificate in %s)", device, d.Platform, invPath)
	}
	cfg, ok := pki.ClientTLS(d.CACertificate)
	if !ok {
		return nil, fmt.Errorf("device %q: ca_certificate in %s is not a PEM certificate", device, invPath)
	}
	conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", device, d.Address, err)
	}
	return &client{device: device, address: d.Address, user: d.Username, pass: d.Password,
		conn: conn, gnmi: gpb.NewGNMIClient(conn)}, nil
}

func (c *client) close() { _ = c.conn.Close() }

// context carries the credentials the way gNMI devices take them.
func (c *client) context(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, rpcTimeout)
	return metadata.AppendToOutgoingContext(ctx, "username", c.user, "password", c.pass), cancel
}

// explain turns a gRPC status into one line naming the device and the call.
func (c *client) explain(what string, err error) error {
	st := status.Convert(err)
	switch st.Code() {
	case codes.Unavailable:
		return fmt.Errorf("%s: %s: cannot reach %s (is the lab still running?): %s", c.device, what, c.address, st.Message())
	case codes.NotFound:
		return fmt.Errorf("%s: %s: nothing there (NotFound): %s", c.device, what, st.Message())
	case codes.DeadlineExceeded:
		return fmt.Errorf("%s: %s: no answer within %s", c.device, what, rpcTimeout)
	}
	return fmt.Errorf("%s: %s: %s: %s", c.device, what, st.Code(), st.Message())
}

// parsePath parses "/a/b[k=v][k2=v2]/c" into an OpenConfig-origin gNMI path.
// Key values may contain "/" and "=" (they run to the next "]"); "\]" and
// "\\" escape a "]" or a backslash in a value. A path into a SONiC database,
// /CONFIG_DB/localhost/TABLE/KEY/FIELD or the same with the origin written on
// its first element (/sonic-db:CONFIG_DB/...), gets the origin "sonic-db".
func parsePath(s string) (*gpb.Path, error) {
	p, err := parseElems(s)
	if err != nil || len(p.Elem) == 0 {
		return p, err
	}
	first := p.Elem[0]
	if name, ok := strings.CutPrefix(first.Name, sonicOrigin+":"); ok {
		first.Name = name
		p.Origin = sonicOrigin
	}
	if len(first.Key) == 0 && strings.HasSuffix(first.Name, "_DB") {
		p.Origin = sonicOrigin
	}
	return p, nil
}

// sonicOrigin is the origin of sonic-gnmi's database paths.
const sonicOrigin = "sonic-db"

func parseElems(s string) (*gpb.Path, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("bad path %q: %s (want /a/b[key=value]/c)", s, fmt.Sprintf(format, a...))
	}
	if !strings.HasPrefix(s, "/") {
		return nil, bad("it must start with /")
	}
	p := &gpb.Path{Origin: "openconfig"}
	rest := s[1:]
	for rest != "" {
		i := strings.IndexAny(rest, "/[]=")
		if i < 0 {
			i = len(rest)
		}
		name := rest[:i]
		rest = rest[i:]
		if name == "" {
			return nil, bad("empty element name")
		}
		e := &gpb.PathElem{Name: name}
		for strings.HasPrefix(rest, "[") {
			kv, after, err := cutKey(rest[1:])
			if err != nil {
				return nil, bad("%s in element %q", err, name)
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, bad("key %q of element %q is not key=value", kv, name)
			}
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			if _, dup := e.Key[k]; dup {
				return nil, bad("key %q repeated in element %q", k, name)
			}
			e.Key[k] = v
			rest = after
		}
		p.Elem = append(p.Elem, e)
		switch {
		case rest == "":
		case rest[0] == '/':
			rest = rest[1:]
			if rest == "" {
				return nil, bad("trailing /")
			}
		default:
			return nil, bad("unexpected %q after element %q", rest[:1], name)
		}
	}
	return p, nil
}

// cutKey returns the text up to the first unescaped "]" and what follows it.
func cutKey(s string) (string, string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		case ']':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", errors.New("unclosed [")
}
