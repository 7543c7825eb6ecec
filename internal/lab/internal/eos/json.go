package eos

// `show running-config | json`: EOS's structured form of the running-config, the same tree
// as the text, each line a key of its parent's "cmds" in configuration order (null for a
// plain line, {"cmds": {...}, "comments": []} for a line that enters a mode), indented 4
// spaces per level with one key per line, as EOS prints it.

import (
	"bytes"
	"encoding/json"
	"strings"
)

func (sw *Switch) renderJSON(c *eosConfig) string {
	var top []*eosNode
	for _, g := range sw.runningGroups(c) {
		top = append(top, g...)
	}
	top = append(top, &eosNode{line: "end"})
	var b strings.Builder
	b.WriteString("{\n    \"cmds\": {\n")
	writeJSONCmds(&b, top, 2)
	b.WriteString("    },\n    \"comments\": [],\n    \"header\": [\n")
	header := sw.eosHeader(c)
	for i, h := range header {
		b.WriteString("        " + jsonString(h+"\n") + jsonComma(i, len(header)) + "\n")
	}
	b.WriteString("    ]\n}\n")
	return b.String()
}

// writeJSONCmds writes the members of a "cmds" object, depth levels deep.
func writeJSONCmds(b *strings.Builder, nodes []*eosNode, depth int) {
	indent := strings.Repeat("    ", depth)
	for i, n := range nodes {
		comma := jsonComma(i, len(nodes))
		if !n.block {
			b.WriteString(indent + jsonString(n.line) + ": null" + comma + "\n")
			continue
		}
		b.WriteString(indent + jsonString(n.line) + ": {\n")
		if len(n.kids) == 0 {
			b.WriteString(indent + "    \"cmds\": {},\n")
		} else {
			b.WriteString(indent + "    \"cmds\": {\n")
			writeJSONCmds(b, n.kids, depth+2)
			b.WriteString(indent + "    },\n")
		}
		b.WriteString(indent + "    \"comments\": []\n" + indent + "}" + comma + "\n")
	}
}

func jsonComma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

// jsonString quotes s as JSON without escaping <, > and & (EOS does not).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
