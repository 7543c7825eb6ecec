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
			return "", &cliswitch.Refusal{Msg: "% This is an unconverted command", At: at}
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

// versionText is `show version` in the layout of real captures (a DCS-7060CX-32S-F at 4.25.1F in
// arista-netdevops-community/automation_and_telemetry_demo; vEOS-lab ones), with the model's
// hardware version and image optimization (Sand-4GB, Strata-4GB: the eantc2024 and avdsnapshot
// reports; vEOS-lab prints None).
func (sw *Switch) versionText() string {
	up := time.Since(sw.started)
	days := int(up.Hours()) / 24
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
Internal build version: %s-35442176.4312F
Internal build ID: 6fcb426e-70a7-4c37-a91f-8ad6a5e0a4e6
Image format version: 1.0
Image optimization: %s

Uptime: %d weeks, %d days, %d hours and %d minutes
Total memory: 4002360 kB
Free memory: 2440816 kB
`, sw.model.name, hw, sw.serial, sw.mac, sw.mac, eosVersion, eosVersion, sw.model.imageOptimization,
		days/7, days%7, int(up.Hours())%24, int(up.Minutes())%60)
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
		`"internalVersion": ` + jsonString(eosVersion+"-35442176.4312F"), `"internalBuildId": "6fcb426e-70a7-4c37-a91f-8ad6a5e0a4e6"`,
		`"imageFormatVersion": "1.0"`, `"imageOptimization": ` + jsonString(sw.model.imageOptimization),
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
