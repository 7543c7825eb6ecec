package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// fakePrivate is a resource's private state as the framework keeps it: JSON values by key,
// an empty value removing its key.
type fakePrivate map[string][]byte

func (f fakePrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return f[key], nil
}

func (f fakePrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	var d diag.Diagnostics
	if len(value) == 0 {
		delete(f, key)
		return d
	}
	if !json.Valid(value) {
		d.AddError("JSON Invalid", key)
		return d
	}
	f[key] = value
	return d
}

func (f fakePrivate) size() int {
	n := 0
	for k, v := range f {
		n += len(k) + len(v)
	}
	return n
}

// policyPrior is a prior as a SONiC policy records it: each bound port's bindings, alike.
func policyPrior(ports int) []byte {
	var b strings.Builder
	b.WriteString(`{"ports":{`)
	for i := range ports {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"Ethernet%d":{"qos_map":{"dscp_to_tc_map":"AZURE","pfc_enable":"3,4","tc_to_queue_map":"AZURE"},`+
			`"queues":{"3":{"scheduler":"scheduler.1","wred_profile":"AZURE_LOSSLESS"}},"pgs":{"0":"ingress_lossy_profile"}}`, i*4)
	}
	b.WriteString("}}")
	return []byte(b.String())
}

func TestPrivateKeepsALargePriorCompressed(t *testing.T) {
	ctx := context.Background()
	raw := policyPrior(32)
	priv := fakePrivate{}
	if d := setPrivate(ctx, priv, privateKeyPrior, raw); d.HasError() {
		t.Fatal(d)
	}
	if _, ok := priv[privateKeyPrior]; ok {
		t.Errorf("the prior is kept uncompressed too")
	}
	if got := priv.size(); got*5 > len(raw) {
		t.Errorf("private state of a 32-port policy's prior is %d bytes for a %d-byte prior: want a fifth or less", got, len(raw))
	}
	got, d := getPrivate(ctx, priv, privateKeyPrior)
	if d.HasError() || string(got) != string(raw) {
		t.Fatalf("read back %q (%v), want %q", got, d, raw)
	}
}

func TestPrivateKeepsASmallPriorAsItIs(t *testing.T) {
	ctx := context.Background()
	raw := []byte(`{"fields":[]}`)
	priv := fakePrivate{gzKey(privateKeyPrior): pack(policyPrior(4))} // an update's earlier, larger prior
	if d := setPrivate(ctx, priv, privateKeyPrior, raw); d.HasError() {
		t.Fatal(d)
	}
	if string(priv[privateKeyPrior]) != string(raw) || len(priv) != 1 {
		t.Errorf("private state %q, want only %s = %s", priv, privateKeyPrior, raw)
	}
	got, _ := getPrivate(ctx, priv, privateKeyPrior)
	if string(got) != string(raw) {
		t.Errorf("read back %q, want %q", got, raw)
	}
}

// A state written before priors were compressed keeps its prior under the plain key.
func TestPrivateReadsAnUncompressedPrior(t *testing.T) {
	raw := policyPrior(2)
	got, d := getPrivate(context.Background(), fakePrivate{privateKeyPrior: raw}, privateKeyPrior)
	if d.HasError() || string(got) != string(raw) {
		t.Fatalf("read %q (%v), want %q", got, d, raw)
	}
	if got, _ := getPrivate(context.Background(), fakePrivate{}, privateKeyPrior); got != nil {
		t.Errorf("no prior read as %q", got)
	}
}

func TestPrivateReportsACorruptPrior(t *testing.T) {
	_, d := getPrivate(context.Background(), fakePrivate{gzKey(privateKeyPrior): []byte(`"bm90IGd6aXA="`)}, privateKeyPrior)
	if !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), "prior.v1.gz") {
		t.Fatalf("diagnostics %v, want an error naming prior.v1.gz", d)
	}
}
