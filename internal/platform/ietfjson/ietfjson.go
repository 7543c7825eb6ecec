// Package ietfjson reads and writes the JSON_IETF values the gNMI platforms (openconfig,
// sonic) exchange with a target: the one place that decides how a value's numbers are kept
// and what counts as one value.
package ietfjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// Decode reads the one JSON value in b. Numbers stay json.Number, so a uint64 leaf keeps all
// its digits. Data after the value ("{}0", two documents, `{} x`) is refused: such a value is
// garbled, not a target's answer (regression seeds: testdata/fuzz/*/trailing-data in both
// platforms).
func Decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// Value encodes v as a JSON_IETF TypedValue (encoding/json sorts map keys, so a value renders
// the same every time). An error begins with platform, the package asking.
func Value(v any, platform string) (*gpb.TypedValue, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: encode JSON_IETF: %w", platform, err)
	}
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b}}, nil
}
