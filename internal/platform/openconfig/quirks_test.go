package openconfig

import (
	"context"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// TestLemmingQuirks pins the lemming v0.7.0 behaviour recorded in doc.go, so that a lemming
// upgrade that changes it fails here rather than somewhere obscure.
func TestLemmingQuirks(t *testing.T) {
	d := newDevice(t, 0) // no /interfaces entries at all
	queue := func(name string) *gpb.Update {
		return &gpb.Update{Path: queuePath(name), Val: mustJSON(t, obj{"name": name, "config": obj{"name": name}})}
	}
	raw := func(p *gpb.Path, js string) *gpb.Update {
		return &gpb.Update{Path: p, Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(js)}}}
	}
	set := func(ups ...*gpb.Update) error {
		return d.set(&gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}, Update: ups})
	}
	if err := set(queue("q")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		up      *gpb.Update
		wantErr string // "" when accepted
	}{
		{"config container path", raw(ifPath("x", el("config")), `{"interface-id":"x"}`), "no match found"},
		{"uint64 as JSON number", raw(profilePath("p"), `{"name":"p","config":{"name":"p"},"wred":{"uniform":{"config":{"min-threshold":1}}}}`), "expect string"},
		{"uint64 as JSON string", raw(profilePath("p"), `{"name":"p","config":{"name":"p"},"wred":{"uniform":{"config":{"min-threshold":"1"}}}}`), ""},
		{"dangling leafref", raw(fgPath("f"), `{"name":"f","config":{"name":"f","output-queue":"nope"}}`), "not equal to any target nodes"},
		{"prefixed enumeration", raw(classifierPath("c"), `{"name":"c","config":{"name":"c","type":"openconfig-qos-types:IPV4"}}`), ""},
		{"binding without /interfaces", raw(ifPath("Ethernet9"), `{"interface-id":"Ethernet9","config":{"interface-id":"Ethernet9"},"input":{"classifiers":{"classifier":[{"type":"IPV4","config":{"type":"IPV4","name":"c"}}]}}}`), ""},
		{"interface-ref without /interfaces", raw(ifPath("Ethernet9"), `{"interface-id":"Ethernet9","interface-ref":{"config":{"interface":"Ethernet9"}}}`), "is empty set"},
	} {
		err := set(tc.up)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: rejected: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
		}
	}

	// Deleting a queue still referenced by a forwarding group fails validation.
	if err := set(raw(fgPath("f"), `{"name":"f","config":{"name":"f","output-queue":"q"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := d.set(&gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}, Delete: []*gpb.Path{queuePath("q")}}); err == nil {
		t.Error("deleting a referenced queue was accepted")
	}

	// LocalClient().Set writes the state datastore: no validation, dangling leafrefs accepted.
	_, err := d.srv.LocalClient().Set(context.Background(), &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin},
		Update: []*gpb.Update{raw(fgPath("g"), `{"name":"g","config":{"name":"g","output-queue":"nope"}}`)}})
	if err != nil {
		t.Errorf("LocalClient().Set rejected a dangling leafref: %v", err)
	}
}
