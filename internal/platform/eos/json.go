package eos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ParseRunningConfigJSON reads `show running-config | json`: {"cmds": {"LINE": null |
// {"cmds": {...}, "comments": [...]}, ...}, "comments": [...], "header": [...]}. The tree is
// walked in key order (EOS prints configuration order, and a later line may override an
// earlier one), so it is decoded token by token rather than into a Go map.
func ParseRunningConfigJSON(b []byte) (*Config, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := delim(dec, '{'); err != nil {
		return nil, fmt.Errorf("eos: running-config JSON: %w", err)
	}
	top, err := blockBody(dec)
	if err != nil {
		return nil, fmt.Errorf("eos: running-config JSON: %w", err)
	}
	// Anything after the object is not EOS's output (a second document, a prompt, a truncated
	// or garbled answer): refuse it rather than read the first part. Regression seed:
	// testdata/fuzz/FuzzParseRunningConfigJSON/trailing-garbage.
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("eos: running-config JSON: unexpected data after the top-level object")
	}
	return fromTree(top)
}

// blockBody reads the members of an object whose '{' is consumed, returning its "cmds" lines;
// other members (comments, header) are skipped.
func blockBody(dec *json.Decoder) ([]*node, error) {
	var out []*node
	for dec.More() {
		key, err := memberName(dec)
		if err != nil {
			return nil, err
		}
		if key != "cmds" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if out, err = cmds(dec); err != nil {
			return nil, err
		}
	}
	return out, delim(dec, '}')
}

// cmds reads {"LINE": null | {block}, ...} into nodes, in order.
func cmds(dec *json.Decoder) ([]*node, error) {
	if err := delim(dec, '{'); err != nil {
		return nil, err
	}
	var out []*node
	for dec.More() {
		line, err := memberName(dec)
		if err != nil {
			return nil, err
		}
		n := &node{Line: line}
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t {
		case nil:
		case json.Delim('{'):
			if n.Children, err = blockBody(dec); err != nil {
				return nil, fmt.Errorf("%q: %w", line, err)
			}
		default:
			return nil, fmt.Errorf("%q: want null or a block, got %v", line, t)
		}
		out = append(out, n)
	}
	return out, delim(dec, '}')
}

func memberName(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", errors.New("want an object key")
	}
	return s, nil
}

func delim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != want {
		return fmt.Errorf("want %q, got %v", want, t)
	}
	return nil
}
