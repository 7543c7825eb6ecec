package provider

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Private state holds what a resource recorded before it changed a device (its prior), which
// Terraform keeps in the state file beside the attributes. Terraform writes the whole state
// again after every resource an apply or destroy changes, so its size is paid once per resource
// per write: at the bench's default size the priors were two thirds of the state (a policy's
// prior repeats each bound port's bindings, 38 kB for 32 ports), and roce's destroy cost
// Terraform itself about twice the CPU the no-op provider's did (DESIGN.md, Performance).
// A prior that gzip makes smaller is kept compressed under the key's ".gz" twin: a JSON string
// of the base64 of its gzip (private values must be JSON); a small one stays as it is. Either
// is read, so states written before compression still work.

type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateSetter is a response's private state (Create and Update alike).
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// gzKey is the key under which key's value is kept compressed.
func gzKey(key string) string { return key + ".gz" }

// getPrivate reads the value set under key by setPrivate (nil when none is).
func getPrivate(ctx context.Context, priv privateGetter, key string) ([]byte, diag.Diagnostics) {
	packed, diags := priv.GetKey(ctx, gzKey(key))
	if diags.HasError() {
		return nil, diags
	}
	if len(packed) == 0 {
		raw, d := priv.GetKey(ctx, key)
		return raw, append(diags, d...)
	}
	raw, err := unpack(packed)
	if err != nil {
		diags.AddError("Private state is unreadable", "The resource's record of the device's values from "+
			"before it changed them ("+gzKey(key)+") cannot be read: "+err.Error())
	}
	return raw, diags
}

// setPrivate keeps raw (JSON, or nil to remove it) under key, compressed when that is smaller.
func setPrivate(ctx context.Context, priv privateSetter, key string, raw []byte) diag.Diagnostics {
	packed := pack(raw)
	var diags diag.Diagnostics
	if packed != nil && len(packed) < len(raw) {
		diags.Append(priv.SetKey(ctx, gzKey(key), packed)...)
		diags.Append(priv.SetKey(ctx, key, nil)...)
		return diags
	}
	diags.Append(priv.SetKey(ctx, key, raw)...)
	diags.Append(priv.SetKey(ctx, gzKey(key), nil)...)
	return diags
}

// pack is raw gzipped, as a JSON string of its base64; nil for an empty raw.
func pack(raw []byte) []byte {
	if len(raw) == 0 {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	_, _ = zw.Write(raw)                                     // a bytes.Buffer does not fail
	_ = zw.Close()
	packed, _ := json.Marshal(base64.StdEncoding.EncodeToString(buf.Bytes())) // a string marshals
	return packed
}

func unpack(packed []byte) ([]byte, error) {
	var s string
	if err := json.Unmarshal(packed, &s); err != nil {
		return nil, err
	}
	z, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
