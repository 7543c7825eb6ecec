package ietfjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	v, err := Decode([]byte(`{"n": 18446744073709551615}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := v.(map[string]any)["n"]; n != json.Number("18446744073709551615") {
		t.Errorf("a uint64 leaf reads %v (%T), want all its digits", n, n)
	}
	for _, bad := range []string{`{}0`, `{} x`, `{}{}`, `00`, ``, `{`} {
		if v, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) = %v, want an error", bad, v)
		}
	}
}

func TestValue(t *testing.T) {
	tv, err := Value(map[string]any{"b": 1, "a": "x"}, "sonic")
	if err != nil || string(tv.GetJsonIetfVal()) != `{"a":"x","b":1}` {
		t.Errorf("Value = %s, %v", tv.GetJsonIetfVal(), err)
	}
	if _, err := Value(func() {}, "openconfig"); err == nil || !strings.HasPrefix(err.Error(), "openconfig: encode JSON_IETF: ") {
		t.Errorf("an unencodable value: %v", err)
	}
}
