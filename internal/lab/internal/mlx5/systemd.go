package mlx5

// A small systemd for the mlx5 host: unit files under /etc/systemd/system,
// the `systemctl` verbs a provisioning tool uses (daemon-reload, enable,
// disable, is-enabled, start, status) and a boot that starts the units the
// netdevs' device units and multi-user.target want. Texts are systemd 252's
// (Debian 12), checked against its systemctl binary run with --root (see
// mlx5-host.md); what a running manager adds is marked there.

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

// unitDir is the administrator's unit directory: the only one the lab
// host has (there are no vendor units to enable or mask).
const unitDir = "/etc/systemd/system"

// systemdState is the manager's view: the unit files as of the last
// daemon-reload (or boot), and each started unit's last run.
type systemdState struct {
	loaded map[string]string
	runs   map[string]*unitRun
	pid    int // the next process id a unit's command gets
}

// unitRun is what `systemctl status` reports of a unit's last start.
type unitRun struct {
	ok      bool
	since   time.Time
	procs   []unitProc
	exitErr int
	// reloaded: a daemon-reload since the run; status then shows no Process: lines (the
	// manager forgets them) but still the Main PID: line.
	reloaded bool
}

// unitProc is one ExecStart= command that ran ("Process:" lines).
type unitProc struct {
	pid    int
	kind   string // ExecStart, ExecStartPre
	argv   string // the command after unquoting, its words joined by spaces (as status shows it)
	status int
}

// unitFile is the parsed content of a unit file: the assignments of every
// section, in order ("Key" -> values; an empty assignment resets the list).
type unitFile map[string]map[string][]string

func parseUnit(content string) unitFile {
	u := unitFile{}
	section := ""
	var cont string
	for _, raw := range strings.Split(content, "\n") {
		line := strings.TrimSpace(raw)
		if cont != "" {
			line = cont + line
			cont = ""
		}
		if strings.HasSuffix(line, `\`) && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, ";") {
			cont = strings.TrimSuffix(line, `\`) + " " // systemd joins continued lines with a space
			continue
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
		case section != "":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if v == "" {
				u[section][k] = nil
				continue
			}
			u[section][k] = append(u[section][k], v)
		}
	}
	return u
}

// wantedBy lists the units of [Install] WantedBy= and RequiredBy= with the
// directory suffix systemctl enable links the unit under.
func (u unitFile) wantedBy() (deps []string) {
	for _, k := range []string{"WantedBy", "RequiredBy"} {
		suffix := ".wants"
		if k == "RequiredBy" {
			suffix = ".requires"
		}
		for _, v := range u["Install"][k] {
			for _, t := range strings.Fields(v) {
				deps = append(deps, t+suffix)
			}
		}
	}
	return deps
}

// unitName reports whether name is a unit name the lab accepts: the
// characters systemd allows (unit-name.c VALID_CHARS) and a known suffix.
func unitName(name string) bool {
	base, ok := strings.CutSuffix(name, ".service")
	if !ok || base == "" || len(name) > 255 {
		return false
	}
	for _, r := range base {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && !strings.ContainsRune(":-_.\\@", r) {
			return false
		}
	}
	return true
}

func (h *Host) cmdSystemctl(e *sh.Env, args []string) int {
	var verb string
	var units []string
	quiet := false
	for _, a := range args[1:] {
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--no-pager" || a == "-l" || a == "--full" || a == "--no-ask-password":
		case strings.HasPrefix(a, "--"):
			// glibc getopt_long's texts, as Debian's systemctl 252.38 prints them (exit 1). The
			// options systemctl has that the lab does not emulate get them too (assumed).
			fmt.Fprintf(e.Stderr, "systemctl: unrecognized option '%s'\n", a)
			return 1
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, c := range a[1:] {
				switch c {
				case 'q':
					quiet = true
				case 'l':
				default:
					fmt.Fprintf(e.Stderr, "systemctl: invalid option -- '%c'\n", c)
					return 1
				}
			}
		case verb == "":
			verb = a
		default:
			if !strings.Contains(a, ".") {
				a += ".service" // systemctl's default suffix
			}
			units = append(units, a)
		}
	}
	switch verb {
	case "daemon-reload":
		if !e.Root {
			// 252.20 and later (Debian 12's 252.38); 252.0-252.19 said "Failed to reload daemon: ...".
			fmt.Fprintln(e.Stderr, "Reload daemon failed: Access denied")
			return 1
		}
		h.daemonReload()
		return 0
	case "enable", "disable":
		if len(units) == 0 {
			fmt.Fprintf(e.Stderr, "Too few arguments.\n")
			return 1
		}
		if !e.Root {
			fmt.Fprintf(e.Stderr, "Failed to %s unit: Access denied\n", verb)
			return 1
		}
		if verb == "enable" {
			return h.enableUnits(e, units)
		}
		return h.disableUnits(e, units)
	case "is-enabled":
		if len(units) == 0 {
			fmt.Fprintf(e.Stderr, "Too few arguments.\n")
			return 1
		}
		return h.isEnabled(e, units, quiet)
	case "start":
		if len(units) == 0 {
			fmt.Fprintf(e.Stderr, "Too few arguments.\n")
			return 1
		}
		if !e.Root {
			fmt.Fprintf(e.Stderr, "Failed to start %s: Access denied\nSee system logs and 'systemctl status %s' for details.\n", units[0], units[0])
			return 4 // AccessDenied (systemctl-util.c translate_bus_error_to_exit_status)
		}
		// Every unit is attempted; the exit status is the first failure's.
		status := 0
		for _, u := range units {
			if st := h.startUnit(u, e); st != 0 && status == 0 {
				status = st
			}
		}
		return status
	case "status":
		return h.unitStatus(e, units)
	case "":
		// Assumed: the lab has no list-units (systemctl's default verb) to print.
		fmt.Fprintln(e.Stderr, "lab: systemctl without a verb (list-units) is not emulated")
		return 1
	}
	// verbs.c dispatch_verb (systemd 252); "Too few arguments." above is its check of a
	// verb's minimum argument count. Both exit 1.
	fmt.Fprintf(e.Stderr, "Unknown command verb %s.\n", verb)
	return 1
}

// unitContent reads a unit file from the unit directory as root would.
func (h *Host) unitContent(name string) (string, bool) {
	s, err := h.fs.ReadFile(unitDir+"/"+name, true)
	return s, err == nil
}

// daemonReload makes the manager load every unit file again.
func (h *Host) daemonReload() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.systemd.loaded = map[string]string{}
	for _, r := range h.systemd.runs {
		r.reloaded = true
	}
	n, err := h.fs.Lookup(unitDir, true)
	if err != nil {
		return
	}
	for name, f := range n.Children {
		if f.Regular {
			h.systemd.loaded[name] = f.Content
		}
	}
}

func (h *Host) enableUnits(e *sh.Env, units []string) int {
	for _, u := range units {
		content, ok := h.unitContent(u)
		if !ok || !unitName(u) {
			fmt.Fprintf(e.Stderr, "Failed to enable unit: Unit file %s does not exist.\n", u)
			return 1
		}
		for _, dep := range parseUnit(content).wantedBy() {
			link := unitDir + "/" + dep + "/" + u
			h.mu.Lock()
			n, err := h.fs.LookupLink(link, true)
			created := err != nil || n.Link == ""
			if created {
				dir := h.fs.Root.Mkdirs(strings.TrimPrefix(unitDir+"/"+dep, "/"))
				dir.Disk = true
				dir.Children[u] = &sh.Node{Mode: 0o777, Link: unitDir + "/" + u}
			}
			h.mu.Unlock()
			if created { // already enabled: no line, but the warning below again
				fmt.Fprintf(e.Stderr, "Created symlink %s → %s.\n", link, unitDir+"/"+u)
			}
			if target := strings.TrimSuffix(strings.TrimSuffix(dep, ".wants"), ".requires"); !unitExists(h, target) {
				fmt.Fprintf(e.Stderr, "Unit %s is added as a dependency to a non-existent unit %s.\n", unitDir+"/"+u, target)
			}
		}
	}
	return 0
}

// unitExists: a unit with a file in the unit directory, or one the lab
// always has (multi-user.target). Device units have no file.
func unitExists(h *Host, name string) bool {
	if name == "multi-user.target" {
		return true
	}
	_, ok := h.unitContent(name)
	return ok
}

func (h *Host) disableUnits(e *sh.Env, units []string) int {
	for _, u := range units {
		if _, ok := h.unitContent(u); !ok {
			fmt.Fprintf(e.Stderr, "Failed to disable unit: Unit file %s does not exist.\n", u)
			return 1
		}
		for _, link := range h.unitLinks(u) {
			if err := h.fs.Remove(link, true); err == nil {
				fmt.Fprintf(e.Stderr, "Removed \"%s\".\n", link)
			}
		}
	}
	return 0
}

// unitLinks are the .wants and .requires entries naming unit.
func (h *Host) unitLinks(unit string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := h.fs.Lookup(unitDir, true)
	if err != nil {
		return nil
	}
	var out []string
	for _, dir := range n.Names() {
		d := n.Children[dir]
		if deps := strings.HasSuffix(dir, ".wants") || strings.HasSuffix(dir, ".requires"); !d.Dir || !deps {
			continue
		}
		if l, ok := d.Children[unit]; ok && l.Link != "" {
			out = append(out, unitDir+"/"+dir+"/"+unit)
		}
	}
	return out
}

func (h *Host) isEnabled(e *sh.Env, units []string, quiet bool) int {
	status := 1
	for _, u := range units {
		content, ok := h.unitContent(u)
		if !ok {
			fmt.Fprintf(e.Stderr, "Failed to get unit file state for %s: No such file or directory\n", u)
			return 1
		}
		state := "disabled"
		switch {
		case len(h.unitLinks(u)) > 0:
			state, status = "enabled", 0
		case len(parseUnit(content).wantedBy()) == 0:
			state, status = "static", 0
		}
		if !quiet {
			fmt.Fprintln(e.Stdout, state)
		}
	}
	return status
}

// startUnit runs a unit's ExecStartPre= and ExecStart= commands, in order,
// as root, from the loaded unit file; the first failure fails the unit.
// w (nil at boot) gets systemctl start's report.
func (h *Host) startUnit(name string, e *sh.Env) int {
	h.mu.Lock()
	content, loaded := h.systemd.loaded[name]
	onDisk := ""
	if n, err := h.fs.Lookup(unitDir+"/"+name, true); err == nil && n.Regular {
		onDisk = n.Content
	}
	h.mu.Unlock()
	if !loaded {
		if e != nil {
			fmt.Fprintf(e.Stderr, "Failed to start %s: Unit %s not found.\n", name, name)
		}
		return 5
	}
	if e != nil && onDisk != content {
		fmt.Fprintf(e.Stderr, "Warning: The unit file, source configuration file or drop-ins of %s changed on disk. Run 'systemctl daemon-reload' to reload units.\n", name)
	}
	u := parseUnit(content)
	run := &unitRun{ok: true, since: h.nowLocked()}
	for _, kind := range []string{"ExecStartPre", "ExecStart"} {
		for _, line := range u["Service"][kind] {
			argv, ignore, err := execArgv(line, name)
			st := 203 // EXIT_EXEC
			if err == nil {
				st = h.runArgv(argv)
			}
			h.mu.Lock()
			h.systemd.pid++
			pid := 1000 + h.systemd.pid
			h.mu.Unlock()
			run.procs = append(run.procs, unitProc{pid: pid, kind: kind, argv: strings.Join(argv, " "), status: st})
			if st != 0 && !ignore {
				run.ok, run.exitErr = false, st
				break
			}
		}
		if !run.ok {
			break
		}
	}
	h.mu.Lock()
	if h.systemd.runs == nil {
		h.systemd.runs = map[string]*unitRun{}
	}
	h.systemd.runs[name] = run
	h.mu.Unlock()
	if !run.ok {
		if e != nil {
			fmt.Fprintf(e.Stderr, "Job for %s failed because the control process exited with error code.\n"+
				"See \"systemctl status %s\" and \"journalctl -xeu %s\" for details.\n", name, name, name)
		}
		return 1
	}
	return 0
}

func (h *Host) nowLocked() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now()
}

// runArgv runs a command line of a unit as root in /, its output going to
// the journal (which the lab does not keep). A bare name is looked up in the
// manager's fixed search path (252 allows one; the lab's PATH lookup is the
// same for the commands it has).
func (h *Host) runArgv(argv []string) int {
	shell := sh.NewShell(h.sys, true, "sh", "/", strings.NewReader(""), discard{}, discard{})
	c := h.sys.LookupCommand(argv[0])
	if c == nil {
		return 203
	}
	return c(&sh.Env{Sh: shell, Root: true, Line: 1, Stdin: strings.NewReader(""), Stdout: discard{}, Stderr: discard{}}, argv)
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// execArgv splits an ExecStart= value as systemd 252 does (load-fragment.c
// config_parse_exec): prefixes on the first word ("-" lets the command fail;
// ":", "+", "!", "!!" change nothing the lab models; "@" is refused), words
// split and unquoted (extract-word.c), then specifiers (%i, %n, %%) resolved
// in each word, and "$$" becomes "$" (the lab sets no Environment=, so other
// variables would expand to nothing; the provider writes none). An unquoted
// ";" word would separate commands: the lab refuses it.
func execArgv(line, unit string) (argv []string, ignoreFailure bool, err error) {
	words, err := splitExec(line)
	if err != nil {
		return nil, false, err
	}
	if len(words) == 0 {
		return nil, false, fmt.Errorf("empty command line")
	}
	first := words[0]
	for len(first) > 0 && strings.ContainsRune("-@:+!", rune(first[0])) {
		switch first[0] {
		case '-':
			ignoreFailure = true
		case '@':
			return nil, false, fmt.Errorf("lab: the @ prefix is not emulated")
		}
		first = first[1:]
	}
	words[0] = first
	instance := ""
	if at := strings.Index(unit, "@"); at >= 0 {
		instance = strings.TrimSuffix(unit[at+1:], path.Ext(unit))
	}
	for i, w := range words {
		if w == ";" {
			return nil, false, fmt.Errorf("lab: several commands on one ExecStart= line are not emulated")
		}
		var b strings.Builder
		for j := 0; j < len(w); j++ {
			if w[j] != '%' || j+1 == len(w) {
				b.WriteByte(w[j])
				continue
			}
			j++
			switch w[j] {
			case '%':
				b.WriteByte('%')
			case 'i', 'I':
				b.WriteString(instance)
			case 'n':
				b.WriteString(unit)
			default:
				return nil, false, fmt.Errorf("unsupported specifier %%%c", w[j])
			}
		}
		words[i] = strings.ReplaceAll(b.String(), "$$", "$")
	}
	if words[0] == "" {
		return nil, false, fmt.Errorf("empty path in command line")
	}
	return words, ignoreFailure, nil
}

// splitExec is extract_first_word with EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE:
// blanks separate words; '...' and "..." quote (a backslash escape works in
// both); outside quotes a backslash escapes the next character.
func splitExec(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			cur.WriteByte(unescape(s[i]))
			inWord = true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unbalanced quoting")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	}
	return c
}

// unitStatus prints systemctl status's header for each unit.
func (h *Host) unitStatus(e *sh.Env, units []string) int {
	status := 0
	for i, u := range units {
		if i > 0 {
			fmt.Fprintln(e.Stdout)
		}
		content, ok := h.unitContent(u)
		if !ok {
			fmt.Fprintf(e.Stderr, "Unit %s could not be found.\n", u)
			status = 4
			continue
		}
		uf := parseUnit(content)
		desc := u
		if d := uf["Unit"]["Description"]; len(d) > 0 {
			desc = d[len(d)-1]
		}
		enabled := "disabled"
		if len(h.unitLinks(u)) > 0 {
			enabled = "enabled"
		}
		h.mu.Lock()
		run := h.systemd.runs[u]
		now := h.now()
		h.mu.Unlock()
		bullet, active := "○", "inactive (dead)"
		if run != nil {
			switch {
			case !run.ok:
				bullet, active = "×", "failed (Result: exit-code)"
			case remainAfterExit(uf):
				bullet, active = "●", "active (exited)"
			}
			active += " since " + run.since.UTC().Format("Mon 2006-01-02 15:04:05 MST") + "; " + ago(now.Sub(run.since)) + " ago"
		}
		loaded := unitDir + "/" + u + "; " + enabled + "; preset: enabled"
		if len(uf.wantedBy()) == 0 {
			loaded = unitDir + "/" + u + "; static" // no preset part for static units
		}
		fmt.Fprintf(e.Stdout, "%s %s - %s\n", bullet, u, desc)
		fmt.Fprintf(e.Stdout, "     Loaded: loaded (%s)\n", loaded)
		fmt.Fprintf(e.Stdout, "     Active: %s\n", active)
		if run != nil && len(run.procs) > 0 {
			if !run.reloaded {
				for _, p := range run.procs {
					fmt.Fprintf(e.Stdout, "    Process: %d %s=%s (code=exited, status=%s)\n", p.pid, p.kind, p.argv, exitName(p.status))
				}
			}
			last := run.procs[len(run.procs)-1]
			fmt.Fprintf(e.Stdout, "   Main PID: %d (code=exited, status=%s)\n", last.pid, exitName(last.status))
		}
		if (run == nil || !run.ok || !remainAfterExit(uf)) && status == 0 {
			status = 3
		}
	}
	return status
}

func remainAfterExit(u unitFile) bool {
	v := u["Service"]["RemainAfterExit"]
	return len(v) > 0 && slices.Contains([]string{"yes", "true", "1", "on"}, v[len(v)-1])
}

// exitName is how status shows an exit status: with the name of the libc
// and systemd codes (0/SUCCESS, 1/FAILURE, 203/EXEC), others bare.
func exitName(st int) string {
	switch st {
	case 0:
		return "0/SUCCESS"
	case 1:
		return "1/FAILURE"
	case 203:
		return "203/EXEC"
	}
	return fmt.Sprint(st)
}

// ago is systemd's relative time (time-util.c format_timestamp_relative):
// "45s", "4min 49s" under 5 minutes, "12min", "2h 5min" under 6 hours, "7h".
func ago(d time.Duration) string {
	s := int(d / time.Second)
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 300:
		return fmt.Sprintf("%dmin %ds", s/60, s%60)
	case s < 3600:
		return fmt.Sprintf("%dmin", s/60)
	case s < 6*3600:
		return fmt.Sprintf("%dh %dmin", s/3600, (s%3600)/60)
	}
	return fmt.Sprintf("%dh", s/3600)
}

// bootUnits starts, after a boot or the re-appearance of the NICs, the
// enabled units: those the netdevs' device units want (ifnames, in
// order), then, at a boot, those multi-user.target wants.
func (h *Host) bootUnits(ifnames []string, boot bool) {
	if boot {
		h.daemonReload()
		h.mu.Lock()
		h.systemd.runs = nil
		h.mu.Unlock()
	}
	dirs := make([]string, 0, len(ifnames)+1)
	for _, ifn := range ifnames {
		dirs = append(dirs, "sys-subsystem-net-devices-"+ifn+".device.wants")
	}
	if boot {
		dirs = append(dirs, "multi-user.target.wants")
	}
	started := map[string]bool{}
	for _, d := range dirs {
		names, err := h.fs.ReadDir(unitDir+"/"+d, true)
		if err != nil {
			continue
		}
		for _, u := range names {
			if !started[u] {
				started[u] = true
				h.startUnit(u, nil)
			}
		}
	}
}

// boundTo reports whether a unit file has BindsTo= (or Requires=) the
// device unit of netdev ifname, so the unit stops when the netdev goes.
func boundTo(content, ifname string) bool {
	dev := "sys-subsystem-net-devices-" + ifname + ".device"
	u := parseUnit(content)
	for _, k := range []string{"BindsTo", "Requires"} {
		for _, v := range u["Unit"][k] {
			if slices.Contains(strings.Fields(v), dev) {
				return true
			}
		}
	}
	return false
}
