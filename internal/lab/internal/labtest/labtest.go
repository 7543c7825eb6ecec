// Package labtest is what the lab's tests share across rooms: a device spec with its own CA
// and patch panel, a plain gNMI client, a plain SSH client and a plain NVUE (HTTPS) client
// written here, not the provider's transports, so the lab is checked against the protocols and
// not against our own understanding of them. Only tests import it.
package labtest

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/value"
	"github.com/openconfig/ygot/ygot"
	"golang.org/x/crypto/ssh"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Spec is a device spec as the lab gives one to a room's constructor: name <platform>-1, the
// lab's login, its own CA and an empty patch panel.
func Spec(t *testing.T, platform string, ports int, model string) device.Spec {
	t.Helper()
	ca, err := pki.NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	return device.Spec{Name: platform + "-1", Platform: platform, Ports: ports, Model: model,
		Username: "admin", Password: "labtest", CA: ca, Wires: cabling.NewPanel()}
}

// Start starts one device of a room from spec, as each of opts changes it, with the room's
// constructor, stops it with the test and returns it as the room's own type D.
func Start[D device.Device](t *testing.T, start func(device.Spec) (device.Device, error), spec device.Spec, opts ...func(*device.Spec)) D {
	t.Helper()
	for _, f := range opts {
		f(&spec)
	}
	d, err := start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Stop)
	typed, ok := d.(D)
	if !ok {
		t.Fatalf("%s started as a %T", spec.Name, d)
	}
	return typed
}

// ManualClock gives a CLI switch a clock the test moves (its Advance); the switch's counters
// count from the clock's start.
func ManualClock(sw interface{ SetClock(now func() time.Time) }) func(time.Duration) {
	clk := traffic.NewManualClock()
	sw.SetClock(clk.Now)
	return clk.Advance
}

// Terminal is a CLI switch's terminal as its room's tests drive it without SSH (the methods
// of cliswitch.Term they need).
type Terminal interface {
	Prompt() string
	Enter(line string) (out, prompt string, closed bool)
	Leave()
}

// CLI types lines into a terminal of a CLI switch without SSH (the parsers' tests); Term is the
// dialect's own terminal, for the tests that look inside it.
type CLI[T Terminal] struct {
	T    *testing.T
	Term T
	// quiet is what a line that must print nothing may print all the same (NX-OS's banner of
	// configure terminal), or "".
	quiet string
}

// NewCLI types lines at term, each of which must print nothing but quiet; the terminal is left
// when the test ends, as when its connection closes.
func NewCLI[T Terminal](t *testing.T, term T, quiet string, lines ...string) *CLI[T] {
	t.Helper()
	c := &CLI[T]{T: t, Term: term, quiet: quiet}
	t.Cleanup(term.Leave)
	for _, l := range lines {
		c.Must(l)
	}
	return c
}

// Run types one line and returns its output.
func (c *CLI[T]) Run(line string) string {
	out, _, _ := c.Term.Enter(line)
	return out
}

// WantClosed types line, which must end the terminal (Enter says it closed); where names
// the mode it is typed in.
func (c *CLI[T]) WantClosed(line, where string) {
	c.T.Helper()
	if _, _, closed := c.Term.Enter(line); !closed {
		c.T.Errorf("%s in %s did not close the terminal", line, where)
	}
}

// Must types lines that must print nothing (or the quiet text).
func (c *CLI[T]) Must(lines ...string) {
	c.T.Helper()
	for _, line := range lines {
		prompt := c.Term.Prompt()
		if out := c.Run(line); out != "" && out != c.quiet {
			// EOS's prompt ends without the space NX-OS's has.
			c.T.Fatalf("%s %s: %q", strings.TrimSuffix(prompt, " "), line, out)
		}
	}
}

// Answer is a line and what it must print (an alias of a plain struct, so that tables list
// {line, want} pairs unkeyed).
type Answer = struct{ Line, Want string }

// Answers types each line and checks what it prints; where ("exec ", "config ", or "") starts
// the message of a wrong answer.
func (c *CLI[T]) Answers(where string, answers []Answer) {
	c.T.Helper()
	for _, a := range answers {
		if got := c.Run(a.Line); got != a.Want {
			c.T.Errorf("%s%q: %q, want %q", where, a.Line, got, a.Want)
		}
	}
}

// Step is a line and the prompt after it (unkeyed in tables, as Answer).
type Step = struct{ Line, Prompt string }

// Steps types each line and checks the prompt after it; a wrong one ends the test, since the
// next steps assume it.
func (c *CLI[T]) Steps(steps []Step) {
	c.T.Helper()
	c.steps(steps, func(l string) { c.Run(l) })
}

// QuietSteps are Steps whose lines must also print nothing (Must).
func (c *CLI[T]) QuietSteps(steps []Step) {
	c.T.Helper()
	c.steps(steps, func(l string) { c.Must(l) })
}

func (c *CLI[T]) steps(steps []Step, typeLine func(string)) {
	c.T.Helper()
	for _, s := range steps {
		typeLine(s.Line)
		if got := c.Term.Prompt(); got != s.Prompt {
			c.T.Fatalf("after %q: prompt %q, want %q", s.Line, got, s.Prompt)
		}
	}
}

// Main runs a test binary's tests (TestMain's m) with glog's -log_dir (the gNMI datastore's
// logs) in a new directory named from logPrefix instead of /tmp, then after (if not nil), then
// removes the logs and exits with the tests' code.
func Main(m *testing.M, logPrefix string, after func()) {
	logs, err := os.MkdirTemp("", logPrefix)
	if err != nil {
		panic(err)
	}
	_ = flag.Set("log_dir", logs)
	code := m.Run()
	if after != nil {
		after()
	}
	_ = os.RemoveAll(logs)
	os.Exit(code)
}

// LoginCreds are a username and password sent as gNMI metadata.
type LoginCreds struct{ Username, Password string }

// GetRequestMetadata sends the login as gNMI devices take it: metadata on every call.
func (c LoginCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"username": c.Username, "password": c.Password}, nil
}

// RequireTransportSecurity: the login goes over TLS only.
func (LoginCreds) RequireTransportSecurity() bool { return true }

// clientTLS trusts d's CA, as the inventory gives it, and nothing else.
func clientTLS(t *testing.T, d device.Entry) *tls.Config {
	t.Helper()
	cfg, ok := pki.ClientTLS(d.CACertificate)
	if !ok {
		t.Fatal("inventory CA certificate is not PEM")
	}
	return cfg
}

// Dial connects like any gNMI client would from the inventory entry; opts
// come last so a test can override the credentials or the TLS settings.
func Dial(t *testing.T, d device.Entry, opts ...grpc.DialOption) gpb.GNMIClient {
	t.Helper()
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(credentials.NewTLS(clientTLS(t, d))),
		grpc.WithPerRPCCredentials(LoginCreds{d.Username, d.Password}),
	}
	conn, err := grpc.NewClient(d.Address, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return gpb.NewGNMIClient(conn)
}

// Ctx is a context that ends with the test, or after 30 seconds.
func Ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Path parses a gNMI path string.
func Path(t *testing.T, s string) *gpb.Path {
	t.Helper()
	p, err := ygot.StringToStructuredPath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// JSONIETF is a JSON_IETF value.
func JSONIETF(s string) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(s)}}
}

// Update is one JSON_IETF update under origin openconfig.
func Update(t *testing.T, p, body string) *gpb.Update {
	return &gpb.Update{Path: Path(t, p), Val: JSONIETF(body)}
}

// SetReq is a SetRequest of updates under origin openconfig.
func SetReq(updates ...*gpb.Update) *gpb.SetRequest {
	return &gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Update: updates}
}

// SONiCPath is a sonic-db path from "TABLE/KEY/FIELD" (any prefix of it) under
// CONFIG_DB/localhost, one element each, as a gNMI client writes it for sonic-gnmi.
func SONiCPath(rel string) *gpb.Path {
	p := &gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}}}
	if rel != "" {
		for _, name := range strings.Split(rel, "/") {
			p.Elem = append(p.Elem, &gpb.PathElem{Name: name})
		}
	}
	return p
}

// SONiCUpdate is one JSON_IETF update of the sonic-db path rel.
func SONiCUpdate(rel, body string) *gpb.Update {
	return &gpb.Update{Path: SONiCPath(rel), Val: JSONIETF(body)}
}

// Get returns the JSON_IETF text at p, or the gRPC error.
func Get(ctx context.Context, c gpb.GNMIClient, p *gpb.Path) (string, error) {
	p.Origin = "openconfig"
	resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p}, Encoding: gpb.Encoding_JSON_IETF})
	if err != nil {
		return "", err
	}
	if n := len(resp.GetNotification()); n != 1 {
		return "", fmt.Errorf("got %d notifications, want 1", n)
	}
	ups := resp.GetNotification()[0].GetUpdate()
	if len(ups) != 1 {
		return "", fmt.Errorf("got %d updates, want 1", len(ups))
	}
	v, ok := ups[0].GetVal().GetValue().(*gpb.TypedValue_JsonIetfVal)
	if !ok {
		return "", fmt.Errorf("value is %T, want JSON_IETF", ups[0].GetVal().GetValue())
	}
	return string(v.JsonIetfVal), nil
}

// MustGet is Get of path string p, failing the test on an error.
func MustGet(t *testing.T, c gpb.GNMIClient, p string) string {
	t.Helper()
	s, err := Get(Ctx(t), c, Path(t, p))
	if err != nil {
		t.Fatalf("Get %s: %v", p, err)
	}
	return s
}

// GetTyped returns the JSON_IETF text at path string p read with Get of data type typ, or the
// gRPC error.
func GetTyped(t *testing.T, c gpb.GNMIClient, typ gpb.GetRequest_DataType, p string) (string, error) {
	t.Helper()
	resp, err := c.Get(Ctx(t), &gpb.GetRequest{Path: []*gpb.Path{Path(t, p)}, Encoding: gpb.Encoding_JSON_IETF, Type: typ})
	if err != nil {
		return "", err
	}
	return string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal()), nil
}

// MustGetTyped is GetTyped, failing the test on an error.
func MustGetTyped(t *testing.T, c gpb.GNMIClient, typ gpb.GetRequest_DataType, p string) string {
	t.Helper()
	s, err := GetTyped(t, c, typ, p)
	if err != nil {
		t.Fatalf("Get %s %s: %v", typ, p, err)
	}
	return s
}

// WantCode fails the test unless err has gRPC code want.
func WantCode(t *testing.T, err error, want codes.Code) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Fatalf("got code %s (%v), want %s", got, err, want)
	}
}

// WantStatus fails the test (going on) unless err is a gRPC status of code want with exactly
// the message msg; what names the request.
func WantStatus(t *testing.T, what string, err error, want codes.Code, msg string) {
	t.Helper()
	if st := status.Convert(err); st.Code() != want || st.Message() != msg {
		t.Errorf("%s: got %v, want code %s with message %q", what, err, want, msg)
	}
}

// SubscribeOnce reads path p (origin openconfig) with one Subscribe ONCE and returns every
// leaf it sends, by whole path, each value as fmt prints its scalar.
func SubscribeOnce(t *testing.T, c gpb.GNMIClient, p string) map[string]string {
	t.Helper()
	leaves := map[string]string{}
	for _, l := range Leaves(t, Once(t, c, &gpb.SubscriptionList{
		Prefix:       &gpb.Path{Origin: "openconfig"},
		Subscription: []*gpb.Subscription{{Path: Path(t, p)}},
	})) {
		leaves[l.Path] = fmt.Sprint(l.Value)
	}
	return leaves
}

// Once sends one Subscribe of mode ONCE with list and returns the notifications that come
// before sync_response; the stream must end right after it.
func Once(t *testing.T, c gpb.GNMIClient, list *gpb.SubscriptionList) []*gpb.Notification {
	t.Helper()
	stream, err := c.Subscribe(Ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	list.Mode = gpb.SubscriptionList_ONCE
	if err := stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: list}}); err != nil {
		t.Fatal(err)
	}
	var out []*gpb.Notification
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("before sync_response: %v", err)
		}
		if resp.GetSyncResponse() {
			break
		}
		out = append(out, resp.GetUpdate())
	}
	if _, err := stream.Recv(); err != io.EOF {
		t.Errorf("after sync_response: %v, want the end of the stream", err)
	}
	return out
}

// Leaf is one update: its whole path (the notification's prefix, then the update's path) and
// its value as a scalar.
type Leaf struct {
	Path  string
	Value any
}

// Leaves are the updates of notifications, in the order they came.
func Leaves(t *testing.T, notifications []*gpb.Notification) []Leaf {
	t.Helper()
	var out []Leaf
	for _, n := range notifications {
		for _, u := range n.GetUpdate() {
			ps, err := ygot.PathToString(&gpb.Path{Elem: append(slices.Clone(n.GetPrefix().GetElem()), u.GetPath().GetElem()...)})
			if err != nil {
				t.Fatal(err)
			}
			v, err := value.ToScalar(u.GetVal())
			if err != nil {
				t.Fatalf("%s: %v", ps, err)
			}
			out = append(out, Leaf{ps, v})
		}
	}
	return out
}

// JSONEqual compares JSON texts ignoring member order and whitespace.
func JSONEqual(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got invalid JSON %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON %q: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("JSON differs\n got: %s\nwant: %s", gb, wb)
	}
}

// MustUnmarshal decodes JSON text s into v, failing the test on an error.
func MustUnmarshal(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
}

// NVUE speaks to a cumulus switch's NVUE REST API as curl does: HTTPS with the inventory's CA,
// basic authentication with its login.
type NVUE struct {
	T    *testing.T
	D    device.Entry
	HTTP *http.Client
}

// NewNVUE is an NVUE client of d.
func NewNVUE(t *testing.T, d device.Entry) *NVUE {
	t.Helper()
	return &NVUE{T: t, D: d, HTTP: &http.Client{Timeout: 20 * time.Second,
		Transport: &http.Transport{TLSClientConfig: clientTLS(t, d), ForceAttemptHTTP2: true}}}
}

// Do sends one request to path under /nvue_v1, body (if not nil) as JSON, and returns the
// status, or the transport's error; with out not nil, the answer's JSON goes into it (a body
// that is not JSON is an error, an empty one is not).
func (c *NVUE) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			c.T.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, "https://"+c.D.Address+"/nvue_v1"+path, rd)
	if err != nil {
		c.T.Fatal(err)
	}
	req.SetBasicAuth(c.D.Username, c.D.Password)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil && !errors.Is(err, io.EOF) {
			return resp.StatusCode, fmt.Errorf("%s %s: the answer is not JSON: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

// Must is Do with the answer's JSON object, failing the test unless the status is 2xx.
func (c *NVUE) Must(method, path string, body any) map[string]any {
	c.T.Helper()
	var out map[string]any
	code, err := c.Do(c.T.Context(), method, path, body, &out)
	if err != nil || code/100 != 2 {
		c.T.Fatalf("%s %s: %d %v %v", method, path, code, out, err)
	}
	return out
}

// HostKeyCallback pins the host key of an inventory's host_key (authorized_keys form).
func HostKeyCallback(t *testing.T, authorized string) ssh.HostKeyCallback {
	t.Helper()
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(authorized))
	if err != nil {
		t.Fatalf("inventory host_key %q: %v", authorized, err)
	}
	return ssh.FixedHostKey(pub)
}

// SSHDial logs in to d with x/crypto/ssh, the way any SSH client would from the inventory:
// password authentication (or auth) against the pinned host key.
func SSHDial(t *testing.T, d device.Entry, auth ...ssh.AuthMethod) (*ssh.Client, error) {
	t.Helper()
	if len(auth) == 0 {
		auth = []ssh.AuthMethod{ssh.Password(d.Password)}
	}
	return ssh.Dial("tcp", d.Address, &ssh.ClientConfig{
		User:            d.Username,
		Auth:            auth,
		HostKeyCallback: HostKeyCallback(t, d.HostKey),
		Timeout:         10 * time.Second,
	})
}

// SSHClient is a logged-in client, closed at the end of the test.
func SSHClient(t *testing.T, d device.Entry) *ssh.Client {
	t.Helper()
	c, err := SSHDial(t, d)
	if err != nil {
		t.Fatalf("login to %s: %v", d.Address, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Exec runs one command in a new session of c and returns what it printed and the error of
// Run: an *ssh.ExitError for a non-zero status, or how the session failed (the fault tests
// look at it).
func Exec(t *testing.T, c *ssh.Client, cmd, stdin string) (stdout, stderr string, err error) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr, s.Stdin = &out, &errOut, strings.NewReader(stdin)
	err = s.Run(cmd)
	return out.String(), errOut.String(), err
}

// RunOn runs one command in a new session and returns what it printed
// and its exit status; a session that fails otherwise ends the test.
func RunOn(t *testing.T, c *ssh.Client, cmd, stdin string) (stdout, stderr string, status int) {
	t.Helper()
	stdout, stderr, err := Exec(t, c, cmd, stdin)
	var exit *ssh.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitStatus()
	case err != nil:
		t.Fatalf("%q: %v", cmd, err)
	}
	return stdout, stderr, status
}

// Shell runs commands on a device over one logged-in SSH client, each in a new session.
type Shell struct {
	T *testing.T
	C *ssh.Client
}

// Run runs cmd and returns what it printed and its exit status.
func (s Shell) Run(cmd string) (string, string, int) {
	s.T.Helper()
	return RunOn(s.T, s.C, cmd, "")
}

// Must runs cmd and fails the test unless it exits 0 without stderr.
func (s Shell) Must(cmd string) string {
	s.T.Helper()
	out, errOut, status := s.Run(cmd)
	if status != 0 || errOut != "" {
		s.T.Fatalf("%q: exit %d, stderr %q, stdout %q", cmd, status, errOut, out)
	}
	return out
}

// Expect checks a command's whole result.
func (s Shell) Expect(cmd, stdout, stderr string, status int) {
	s.T.Helper()
	out, errOut, got := s.Run(cmd)
	if out != stdout || errOut != stderr || got != status {
		s.T.Errorf("%q:\n got exit %d stdout %q stderr %q\nwant exit %d stdout %q stderr %q",
			cmd, got, out, errOut, status, stdout, stderr)
	}
}

// CounterCaptures is where the provider keeps platform's counters captures (its
// internal/platform/<platform>/testdata/counters), seen from a room's directory: the lab's
// output must have their layout.
func CounterCaptures(platform string) string {
	return "../../../platform/" + platform + "/testdata/counters/"
}

// SkipUnlessDash skips a test that compares the lab's shell with the machine's when /bin/sh is
// not dash, the shell the lab imitates (Debian's /bin/sh), saying so; under
// ROCE_REQUIRE_HOST_TOOLS=1 (CI, a Debian machine) that fails the test instead.
func SkipUnlessDash(tb testing.TB) {
	tb.Helper()
	if target, err := filepath.EvalSymlinks("/bin/sh"); err != nil || filepath.Base(target) != "dash" {
		if os.Getenv("ROCE_REQUIRE_HOST_TOOLS") == "1" {
			tb.Fatalf("/bin/sh is not dash (%s, %v) but ROCE_REQUIRE_HOST_TOOLS=1", target, err)
		}
		tb.Skipf("/bin/sh is not dash (%s): the comparison needs Debian's dash", target)
	}
}

// RealShell runs script with the machine's /bin/sh as `sh -c` (so dash's messages name "sh"),
// in dir, with only PATH=path, LC_ALL=C and PWD, and no controlling terminal (sudo's usage is
// then 80 columns wide); it returns what the real shell printed and its exit status.
func RealShell(tb testing.TB, dir, path, script string) (stdout, stderr string, status int) {
	tb.Helper()
	cmd := exec.Command("/bin/sh", "-c", script) //nolint:gosec // a test case's script, run to compare the lab's shell with the real one
	cmd.Args[0] = "sh"
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + path, "LC_ALL=C", "PWD=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			tb.Fatal(err)
		}
		status = exit.ExitCode()
	}
	return out.String(), errOut.String(), status
}
