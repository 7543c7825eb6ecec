package eos

// `show` on the `eos` switch, and the output filters after `|`.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

// cmdShow: show version|hostname|running-config|startup-config|configuration sessions|qos
// maps|qos interfaces ... ecn counters queue|interfaces ... counters discards, then any number
// of `| FILTER`.
func cmdShow(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if p := slices.Index(a.Words[a.Pos:], "|"); p >= 0 {
		a.End = a.Pos + p
	}
	what, err := a.Kw("version", "hostname", "running-config", "startup-config", "configuration", "qos", "lldp", "interfaces")
	if err != nil {
		return err
	}
	if !x.privileged() && (what == "running-config" || what == "startup-config" || what == "configuration") {
		return errPrivileged()
	}
	text, jsonText, err := x.showText(what, a)
	if err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	for a.End < len(a.Words) {
		a.Pos = a.End + 1
		a.End = len(a.Words)
		if p := slices.Index(a.Words[a.Pos:], "|"); p >= 0 {
			a.End = a.Pos + p
		}
		if text, err = filter(a, text, jsonText); err != nil {
			return err
		}
		jsonText = "" // json of a filtered text is not what EOS gives
	}
	x.printf("%s", text)
	return nil
}

// showText is the output of one show command; jsonText is its `| json` form, if it has one.
func (x *eosCtx) showText(what string, a *cliswitch.Args) (text, jsonText string, err *cliswitch.Refusal) {
	sw := x.sw
	switch what {
	case "version":
		return sw.versionText(), sw.versionJSON(), nil
	case "hostname":
		h := sw.running.hostname
		return fmt.Sprintf("Hostname: %s\nFQDN:     %s\n", h, h), fmt.Sprintf("{\n    \"fqdn\": %q,\n    \"hostname\": %q\n}\n", h, h), nil
	case "lldp":
		if err := a.Keywords("neighbors", "detail"); err != nil {
			return "", "", err
		}
		return sw.lldpNeighborsDetail()
	case "running-config":
		return x.showRunning(a)
	case "startup-config":
		return sw.startup, "", nil
	case "configuration":
		if _, err := a.Kw("sessions"); err != nil {
			return "", "", err
		}
		return sw.sessionsTable(x.t), "", nil
	case "interfaces":
		return sw.discards(a)
	}
	if k, err := a.Kw("maps", "interfaces"); err != nil {
		return "", "", err
	} else if k == "interfaces" {
		return sw.ecnCounters(a)
	}
	return qosMapsText(sw.running), "", nil
}

// showRunning: `show running-config [interfaces IF | section REGEX]`; in a session it shows
// the session's candidate.
func (x *eosCtx) showRunning(a *cliswitch.Args) (string, string, *cliswitch.Refusal) {
	c := x.t.target()
	what, err := a.OptKw("interfaces", "section")
	if err != nil {
		return "", "", err
	}
	switch what {
	case "interfaces":
		port, err := argEthernet(a, len(c.ifaces))
		if err != nil {
			return "", "", err
		}
		return renderInterface(c, port), "", nil
	case "section":
		re, err := regexArg(a)
		if err != nil {
			return "", "", err
		}
		return sections(x.sw.renderRunning(c), re), "", nil
	}
	return x.sw.renderRunning(c), x.sw.renderJSON(c), nil
}

func regexArg(a *cliswitch.Args) (*regexp.Regexp, *cliswitch.Refusal) {
	at := a.Pos
	s, err := a.Rest()
	if err != nil {
		return nil, err
	}
	re, reErr := regexp.Compile(s)
	if reErr != nil {
		return nil, cliswitch.ErrInvalid(at, a.Words[at])
	}
	return re, nil
}

// msgUnconverted is EOS's answer over SSH to `| json` after a command without a structured form:
// the refusal, then the eAPI error object (aristanetworks/vane vane/device_interface.py,
// error_responses; eos-switch.md, "Exec commands").
const msgUnconverted = "% This is an unconverted command\n{\n    \"errors\": [\n        \"This is an unconverted command\"\n    ]\n}"

// filter applies `json`, `section RE`, `include RE`, `exclude RE`, `begin RE` or `no-more`.
func filter(a *cliswitch.Args, text, jsonText string) (string, *cliswitch.Refusal) {
	at := a.Pos
	f, err := a.Kw("json", "section", "include", "exclude", "begin", "no-more")
	if err != nil {
		return "", err
	}
	if f == "json" || f == "no-more" {
		if err := a.Done(); err != nil {
			return "", err
		}
		if f == "no-more" {
			return text, nil // nothing is ever paginated
		}
		if jsonText == "" {
			return "", &cliswitch.Refusal{Msg: msgUnconverted, At: at}
		}
		return jsonText, nil
	}
	re, err := regexArg(a)
	if err != nil {
		return "", err
	}
	if f == "section" {
		return sections(text, re), nil
	}
	var b strings.Builder
	begun := false
	for _, l := range strings.SplitAfter(text, "\n") {
		m := l != "" && re.MatchString(strings.TrimSuffix(l, "\n"))
		begun = begun || (f == "begin" && m)
		if (f == "include" && m) || (f == "exclude" && !m && l != "") || begun {
			b.WriteString(l)
		}
	}
	return b.String(), nil
}

// sections keeps the top-level blocks whose first line matches re, with their bodies.
func sections(text string, re *regexp.Regexp) string {
	var b strings.Builder
	keep := false
	for _, l := range strings.SplitAfter(text, "\n") {
		line := strings.TrimSuffix(l, "\n")
		switch {
		case line == "":
		case !strings.HasPrefix(line, " "):
			keep = !strings.HasPrefix(line, "!") && re.MatchString(line)
			if keep {
				b.WriteString(l)
			}
		case keep:
			b.WriteString(l)
		}
	}
	return b.String()
}

// versionText is `show version` in the layout of EOS 4.31's captures (eos-switch.md, "Exec
// commands"): the model's hardware version, image format version and image optimization.
func (sw *Switch) versionText() string {
	hw := sw.model.hardwareRevision
	if hw != "" {
		hw = " " + hw
	}
	return fmt.Sprintf(`Arista %s
Hardware version:%s
Serial number: %s
Hardware MAC address: %s
System MAC address: %s

Software image version: %s
Architecture: x86_64
Internal build version: %s
Internal build ID: %s
Image format version: %s
Image optimization: %s

Uptime: %s
Total memory: 4002360 kB
Free memory: 2440816 kB
`, sw.model.name, hw, sw.serial, sw.mac, sw.mac, eosVersion, eosInternalVersion, eosInternalBuildID,
		sw.model.imageFormat, sw.model.imageOptimization, uptimeText(time.Since(sw.started)))
}

// uptimeText is show version's Uptime as EOS 4.28 and later print it: from the largest unit that
// is not zero down to minutes, "1 week, 0 days, 1 hour and 30 minutes", "57 minutes".
func uptimeText(up time.Duration) string {
	m := int(up.Minutes())
	units := []struct {
		n    int
		name string
	}{{m / (7 * 24 * 60), "week"}, {m / (24 * 60) % 7, "day"}, {m / 60 % 24, "hour"}, {m % 60, "minute"}}
	for len(units) > 1 && units[0].n == 0 {
		units = units[1:]
	}
	parts := make([]string, len(units))
	for i, u := range units {
		parts[i] = fmt.Sprintf("%d %s", u.n, u.name)
		if u.n != 1 {
			parts[i] += "s"
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// versionJSON is `show version | json`: the keys of EOS 4.31 (a DCS-7280CR3-32P4-F capture in
// aristanetworks/anta tests/units/test_device.py; vEOS-lab's in ansible-collections/arista.eos
// issue 533), in that order; MAC addresses in colon form as eAPI prints them.
func (sw *Switch) versionJSON() string {
	mac := strings.ReplaceAll(sw.mac, ".", "")
	var pairs []string
	for i := 0; i < len(mac); i += 2 {
		pairs = append(pairs, mac[i:i+2])
	}
	colon := strings.Join(pairs, ":")
	up := time.Since(sw.started).Seconds()
	fields := []string{
		`"mfgName": "Arista"`, `"modelName": ` + jsonString(sw.model.name), `"hardwareRevision": ` + jsonString(sw.model.hardwareRevision),
		`"serialNumber": ` + jsonString(sw.serial), `"systemMacAddress": ` + jsonString(colon), `"hwMacAddress": ` + jsonString(colon),
		`"configMacAddress": "00:00:00:00:00:00"`, `"version": ` + jsonString(eosVersion), `"architecture": "x86_64"`,
		`"internalVersion": ` + jsonString(eosInternalVersion), `"internalBuildId": ` + jsonString(eosInternalBuildID),
		`"imageFormatVersion": ` + jsonString(sw.model.imageFormat), `"imageOptimization": ` + jsonString(sw.model.imageOptimization),
		fmt.Sprintf(`"bootupTimestamp": %.2f`, float64(sw.started.UnixMilli())/1000), fmt.Sprintf(`"uptime": %.2f`, up),
		`"memTotal": 4002360`, `"memFree": 2440816`, `"isIntlVersion": false`,
	}
	return "{\n    " + strings.Join(fields, ",\n    ") + "\n}\n"
}

// qosMapsText is `show qos maps`: the effective maps, traffic-class-drop-precedence pairs
// (drop precedence 1 unless configured).
func qosMapsText(c *eosConfig) string {
	var b strings.Builder
	row := func(label string, cells []string) {
		line := fmt.Sprintf("  %-9s", label)
		for _, v := range cells {
			line += fmt.Sprintf(" %4s", v)
		}
		b.WriteString(line + "\n")
	}
	rule := "  " + strings.Repeat("-", 9+5*8) + "\n"
	index := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	b.WriteString("Number of Traffic Classes supported: 8\nNumber of Transmit Queues supported: 8\n\n")
	b.WriteString("Cos Tc-DropPrecedence Map:\n")
	row("cos:", index(8))
	b.WriteString(rule)
	var cells []string
	for _, tc := range c.cosTC {
		cells = append(cells, fmt.Sprintf("%d-1", tc))
	}
	row("tc-dp:", cells)
	b.WriteString("\nDscp Tc-DropPrecedence Map:\n")
	row("d1 : d2", index(10))
	b.WriteString("  " + strings.Repeat("-", 9+5*10) + "\n")
	for r := range 7 {
		cells = cells[:0]
		for d := r * 10; d < min(r*10+10, 64); d++ {
			dp := c.dscpDP[d]
			if dp == cliswitch.NoValue {
				dp = 1
			}
			cells = append(cells, fmt.Sprintf("%d-%d", c.dscpTC[d], dp))
		}
		row(fmt.Sprintf("%4d :", r), cells)
	}
	b.WriteString("\nTc - Tx-Queue Map:\n")
	row("tc:", index(8))
	b.WriteString(rule)
	cells = cells[:0]
	for _, q := range c.tcQueue {
		cells = append(cells, strconv.Itoa(q))
	}
	row("tx-queue:", cells)
	return b.String()
}
