package mlx5

// iproute2's dcb (dcb-dialect: mlx5-host.md, "dcb"), as iproute2 v6.15.0's dcb/dcb.c,
// dcb_app.c, dcb_pfc.c, dcb_ets.c, dcb_buffer.c, dcb_dcbx.c and dcb_apptrust.c print and parse,
// over the same port state mlnx_qos talks to (nic.go): the kernel's dcbnl
// (net/dcb/dcbnl.c) and mlx5's callbacks (en_dcbnl.c, Linux 6.6). Errors are the tool's
// perror texts: dcbnl attaches no extended ack, so a kernel refusal prints
// "Attribute write: <strerror>" and never "Error: ...".

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

// dcbExit ends a dcb run with a status (exit(-1) of invarg and incomplete_command is 255).
type dcbExit int

type dcbRun struct {
	e       *sh.Env
	h       *Host
	json    bool
	numeric bool
	out     strings.Builder // stdout, written at exit as the tool's buffered stdout is
}

func (h *Host) cmdDCB(e *sh.Env, args []string) (status int) {
	d := &dcbRun{e: e, h: h}
	defer func() {
		exitStatus[dcbExit](recover(), &status)
		if d.json {
			d.out.WriteString("\n") // jsonw_destroy in dcb_fini
		}
		_, _ = io.WriteString(e.Stdout, d.out.String())
	}()
	return d.main(args[1:])
}

func (d *dcbRun) errf(format string, args ...any) { fmt.Fprintf(d.e.Stderr, format, args...) }

const dcbHelp = "Usage: dcb [ OPTIONS ] OBJECT { COMMAND | help }\n" +
	"       dcb [ -f | --force ] { -b | --batch } filename [ -n | --netns ] netnsname\n" +
	"where  OBJECT := { app | apptrust | buffer | dcbx | ets | maxrate | pfc | rewr }\n" +
	"       OPTIONS := [ -V | --Version | -i | --iec | -j | --json\n" +
	"                  | -N | --Numeric | -p | --pretty\n" +
	"                  | -s | --statistics | -v | --verbose]\n"

// main is dcb.c main and dcb_cmd: GNU getopt permutes, so options may stand anywhere.
func (d *dcbRun) main(args []string) int {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			words = append(words, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			long := map[string]byte{"--json": 'j', "--Numeric": 'N', "--Version": 'V', "--help": 'h', "--iec": 'i',
				"--force": 'f', "--pretty": 'p', "--statistics": 's', "--batch": 'b', "--netns": 'n'}
			f, ok := long[a]
			if !ok {
				d.errf("dcb: unrecognized option '%s'\nUnknown option.\n%s", a, dcbHelp)
				return 1
			}
			if st, done := d.flag(f); done {
				return st
			}
		case len(a) > 1 && a[0] == '-':
			for _, f := range []byte(a[1:]) {
				if !strings.ContainsRune("bfhijnpsvNV", rune(f)) {
					d.errf("dcb: invalid option -- '%c'\nUnknown option.\n%s", f, dcbHelp)
					return 1
				}
				if st, done := d.flag(f); done {
					return st
				}
			}
		default:
			words = append(words, a)
		}
	}
	if len(words) == 0 || prefixOf(words[0], "help") {
		d.errf("%s", dcbHelp)
		return 0
	}
	obj, rest := words[0], words[1:]
	var err int
	switch {
	case prefixOf(obj, "app"):
		err = d.app(rest)
	case obj == "apptrust":
		err = d.apptrust(rest)
	case obj == "rewr", prefixOf(obj, "maxrate"):
		d.errf("lab: dcb %s is not emulated\n", obj)
		return 2
	case prefixOf(obj, "buffer"):
		err = d.buffer(rest)
	case prefixOf(obj, "dcbx"):
		err = d.dcbx(rest)
	case prefixOf(obj, "ets"):
		err = d.ets(rest)
	case prefixOf(obj, "pfc"):
		err = d.pfc(rest)
	default:
		d.errf("Object \"%s\" is unknown\n", obj)
		return 1
	}
	if err != 0 {
		return 1
	}
	return 0
}

// flag handles one option letter; done means the run ends with st.
func (d *dcbRun) flag(f byte) (st int, done bool) {
	switch f {
	case 'j':
		d.json = true
	case 'N':
		d.numeric = true
	case 'i', 'f': // maxrate's units, batch's -f: nothing here uses them
	case 'V':
		d.out.WriteString("dcb utility, iproute2-6.15.0\n")
		return 0, true
	case 'h':
		d.errf("%s", dcbHelp)
		return 0, true
	case 'v': // in the optstring, but no case handles it
		d.errf("Unknown option.\n%s", dcbHelp)
		return 1, true
	default: // -p, -s, -b, -n: not emulated (the provider uses none)
		d.errf("lab: dcb -%c is not emulated\n", f)
		return 2, true
	}
	return 0, false
}

// prefixOf is iproute2's prefixOf(prefix, string) == 0: a non-empty prefix.
func prefixOf(prefix, word string) bool { return prefix != "" && strings.HasPrefix(word, prefix) }

// needValue ends dcb as its NEXT_ARG does when a keyword (args[0]) has no value after it.
func (d *dcbRun) needValue(args []string) {
	if len(args) < 2 {
		d.errf("Command line is not complete. Try option \"help\"\n")
		panic(dcbExit(255))
	}
}

// parseDev is dcb_cmd_parse_dev: the rest after "dev DEV", or done with a status.
func (d *dcbRun) parseDev(args []string, help string) (dev string, rest []string, st int, done bool) {
	switch {
	case len(args) == 0 || prefixOf(args[0], "help"):
		d.errf("%s", help)
		return "", nil, 0, true
	case prefixOf(args[0], "dev"):
		d.needValue(args)
		dev = args[1]
		if dev == "" || len(dev) >= 16 || strings.ContainsAny(dev, "/ \t\n") {
			d.errf("Error: argument \"%s\" is wrong: not a valid ifname\n", dev)
			panic(dcbExit(255))
		}
		return dev, args[2:], 0, false
	}
	d.errf("Expected `dev DEV', not `%s'%s", args[0], help)
	return "", nil, 1, true
}

// port resolves DEV as dcb_doit does, for a read ("Attribute read") or a write: a write
// needs CAP_NET_ADMIN (checked first); an unknown netdev is ENODEV; a netdev without dcbnl ops
// (lo, a VF, a representor: mlx5 installs them only with vport_group_manager and qos) is
// EOPNOTSUPP. Callers hold h.mu.
func (d *dcbRun) port(dev string, write bool) (*nicPort, bool) {
	what := "Attribute read"
	if write {
		what = "Attribute write"
		if !d.e.Root {
			d.errf("%s: %s\n", what, sh.EPERM)
			return nil, false
		}
	}
	if p := d.h.port(dev); p != nil {
		return p, true
	}
	if _, err := d.h.fs.Lookup("/sys/class/net/"+dev, true); err == nil {
		d.errf("%s: %s\n", what, sh.EOPNOTSUPP)
	} else {
		d.errf("%s: %s\n", what, sh.ENODEV)
	}
	return nil, false
}

// get is the GET a dcb command starts with (dcb_get_attribute): fn reads dev's port under
// h.mu; a dev that port refuses (it prints why) ends the command with 1.
func (d *dcbRun) get(dev string, fn func(*nicPort) int) int {
	d.h.mu.Lock()
	defer d.h.mu.Unlock()
	p, ok := d.port(dev, false)
	if !ok {
		return 1
	}
	return fn(p)
}

// kernelErr prints a refused write as the tool does.
func (d *dcbRun) kernelErr(err error) int {
	d.errf("Attribute write: %s\n", err)
	return 1
}

// mapping is parse_mapping_gen: KEY:VALUE words until one without a colon. key parses KEY
// (-1 for all), set handles one mapping; a failure prints "Invalid <what> KEY" (the colon is
// cut off the word by then).
func (d *dcbRun) mapping(args []string, key func(string) (int, bool), set func(k int, v string) bool, what string) ([]string, bool) {
	for len(args) > 0 {
		k, v, ok := strings.Cut(args[0], ":")
		if !ok {
			break
		}
		n, good := key(k)
		if !good || !set(n, v) {
			d.errf("Invalid %s %s\n", what, k)
			return args, false
		}
		args = args[1:]
	}
	return args, true
}

// numAll is parse_mapping_num_all: "all" (by prefix) or get_u32 in C's base 0.
func numAll(s string) (int, bool) {
	if prefixOf(s, "all") {
		return -1, true
	}
	v, err := strconv.ParseUint(s, 0, 32)
	return int(v), err == nil
}

// inRange is dcb_parse_mapping's checks and its "all" expansion over 0..maxKey.
func (d *dcbRun) inRange(whatKey string, key, maxKey int, whatVal string, val, maxVal int, set func(k, v int)) bool {
	if key != -1 && key > maxKey {
		d.errf("In %s:%s mapping, %s is expected to be 0..%d\n", whatKey, whatVal, whatKey, maxKey)
		return false
	}
	if maxVal >= 0 && val > maxVal {
		d.errf("In %s:%s mapping, %s is expected to be 0..%d\n", whatKey, whatVal, whatVal, maxVal)
		return false
	}
	if key == -1 {
		for k := 0; k <= maxKey; k++ {
			set(k, val)
		}
	} else {
		set(key, val)
	}
	return true
}

// u8 is get_u8 in base 0.
func u8(s string) (int, bool) {
	v, err := strconv.ParseUint(s, 0, 8)
	return int(v), err == nil
}

// onOff is parse_on_off: exactly "on" or "off".
func (d *dcbRun) onOff(what, v string) (bool, bool) {
	switch v {
	case "on":
		return true, true
	case "off":
		return false, true
	}
	d.errf("Error: argument of \"%s\" must be one of \"off\", \"on\", not \"%s\"\n", what, v)
	return false, false
}

// ---- output (json_print.c: text tokens each followed by a space; JSON without spaces) ----

type dcbPrinter struct {
	d     *dcbRun
	first []bool // per open JSON container: nothing written in it yet
}

func (d *dcbRun) printer() *dcbPrinter {
	p := &dcbPrinter{d: d}
	if d.json {
		d.out.WriteString("{")
		p.first = []bool{true}
	}
	return p
}

func (p *dcbPrinter) sep() {
	if n := len(p.first); n > 0 {
		if !p.first[n-1] {
			p.d.out.WriteString(",")
		}
		p.first[n-1] = false
	}
}

func (p *dcbPrinter) key(k string) {
	p.sep()
	if k != "" {
		p.d.out.WriteString(strconv.Quote(k) + ":")
	}
}

// field is one named value: its JSON form and its text form (text "" prints nothing).
func (p *dcbPrinter) field(k, js, text string) {
	if p.d.json {
		p.key(k)
		p.d.out.WriteString(js)
		return
	}
	p.d.out.WriteString(text)
}

// text is output of the text form only.
func (p *dcbPrinter) text(s string) {
	if !p.d.json {
		p.d.out.WriteString(s)
	}
}

func (p *dcbPrinter) open(k string) {
	if p.d.json {
		p.key(k)
		p.d.out.WriteString("[")
		p.first = append(p.first, true)
	}
}

func (p *dcbPrinter) close() {
	if p.d.json {
		p.d.out.WriteString("]")
		p.first = p.first[:len(p.first)-1]
	}
}

func (p *dcbPrinter) nl() {
	if !p.d.json {
		p.d.out.WriteString("\n")
	}
}

func (p *dcbPrinter) end() {
	if p.d.json {
		p.d.out.WriteString("}")
	}
}

func onOffText(b bool) string { return map[bool]string{true: "on", false: "off"}[b] }

// array is dcb_print_named_array: "name i:v ... " or "json_name":[v,...].
func (p *dcbPrinter) array(jsonName, name string, js, text func(i int) string) {
	p.open(jsonName)
	p.text(name + " ")
	for i := range 8 {
		p.field("", js(i), strconv.Itoa(i)+":"+text(i)+" ")
	}
	p.close()
}

func (p *dcbPrinter) u8s(jsonName, name string, v [8]uint8) {
	s := func(i int) string { return strconv.Itoa(int(v[i])) }
	p.array(jsonName, name, s, s)
}

func (p *dcbPrinter) bools(jsonName, name string, v [8]bool) {
	p.array(jsonName, name, func(i int) string { return strconv.FormatBool(v[i]) }, func(i int) string { return onOffText(v[i]) })
}

// ---- app ----

const dcbAppHelpShow = "Usage: dcb app { show | flush } dev STRING\n" +
	"           [ default-prio ]\n" +
	"           [ ethtype-prio ]\n" +
	"           [ stream-port-prio ]\n" +
	"           [ dgram-port-prio ]\n" +
	"           [ port-prio ]\n" +
	"           [ dscp-prio ]\n" +
	"           [ pcp-prio ]\n" +
	"\n"

const dcbAppHelpAdd = "Usage: dcb app { add | del | replace } dev STRING\n" +
	"           [ default-prio PRIO ]\n" +
	"           [ ethtype-prio ET:PRIO ]\n" +
	"           [ stream-port-prio PORT:PRIO ]\n" +
	"           [ dgram-port-prio PORT:PRIO ]\n" +
	"           [ port-prio PORT:PRIO ]\n" +
	"           [ dscp-prio INTEGER:PRIO ]\n" +
	"           [ pcp-prio PCP:PRIO ]\n" +
	"\n" +
	" where PRIO := { 0 .. 7 }\n" +
	"       ET := { 0x600 .. 0xffff }\n" +
	"       PORT := { 1 .. 65535 }\n" +
	"       DSCP := { 0 .. 63 }\n" +
	"       PCP := { 0(nd/de) .. 7(nd/de) }\n" +
	"\n"

func (d *dcbRun) app(args []string) int {
	if len(args) == 0 || prefixOf(args[0], "help") {
		d.errf("Usage: dcb app help\n\n%s%s", dcbAppHelpShow, dcbAppHelpAdd)
		return 0
	}
	cmds := []struct {
		name string
		help string
		run  func(dev string, rest []string) int
	}{
		{"show", dcbAppHelpShow, d.appShow}, {"flush", dcbAppHelpShow, d.appFlush},
		{"add", dcbAppHelpAdd, func(dev string, rest []string) int { return d.appAddDel(dev, rest, true) }},
		{"del", dcbAppHelpAdd, func(dev string, rest []string) int { return d.appAddDel(dev, rest, false) }},
		{"replace", dcbAppHelpAdd, d.appReplace},
	}
	for _, c := range cmds {
		if prefixOf(args[0], c.name) {
			dev, rest, st, done := d.parseDev(args[1:], c.help)
			if done {
				return st
			}
			return c.run(dev, rest)
		}
	}
	d.errf("What is \"%s\"?\n", args[0])
	d.errf("Usage: dcb app help\n\n%s%s", dcbAppHelpShow, dcbAppHelpAdd)
	return 1
}

// appTable is the GET's app table (the kernel's dcb_app list: on mlx5 DSCP entries only),
// sorted by protocol then priority as dcb_app_table_sort does.
func appTable(p *nicPort) []dcbApp {
	apps := slices.Clone(p.apps)
	slices.SortFunc(apps, func(a, b dcbApp) int {
		if a.dscp != b.dscp {
			return int(a.dscp) - int(b.dscp)
		}
		return int(a.prio) - int(b.prio)
	})
	return apps
}

func (d *dcbRun) appShow(dev string, args []string) int {
	return d.get(dev, func(port *nicPort) int {
		apps := appTable(port)
		p := d.printer()
		defer p.end()
		groups := []string{"ethtype-prio", "default-prio", "dscp-prio", "stream-port-prio", "dgram-port-prio", "port-prio", "pcp-prio"}
		if len(args) > 0 {
			groups = nil
			for _, a := range args {
				if prefixOf(a, "help") {
					d.errf("%s", dcbAppHelpShow)
					return 0
				}
				g := keyword(a, "ethtype-prio", "dscp-prio", "stream-port-prio", "dgram-port-prio", "port-prio", "default-prio")
				if a == "pcp-prio" {
					g = a
				}
				if g == "" {
					d.errf("What is \"%s\"?\n%s", a, dcbAppHelpShow)
					return 1
				}
				groups = append(groups, g)
			}
		}
		for _, g := range groups {
			if g != "dscp-prio" || len(apps) == 0 {
				continue // mlx5 holds DSCP entries only: the other groups are empty and print nothing
			}
			p.open("dscp_prio")
			p.text("dscp-prio ")
			for _, a := range apps {
				// An entry: pid, ":prio" and a " " that JSON keeps as a string (dcb_app_print_filtered,
				// iproute2 >= 6.5).
				p.open("")
				p.field("", strconv.Itoa(int(a.dscp)), d.dscpName(a.dscp))
				p.field("", strconv.Itoa(int(a.prio)), ":"+strconv.Itoa(int(a.prio)))
				p.field("", `" "`, " ")
				p.close()
			}
			p.close()
			p.nl()
		}
		return 0
	})
}

// dscpNames are /etc/iproute2/rt_dsfield's names by DSCP. DSCP 0 prints "0": the table's
// static [0] = "0" answers before the file is read (rt_names.c).
var dscpNames = map[uint8]string{8: "CS1", 10: "AF11", 12: "AF12", 14: "AF13", 16: "CS2", 18: "AF21", 20: "AF22", 22: "AF23",
	24: "CS3", 26: "AF31", 28: "AF32", 30: "AF33", 32: "CS4", 34: "AF41", 36: "AF42", 38: "AF43", 40: "CS5", 46: "EF", 48: "CS6", 56: "CS7"}

func (d *dcbRun) dscpName(dscp uint8) string {
	if n, ok := dscpNames[dscp]; ok && !d.numeric {
		return n
	}
	return strconv.Itoa(int(dscp))
}

// dscpKey is dcb_app_parse_dscp: a number (or all), else an rt_dsfield name or a hex ToS
// byte, which must not use the ECN bits.
func (d *dcbRun) dscpKey(s string) (int, bool) {
	if v, ok := numAll(s); ok {
		return v, true
	}
	tos := -1
	for dscp, n := range dscpNames {
		if n == s {
			tos = int(dscp) << 2
		}
	}
	if s == "default" {
		tos = 0
	}
	if tos < 0 {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil || v > 255 {
			return 0, false
		}
		tos = int(v)
	}
	if tos&3 != 0 {
		d.errf("The values `%s' uses non-DSCP bits.\n", s)
		return 0, false
	}
	return tos >> 2, true
}

// parseApps is dcb_cmd_app_parse_add_del for dscp-prio; the other selectors (which mlx5
// refuses with EINVAL) are not emulated.
func (d *dcbRun) parseApps(args []string) ([]dcbApp, int, bool) {
	var apps []dcbApp
	if len(args) == 0 {
		d.errf("%s", dcbAppHelpAdd)
		return nil, 0, false
	}
	for len(args) > 0 {
		switch {
		case prefixOf(args[0], "help"):
			d.errf("%s", dcbAppHelpAdd)
			return nil, 0, false
		case prefixOf(args[0], "ethtype-prio"), prefixOf(args[0], "default-prio"), prefixOf(args[0], "stream-port-prio"),
			prefixOf(args[0], "dgram-port-prio"), prefixOf(args[0], "port-prio"), args[0] == "pcp-prio":
			d.errf("lab: dcb app %s is not emulated\n", args[0])
			panic(dcbExit(2))
		case prefixOf(args[0], "dscp-prio"):
			d.needValue(args)
			rest, ok := d.mapping(args[1:], d.dscpKey, func(k int, v string) bool {
				prio, ok := u8(v)
				if !ok {
					return false
				}
				return d.inRange("DSCP", k, 63, "PRIO", prio, 7, func(k, v int) {
					apps = append(apps, dcbApp{dscp: uint8(k), prio: uint8(v)})
				})
			}, "mapping")
			if !ok {
				return nil, 1, false
			}
			args = rest
		default:
			d.errf("What is \"%s\"?\n%s", args[0], dcbAppHelpAdd)
			return nil, 1, false
		}
	}
	return apps, 0, true
}

// setApps sends one DCB_CMD_IEEE_SET (add) or _DEL of apps: dcbnl applies the entries in
// order and stops at the first the driver refuses (mlx5e_dcbnl_ieee_setapp / delapp).
func (d *dcbRun) setApps(dev string, apps []dcbApp, add bool) int {
	if len(apps) == 0 {
		return 0 // dcb_app_add_del sends nothing for an empty table
	}
	p, ok := d.port(dev, true)
	if !ok {
		return 1
	}
	for _, a := range apps {
		var err error
		if add {
			err = p.setApp(a)
		} else {
			err = p.delApp(a)
		}
		if err != nil {
			return d.kernelErr(err)
		}
	}
	return 0
}

func (d *dcbRun) appAddDel(dev string, args []string, add bool) int {
	apps, st, ok := d.parseApps(args)
	if !ok {
		return st
	}
	d.h.mu.Lock()
	defer d.h.mu.Unlock()
	return d.setApps(dev, apps, add)
}

// appFlush deletes the listed groups' entries (all entries with no keyword) in one DEL.
func (d *dcbRun) appFlush(dev string, args []string) int {
	return d.get(dev, func(port *nicPort) int {
		apps := appTable(port)
		for _, a := range args {
			switch {
			case prefixOf(a, "help"):
				d.errf("%s", dcbAppHelpShow)
				return 0
			case prefixOf(a, "ethtype-prio"), prefixOf(a, "default-prio"), prefixOf(a, "dscp-prio"), a == "pcp-prio":
			default:
				d.errf("What is \"%s\"?\n%s", a, dcbAppHelpShow)
				return 1
			}
		}
		keep := len(args) == 0
		for _, a := range args {
			keep = keep || prefixOf(a, "dscp-prio")
		}
		if !keep {
			if len(apps) == 0 {
				return 0
			}
			_, ok := d.port(dev, true) // a DEL with an empty nest: nothing to delete
			return map[bool]int{true: 0, false: 1}[ok]
		}
		return d.setApps(dev, apps, false)
	})
}

// appReplace is dcb_cmd_app_replace: GET, SET the entries not already there, then DEL the
// other priorities of the same DSCPs; it returns 0 whatever happened after the GET. On mlx5
// the SET already moved each DSCP, so the DEL of its old entry fails with ENOENT.
func (d *dcbRun) appReplace(dev string, args []string) int {
	var orig []dcbApp
	if st := d.get(dev, func(p *nicPort) int { orig = appTable(p); return 0 }); st != 0 {
		return st
	}
	tab, _, ok := d.parseApps(args)
	if !ok {
		return 0
	}
	var add, del []dcbApp
	for _, a := range tab {
		if !slices.Contains(orig, a) {
			add = append(add, a)
		}
	}
	for _, o := range orig {
		same := false
		exact := false
		for _, a := range tab {
			same = same || a.dscp == o.dscp
			exact = exact || a == o
		}
		if same && !exact {
			del = append(del, o)
		}
	}
	d.h.mu.Lock()
	defer d.h.mu.Unlock()
	if d.setApps(dev, add, true) != 0 {
		d.errf("Could not add new APP entries\n")
	} else if d.setApps(dev, del, false) != 0 {
		d.errf("Could not remove replaced APP entries\n")
	}
	return 0
}

// ---- apptrust: mlx5 has no dcbnl_getapptrust / setapptrust ----

func (d *dcbRun) apptrust(args []string) int {
	const show = "Usage: dcb apptrust show dev STRING\n       [ order ]\n\n"
	const set = "Usage: dcb apptrust set dev STRING\n       [ order [ ethtype | stream-port | dgram-port | port | dscp | pcp ] ]\n\n"
	switch {
	case len(args) == 0 || args[0] == "help":
		d.errf("Usage: dcb apptrust help\n\n%s%s", show, set)
		return 0
	case args[0] == "show" || args[0] == "set":
		write, help := args[0] == "set", show
		if write {
			help = set
		}
		dev, _, st, done := d.parseDev(args[1:], help)
		if done {
			return st
		}
		d.h.mu.Lock()
		defer d.h.mu.Unlock()
		if _, ok := d.port(dev, write); !ok {
			return 1
		}
		if write {
			return d.kernelErr(sh.EOPNOTSUPP)
		}
		d.errf("Attribute not found: Success\n") // the reply has no DCB_ATTR_DCB_APP_TRUST_TABLE
		return 1
	}
	d.errf("What is \"%s\"?\n", args[0])
	d.errf("Usage: dcb apptrust help\n\n%s%s", show, set)
	return 1
}

// ---- dcbx ----

func (d *dcbRun) dcbx(args []string) int {
	const show = "Usage: dcb dcbx show dev STRING\n\n"
	const set = "Usage: dcb dcbx set dev STRING\n           [ host | lld-managed ]\n           [ cee | ieee ] [ static ]\n\n"
	switch {
	case len(args) == 0 || prefixOf(args[0], "help"):
		d.errf("Usage: dcb dcbx help\n\n%s%s", show, set)
		return 0
	case prefixOf(args[0], "show"):
		dev, rest, st, done := d.parseDev(args[1:], show)
		if done {
			return st
		}
		return d.get(dev, func(p *nicPort) int {
			if len(rest) > 0 {
				if prefixOf(rest[0], "help") {
					d.errf("%s", show)
					return 0
				}
				d.errf("What is \"%s\"?\n%s", rest[0], show)
				return 1
			}
			pr := d.printer()
			caps := p.dcbxCap()
			for _, f := range []struct {
				bit  uint8
				name string
			}{{dcbxCapHost, "host"}, {dcbxLLD, "lld-managed"}, {dcbxCapCEE, "cee"}, {dcbxCapIEEE, "ieee"}} {
				if caps&f.bit != 0 {
					js := strings.ReplaceAll(f.name, "-", "_")
					if d.json {
						pr.key(js)
						d.out.WriteString("true")
					} else {
						d.out.WriteString(f.name + " ")
					}
				}
			}
			pr.nl()
			pr.end()
			return 0
		})
	}
	d.errf("lab: dcb dcbx %s is not emulated\n", args[0])
	panic(dcbExit(2))
}

// ---- pfc ----

const dcbPFCHelpSet = "Usage: dcb pfc set dev STRING\n" +
	"           [ prio-pfc PFC-MAP ]\n" +
	"           [ macsec-bypass { on | off } ]\n" +
	"           [ delay INTEGER ]\n" +
	"\n" +
	" where PFC-MAP := [ PFC-MAP ] PFC-MAPPING\n" +
	"       PFC-MAPPING := { all | TC }:PFC\n" +
	"       TC := { 0 .. 7 }\n" +
	"       PFC := { on | off }\n" +
	"\n"

const dcbPFCHelpShow = "Usage: dcb [ -s ] pfc show dev STRING\n" +
	"           [ pfc-cap ] [ prio-pfc ] [ macsec-bypass ]\n" +
	"           [ delay ] [ requests ] [ indications ]\n" +
	"\n"

func (d *dcbRun) pfc(args []string) int {
	return d.showSet("pfc", args, dcbPFCHelpShow, dcbPFCHelpSet, d.pfcShow, d.pfcSet)
}

// showSet dispatches the show and set commands of obj (pfc, ets) as dcb_cmd_pfc and
// dcb_cmd_ets do.
func (d *dcbRun) showSet(obj string, args []string, helpShow, helpSet string, show, set func(dev string, rest []string) int) int {
	help := "Usage: dcb " + obj + " help\n\n" + helpShow + helpSet
	switch {
	case len(args) == 0 || prefixOf(args[0], "help"):
		d.errf("%s", help)
		return 0
	case prefixOf(args[0], "show"):
		dev, rest, st, done := d.parseDev(args[1:], helpShow)
		if done {
			return st
		}
		return show(dev, rest)
	case prefixOf(args[0], "set"):
		dev, rest, st, done := d.parseDev(args[1:], helpSet)
		if done {
			return st
		}
		return set(dev, rest)
	}
	d.errf("What is \"%s\"?\n%s", args[0], help)
	return 1
}

// showLines is the keyword loop of dcb_cmd_pfc_show and dcb_cmd_ets_show: with no keyword,
// every line of layout (each group on one output line); else each keyword's line on its own,
// in the order given, where a word is the first of names it is a prefix of: help for "help",
// "What is" for a word that starts none. A keyword with no line is one the lab does not print.
func (d *dcbRun) showLines(p *dcbPrinter, obj string, args []string, help string, lines map[string]func(), names []string, layout [][]string) int {
	if len(args) == 0 {
		for _, group := range layout {
			for _, k := range group {
				lines[k]()
			}
			p.nl()
		}
		return 0
	}
	for _, a := range args {
		k := keyword(a, names...)
		switch k {
		case "help":
			d.errf("%s", help)
			return 0
		case "":
			d.errf("What is \"%s\"?\n%s", a, help)
			return 1
		}
		line, ok := lines[k]
		if !ok {
			d.errf("lab: dcb %s show %s is not emulated\n", obj, k)
			panic(dcbExit(2))
		}
		line()
		p.nl()
	}
	return 0
}

// keyword is the first of names that word is a prefix of ("" when none), as a chain of
// matches() calls picks it.
func keyword(word string, names ...string) string {
	for _, n := range names {
		if prefixOf(word, n) {
			return n
		}
	}
	return ""
}

// pfcOf is mlx5e_dcbnl_ieee_getpfc: pfc_cap 8, delay the cable length, mbc 0.
func pfcOf(p *nicPort) (en [8]bool, delay int) {
	for i := range en {
		en[i] = p.pfcEn>>i&1 == 1
	}
	return en, int(p.cableLen)
}

func (d *dcbRun) pfcShow(dev string, args []string) int {
	return d.get(dev, func(port *nicPort) int {
		en, delay := pfcOf(port)
		p := d.printer()
		defer p.end()
		lines := map[string]func(){
			"pfc-cap":       func() { p.field("pfc_cap", "8", "pfc-cap 8 ") },
			"macsec-bypass": func() { p.field("macsec_bypass", "false", "macsec-bypass off ") },
			"delay":         func() { p.field("delay", strconv.Itoa(delay), "delay "+strconv.Itoa(delay)+" ") },
			"prio-pfc":      func() { p.bools("prio_pfc", "prio-pfc", en) },
		}
		return d.showLines(p, "pfc", args, dcbPFCHelpShow, lines,
			[]string{"help", "prio-pfc", "pfc-cap", "macsec-bypass", "delay", "requests", "indications"},
			[][]string{{"pfc-cap", "macsec-bypass", "delay"}, {"prio-pfc"}})
	})
}

func (d *dcbRun) pfcSet(dev string, args []string) int {
	if len(args) == 0 {
		d.errf("%s", dcbPFCHelpSet)
		return 0
	}
	return d.get(dev, func(port *nicPort) int { // the GET before the SET
		en, delay := pfcOf(port)
		for len(args) > 0 {
			switch {
			case prefixOf(args[0], "help"):
				d.errf("%s", dcbPFCHelpSet)
				return 0
			case prefixOf(args[0], "prio-pfc"):
				d.needValue(args)
				rest, ok := d.mapping(args[1:], numAll, func(k int, v string) bool {
					on, ok := d.onOff("PFC", v)
					return ok && d.inRange("PRIO", k, 7, "PFC", b2i(on), -1, func(k, v int) { en[k] = v == 1 })
				}, "pfc mapping")
				if !ok {
					return 1
				}
				args = rest
				continue
			case prefixOf(args[0], "macsec-bypass"):
				d.needValue(args)
				if _, ok := d.onOff("macsec-bypass", args[1]); !ok {
					return 1
				}
			case prefixOf(args[0], "delay"):
				d.needValue(args)
				v, err := strconv.ParseUint(args[1], 0, 16)
				if err != nil {
					d.errf("Invalid delay `%s', expected an integer 0..65535\n", args[1])
					return 1
				}
				delay = int(v)
			default:
				d.errf("What is \"%s\"?\n%s", args[0], dcbPFCHelpSet)
				return 1
			}
			args = args[2:]
		}
		if _, ok := d.port(dev, true); !ok {
			return 1
		}
		var bits uint8
		for i, on := range en {
			if on {
				bits |= 1 << i
			}
		}
		port.ctr.account(d.h.now(), port.pfcEn) // pauses so far count for the old PFC set
		// mlx5e_dcbnl_ieee_setpfc (Linux 6.6): the delay is the cable length in meters, and 0 or
		// 1000 and above leave it as it was, without an error.
		port.setPFC(bits, uint16(delay))
		return 0
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ---- ets ----

const dcbETSHelpSet = "Usage: dcb ets set dev STRING\n" +
	"           [ willing { on | off } ]\n" +
	"           [ { tc-tsa | reco-tc-tsa } TSA-MAP ]\n" +
	"           [ { pg-bw | tc-bw | reco-tc-bw } BW-MAP ]\n" +
	"           [ { prio-tc | reco-prio-tc } PRIO-MAP ]\n" +
	"\n" +
	" where TSA-MAP := [ TSA-MAP ] TSA-MAPPING\n" +
	"       TSA-MAPPING := { all | TC }:{ strict | cbs | ets | vendor }\n" +
	"       BW-MAP := [ BW-MAP ] BW-MAPPING\n" +
	"       BW-MAPPING := { all | TC }:INTEGER\n" +
	"       PRIO-MAP := [ PRIO-MAP ] PRIO-MAPPING\n" +
	"       PRIO-MAPPING := { all | PRIO }:TC\n" +
	"       TC := { 0 .. 7 }\n" +
	"       PRIO := { 0 .. 7 }\n" +
	"\n"

const dcbETSHelpShow = "Usage: dcb ets show dev STRING\n" +
	"           [ willing ] [ ets-cap ] [ cbs ] [ tc-tsa ]\n" +
	"           [ reco-tc-tsa ] [ pg-bw ] [ tc-bw ] [ reco-tc-bw ]\n" +
	"           [ prio-tc ] [ reco-prio-tc ]\n" +
	"\n"

// tsaNames are dcb_ets.c's tsa_names; another value prints "???".
var tsaNames = map[uint8]string{tsaStrict: "strict", 1: "cbs", tsaETS: "ets", tsaVendor: "vendor"}

func tsaName(t uint8) string {
	if n, ok := tsaNames[t]; ok {
		return n
	}
	return "???"
}

func (d *dcbRun) ets(args []string) int {
	return d.showSet("ets", args, dcbETSHelpShow, dcbETSHelpSet, d.etsShow, d.etsSet)
}

// ieeeETS is struct ieee_ets as mlx5e_dcbnl_ieee_getets fills it (willing, cbs, pg-bw and
// the reco fields stay 0; ets_cap is 8).
type ieeeETS struct {
	prioTC, tsa, bw [8]uint8
	recoTSA, recoBW [8]uint8
}

func (d *dcbRun) etsShow(dev string, args []string) int {
	return d.get(dev, func(port *nicPort) int {
		var e ieeeETS
		e.prioTC, e.tsa, e.bw = port.getETS()
		p := d.printer()
		defer p.end()
		tsa := func(jsonName, name string, v [8]uint8) {
			s := func(i int) string { return tsaName(v[i]) }
			p.array(jsonName, name, func(i int) string { return strconv.Quote(s(i)) }, s)
		}
		var zero [8]uint8
		lines := map[string]func(){
			"willing":      func() { p.field("willing", "false", "willing off ") },
			"ets-cap":      func() { p.field("ets_cap", "8", "ets-cap 8 ") },
			"cbs":          func() { p.field("cbs", "false", "cbs off ") },
			"tc-bw":        func() { p.u8s("tc_bw", "tc-bw", e.bw) },
			"pg-bw":        func() { p.u8s("pg_bw", "pg-bw", zero) },
			"tc-tsa":       func() { tsa("tc_tsa", "tc-tsa", e.tsa) },
			"prio-tc":      func() { p.u8s("prio_tc", "prio-tc", e.prioTC) },
			"reco-tc-bw":   func() { p.u8s("reco_tc_bw", "reco-tc-bw", zero) },
			"reco-tc-tsa":  func() { tsa("reco_tc_tsa", "reco-tc-tsa", zero) },
			"reco-prio-tc": func() { p.u8s("reco_prio_tc", "reco-prio-tc", zero) },
		}
		return d.showLines(p, "ets", args, dcbETSHelpShow, lines,
			[]string{"help", "willing", "ets-cap", "cbs", "tc-tsa", "reco-tc-tsa", "tc-bw", "pg-bw", "reco-tc-bw", "prio-tc", "reco-prio-tc"},
			[][]string{{"willing", "ets-cap", "cbs"}, {"tc-bw"}, {"pg-bw"}, {"tc-tsa"}, {"prio-tc"}, {"reco-tc-bw"}, {"reco-tc-tsa"}, {"reco-prio-tc"}})
	})
}

// etsSet is dcb_cmd_ets_set: GET, the mappings, dcb_ets_validate_bw over all 8 TCs (mlx5
// reports strict and vendor TCs at 100 %, so a set must give their tc-bw too), then the SET,
// which mlx5e_dbcnl_validate_ets checks again (ETS TCs sum to 100).
func (d *dcbRun) etsSet(dev string, args []string) int {
	if len(args) == 0 {
		d.errf("%s", dcbETSHelpSet)
		return 1
	}
	return d.get(dev, func(port *nicPort) int {
		var e ieeeETS
		e.prioTC, e.tsa, e.bw = port.getETS()
		var ignored [8]uint8 // pg-bw, reco-prio-tc: mlx5 ignores them
		// to sets a mapping's values into target: key a TC or priority 0..7, value parsed by parse
		// and at most maxVal (-1: parse bounds it), as dcb_ets_parse_mapping_* checks them.
		to := func(target *[8]uint8, keyWhat, valWhat string, maxVal int, parse func(string) (int, bool)) func(int, string) bool {
			return func(k int, v string) bool {
				n, ok := parse(v)
				return ok && d.inRange(keyWhat, k, 7, valWhat, n, maxVal, func(k, v int) { target[k] = uint8(v) })
			}
		}
		tsa := func(v string) (int, bool) { t, ok := d.tsaValue(v); return int(t), ok }
		tsaMap := func(target *[8]uint8) func(int, string) bool { return to(target, "TC", "TSA", -1, tsa) }
		bwMap := func(target *[8]uint8) func(int, string) bool { return to(target, "TC", "BW", 100, u8) }
		prioMap := func(target *[8]uint8) func(int, string) bool { return to(target, "PRIO", "TC", 7, u8) }
		for len(args) > 0 {
			kw := keyword(args[0], "help", "willing", "tc-tsa", "reco-tc-tsa", "tc-bw", "pg-bw", "reco-tc-bw", "prio-tc", "reco-prio-tc")
			if kw == "" {
				d.errf("What is \"%s\"?\n%s", args[0], dcbETSHelpSet)
				return 1
			}
			if kw == "help" {
				d.errf("%s", dcbETSHelpSet)
				return 0
			}
			d.needValue(args)
			if kw == "willing" {
				if _, ok := d.onOff("willing", args[1]); !ok {
					return 1
				}
				args = args[2:]
				continue
			}
			set := map[string]func(int, string) bool{
				"tc-tsa": tsaMap(&e.tsa), "reco-tc-tsa": tsaMap(&e.recoTSA), "tc-bw": bwMap(&e.bw), "pg-bw": bwMap(&ignored),
				"reco-tc-bw": bwMap(&e.recoBW), "prio-tc": prioMap(&e.prioTC), "reco-prio-tc": prioMap(&ignored),
			}[kw]
			rest, ok := d.mapping(args[1:], numAll, set, kw+" mapping")
			if !ok {
				return 1
			}
			args = rest
		}
		if !d.validateBW(e.bw, e.tsa, "tc-bw") || !d.validateBW(e.recoBW, e.recoTSA, "reco-tc-bw") {
			return 1
		}
		if _, ok := d.port(dev, true); !ok {
			return 1
		}
		if err := validateETS(e.tsa, e.bw); err != nil {
			return d.kernelErr(err)
		}
		port.setETSCore(e.prioTC, e.tsa, e.bw)
		return 0
	})
}

// tsaValue is parse_one_of("TSA", ...): by prefix, warning when abbreviated.
func (d *dcbRun) tsaValue(v string) (uint8, bool) {
	for _, t := range []uint8{tsaStrict, 1, tsaETS, tsaVendor} {
		n := tsaNames[t]
		if prefixOf(v, n) {
			if v != n {
				d.errf("WARNING: '%s' matches '%s' by prefix.\nMatching by prefix is deprecated in this context, please use the full string.\n", v, n)
			}
			return t, true
		}
	}
	d.errf("Error: argument of \"TSA\" must be one of \"strict\", \"cbs\", \"ets\", \"vendor\", not \"%s\"\n", v)
	return 0, false
}

// validateBW is dcb_ets_validate_bw: every share 0..100, and the sum over all 8 TCs 100, or 0
// when no TC is ETS.
func (d *dcbRun) validateBW(bw, tsa [8]uint8, what string) bool {
	hasETS, total := slices.Contains(tsa[:], tsaETS), 0
	for tc, v := range bw {
		if v > 100 {
			d.errf("%d%% for TC %d of %s is not a valid bandwidth percentage, expected 0..100%%\n", v, tc, what)
			return false
		}
		total += int(v)
	}
	if total == 100 || !hasETS && total == 0 {
		return true
	}
	d.errf("Bandwidth percentages in %s sum to %d%%, expected %d%%\n", what, total, map[bool]int{true: 100, false: 0}[hasETS])
	return false
}

// ---- buffer ----

func (d *dcbRun) buffer(args []string) int {
	const show = "Usage: dcb buffer show dev STRING\n           [ prio-buffer ] [ buffer-size ] [ total-size ]\n\n"
	if len(args) == 0 || !prefixOf(args[0], "show") {
		d.errf("lab: dcb buffer %s is not emulated\n", strings.Join(args, " "))
		panic(dcbExit(2))
	}
	dev, rest, st, done := d.parseDev(args[1:], show)
	if done {
		return st
	}
	if len(rest) > 0 {
		d.errf("lab: dcb buffer show keywords are not emulated\n")
		panic(dcbExit(2))
	}
	return d.get(dev, func(port *nicPort) int {
		p := d.printer()
		defer p.end()
		p.u8s("prio_buffer", "prio-buffer", port.prio2buf)
		p.nl()
		p.array("buffer_size", "buffer-size", func(i int) string { return strconv.Itoa(int(port.bufSize[i])) },
			func(i int) string { return sprintSize(port.bufSize[i]) })
		p.nl()
		p.field("total_size", strconv.Itoa(portBufferSize), "total-size "+sprintSize(portBufferSize)+" ")
		p.nl()
		return 0
	})
}

// sprintSize is lib/json_print_math.c sprint_size.
func sprintSize(sz uint32) string {
	const kilo, mega = 1024.0, 1024.0 * 1024.0
	f := float64(sz)
	round := math.RoundToEven // rint in the default rounding mode
	switch {
	case f >= mega && math.Abs(mega*round(f/mega)-f) < 1024:
		return strconv.FormatFloat(round(f/mega), 'g', -1, 64) + "Mb"
	case f >= kilo && math.Abs(kilo*round(f/kilo)-f) < 16:
		return strconv.FormatFloat(round(f/kilo), 'g', -1, 64) + "Kb"
	}
	return strconv.FormatUint(uint64(sz), 10) + "b"
}
