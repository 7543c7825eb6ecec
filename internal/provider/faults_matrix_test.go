package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// The fault matrix (reliability guide): for each transport (gNMI, SSH CLI, NVUE, host SSH) and each
// fault the lab injects (internal/lab/faults.md), during plan and during apply, the real
// Terraform CLI fails with a diagnostic naming the device, the operation and the cause; the
// device keeps what it had and the state matches it; once the fault clears the next apply
// converges and the plan after it is empty. One lab per transport group, provider timeout 3s
// and one retry so stalls fail fast.

const faultTimeout = 3 * time.Second

// faultDev is one device of a group and the one resource the matrix changes on it.
type faultDev struct {
	name, transport string
	addr            string             // the resource's address
	hcl             func(v int) string // the resource at version 0 or 1
	mark            func(v int) string // a line of `terraform state show addr` at version v
	state           func() string      // the device's own view of what the resource manages
	slowOK          time.Duration      // an InjectSlow the whole operation absorbs within the timeout
	slowOver        time.Duration      // an InjectSlow that pushes the operation past the timeout
}

// faultRig is one lab, one Terraform working directory and the version each device is at.
type faultRig struct {
	t    *testing.T
	l    *accLab
	tf   *tfCLI
	dir  string
	devs []*faultDev
	ver  map[string]int
}

// write writes main.tf with every device's resource at its current version.
func (r *faultRig) write() {
	cfg := r.l.providerTimeoutHCL(faultTimeout)
	for _, d := range r.devs {
		cfg += d.hcl(r.ver[d.name])
	}
	writeMain(r.t, r.dir, cfg)
}

// faultOutcome is one row of the matrix as observed.
type faultOutcome struct {
	transport, device, fault, phase, result, first string
}

var (
	faultOutcomesMu sync.Mutex
	faultOutcomes   []faultOutcome
)

func recordFault(o faultOutcome) {
	faultOutcomesMu.Lock()
	defer faultOutcomesMu.Unlock()
	faultOutcomes = append(faultOutcomes, o)
}

// recordWhenDone records *o when the test's row ends (deferred), as FAIL when it failed.
func recordWhenDone(t *testing.T, o *faultOutcome) {
	if t.Failed() {
		o.result = "FAIL"
	}
	recordFault(*o)
}

var firstErrorLine = regexp.MustCompile(`(?m)Error: (.*)$`)

// firstError is the summary of the first error diagnostic and the first paragraph of its
// detail, on one line.
func firstError(out string) string {
	out = strings.ReplaceAll(out, "│", "")
	m := firstErrorLine.FindStringSubmatchIndex(out)
	if m == nil {
		return ""
	}
	summary := strings.TrimSpace(out[m[2]:m[3]])
	var detail []string
	for _, line := range strings.Split(out[m[1]:], "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" && len(detail) > 0:
			return summary + ": " + strings.Join(detail, " ")
		case line == "", strings.HasPrefix(line, "with "), strings.HasPrefix(line, "on "),
			strings.HasPrefix(line, "─"), sourceLine.MatchString(line):
			continue
		}
		detail = append(detail, line)
	}
	return summary + ": " + strings.Join(detail, " ")
}

var sourceLine = regexp.MustCompile(`^\d+: `)

// oneLine flattens Terraform's boxed diagnostics so a regexp can span a wrapped detail.
func oneLine(out string) string {
	out = strings.ReplaceAll(out, "│", " ")
	return strings.Join(strings.Fields(out), " ")
}

func (r *faultRig) inject(dev string, kind lab.FaultKind, by time.Duration) {
	r.t.Helper()
	var err error
	if kind == lab.FaultSlow && by > 0 {
		err = r.l.InjectSlow(dev, by)
	} else {
		err = r.l.InjectFault(dev, kind)
	}
	if err != nil {
		r.t.Fatalf("inject %s on %s: %v", kind, dev, err)
	}
}

func (r *faultRig) clear(dev string) {
	r.t.Helper()
	if err := r.l.ClearFaults(dev); err != nil {
		r.t.Fatal(err)
	}
}

var planLine = regexp.MustCompile(`(?m)^\s*# (\S+) (will be|must be) (.*)$`)

// planShows runs `terraform plan -detailed-exitcode` and fails unless it shows exactly want
// (address -> action words), exit 2, or nothing (want empty), exit 0.
func (r *faultRig) planShows(want map[string]string) string {
	r.t.Helper()
	out, code := r.tf.run("plan", "-no-color", "-detailed-exitcode", "-input=false")
	wantCode := 0
	if len(want) > 0 {
		wantCode = 2
	}
	if code != wantCode {
		r.t.Fatalf("plan exited %d, want %d (changes %v):\n%s", code, wantCode, want, out)
	}
	got := map[string]string{}
	for _, m := range planLine.FindAllStringSubmatch(out, -1) {
		got[m[1]] = m[3]
	}
	if len(got) != len(want) {
		r.t.Fatalf("plan shows %v, want exactly %v:\n%s", got, want, out)
	}
	for addr, action := range want {
		if !strings.Contains(got[addr], action) {
			r.t.Fatalf("plan shows %q for %s, want %q:\n%s", got[addr], addr, action, out)
		}
	}
	return out
}

func (r *faultRig) apply() {
	r.t.Helper()
	r.tf.must("apply", "-no-color", "-auto-approve", "-input=false")
}

// stateShows fails unless `terraform state show` of d's resource has d's mark at version v.
func (r *faultRig) stateShows(d *faultDev, v int) {
	r.t.Helper()
	out := r.tf.must("state", "show", "-no-color", d.addr)
	if !strings.Contains(oneLine(out), d.mark(v)) {
		r.t.Fatalf("the state of %s is not at version %d (want %q):\n%s", d.addr, v, d.mark(v), out)
	}
}

// planFault is a row of the plan phase: the fault is injected after a successful apply and
// `terraform plan` refreshes against it.
type planFault struct {
	fault string
	kind  lab.FaultKind
	by    func(d *faultDev) time.Duration
	// want: "error" (exit 1 and errRe), "clean" (exit 0), "drift" (exit 2, the resource to update)
	want  string
	errRe func(d *faultDev) string
}

// applyFault is a row of the apply phase: a change is planned into a saved plan, the fault is
// injected, and `terraform apply PLAN` writes against it.
type applyFault struct {
	fault string
	kind  lab.FaultKind
	by    func(d *faultDev) time.Duration
	ok    bool // the apply must succeed (slow within the timeout)
	errRe func(d *faultDev) string
}

// runUnder runs terraform with args while fault kind is armed on d (by d's delay, when by is
// set), then clears it; armed is what was still armed when the command ended (a fault that
// never fired).
func (r *faultRig) runUnder(d *faultDev, kind lab.FaultKind, by func(*faultDev) time.Duration, args ...string) (out string, code int, took time.Duration, armed []lab.FaultKind) {
	delay := time.Duration(0)
	if by != nil {
		delay = by(d)
	}
	r.inject(d.name, kind, delay)
	start := time.Now()
	out, code = r.tf.run(args...)
	took = time.Since(start)
	armed = r.l.Faults(d.name)
	r.clear(d.name)
	return out, code, took, armed
}

func (r *faultRig) runPlanRow(d *faultDev, row planFault) {
	t := r.t
	out, code, took, _ := r.runUnder(d, row.kind, row.by, "plan", "-no-color", "-detailed-exitcode", "-input=false")
	o := faultOutcome{transport: d.transport, device: d.name, fault: row.fault, phase: "plan", first: firstError(out)}
	defer recordWhenDone(t, &o)
	switch row.want {
	case "error":
		re := regexp.MustCompile(row.errRe(d))
		if code != 1 || !re.MatchString(oneLine(out)) {
			t.Fatalf("plan under %s on %s exited %d, want 1 and an error matching %s:\n%s", row.fault, d.name, code, re, out)
		}
		o.result = "fails as expected"
	case "clean":
		if code != 0 {
			t.Fatalf("plan under %s on %s exited %d, want 0 (a read does not fire it):\n%s", row.fault, d.name, code, out)
		}
		o.result = fmt.Sprintf("succeeds, no changes (%.1fs)", took.Seconds())
		o.first = "(no error)"
	case "drift":
		if code != 2 || !strings.Contains(out, "# "+d.addr+" will be updated in-place") {
			t.Fatalf("plan after %s on %s exited %d, want 2 with %s to update:\n%s", row.fault, d.name, code, d.addr, out)
		}
		o.result = "plan shows drift (exit 2)"
		o.first = "(no error) # " + d.addr + " will be updated in-place"
		r.apply()
	}
	if code == 1 {
		t.Logf("%s/%s/plan: %s", d.name, row.fault, o.first)
	}
	// The fault cleared, the next plan is empty: the failed refresh recorded nothing.
	r.planShows(nil)
}

func (r *faultRig) runApplyRow(d *faultDev, row applyFault) {
	t := r.t
	v := r.ver[d.name]
	before := d.state()
	r.ver[d.name] = 1 - v
	r.write()
	r.tf.must("plan", "-no-color", "-input=false", "-out=fault.tfplan")
	out, code, took, armed := r.runUnder(d, row.kind, row.by, "apply", "-no-color", "-input=false", "fault.tfplan")
	o := faultOutcome{transport: d.transport, device: d.name, fault: row.fault, phase: "apply", first: firstError(out)}
	defer recordWhenDone(t, &o)
	// gNMI retries an Unavailable Set (the dropped one was not applied), NVUE an apply whose
	// revision it then finds still pending: the retry converges.
	retried := row.kind == lab.FaultDrop && (strings.HasPrefix(d.transport, "gNMI") || d.transport == "NVUE")
	if row.ok || retried {
		if retried && slices.Contains(armed, lab.FaultDrop) {
			t.Fatalf("the drop on %s never fired", d.name)
		}
		if code != 0 {
			t.Fatalf("apply under %s on %s exited %d, want success:\n%s", row.fault, d.name, code, out)
		}
		o.result = fmt.Sprintf("succeeds (%.1fs)", took.Seconds())
		switch {
		case retried && d.transport == "NVUE":
			o.result = "the dropped apply finds the revision pending, is sent again and succeeds"
		case retried:
			o.result = "the dropped Set is retried (Unavailable) and succeeds"
		}
		o.first = "(no error)"
		r.stateShows(d, 1-v)
		r.planShows(nil)
		r.noLeftovers(d)
		return
	}
	re := regexp.MustCompile(row.errRe(d))
	if code != 1 || !re.MatchString(oneLine(out)) {
		t.Fatalf("apply under %s on %s exited %d, want 1 and an error matching %s:\n%s", row.fault, d.name, code, re, out)
	}
	t.Logf("%s/%s/apply: %s\n%s", d.name, row.fault, o.first, out)
	// The device kept the old configuration, and the state says so.
	if after := d.state(); after != before {
		t.Fatalf("%s changed under a failed apply (%s):\nbefore:\n%s\nafter:\n%s", d.name, row.fault, before, after)
	}
	r.stateShows(d, v)
	// Cleared: the plan shows exactly the pending change, apply converges, the plan is empty.
	r.planShows(map[string]string{d.addr: "updated in-place"})
	r.apply()
	r.stateShows(d, 1-v)
	r.planShows(nil)
	r.noLeftovers(d)
	o.result = "fails, device unchanged, converges after clear"
}

// noLeftovers fails if a switch still holds a transaction of ours once an apply converged: an
// EOS configuration session (abandoned ones are removed when the provider next connects), an
// NX-OS checkpoint, or an NVUE revision pending, applying or refused (a refused one is
// detached: DESIGN.md, Cumulus Linux).
func (r *faultRig) noLeftovers(d *faultDev) {
	r.t.Helper()
	switch d.name {
	case "eos-1":
		if s := r.l.EOS(d.name).Sessions(); len(s) != 0 {
			r.t.Fatalf("configuration sessions left pending on %s: %v", d.name, s)
		}
	case "nxos-1":
		if c := r.l.NXOS(d.name).Checkpoints(); len(c) != 0 {
			r.t.Fatalf("checkpoints left on %s: %v", d.name, c)
		}
	case "cumulus-1":
		for id, state := range r.l.Cumulus(d.name).Revisions() {
			if state == "pending" || state == "apply" || state == "invalid" {
				r.t.Fatalf("revision %s left %s on %s: %v", id, state, d.name, r.l.Cumulus(d.name).Revisions())
			}
		}
	}
}

// resync brings the device and the state back to the configuration after a failed row, so
// one failure does not fail the rows after it.
func (r *faultRig) resync(d *faultDev) {
	r.clear(d.name)
	if d.name == "nxos-1" {
		if cps := r.l.NXOS("nxos-1").Checkpoints(); len(cps) > 0 {
			term := r.l.terminal(r.t, "nxos-1")
			for _, cp := range cps {
				term.typeLine("no checkpoint " + cp)
			}
		}
	}
	r.write()
	_, _ = r.tf.run("apply", "-no-color", "-auto-approve", "-input=false")
}

// Regexps of the diagnostics: Terraform's boxed text flattened to one line (oneLine).
func readErr(cause string) func(d *faultDev) string {
	return func(d *faultDev) string {
		return `Error: Cannot read .*on device "` + regexp.QuoteMeta(d.name) + `".*(` + cause + `)`
	}
}

func writeErr(cause string) func(d *faultDev) string {
	return func(d *faultDev) string {
		return `Error: Cannot update .*on device "` + regexp.QuoteMeta(d.name) + `".*(` + cause + `)`
	}
}

const (
	causeRefused = `connection reset by peer|refused|unreachable|EOF`
	causeTimeout = `timed out|timeout|deadline exceeded|DeadlineExceeded`
)

func slowOK(d *faultDev) time.Duration   { return d.slowOK }
func slowOver(d *faultDev) time.Duration { return d.slowOver }

func planFaults(host bool) []planFault {
	rows := []planFault{
		{fault: "refuse", kind: lab.FaultRefuse, want: "error", errRe: readErr(causeRefused)},
		{fault: "drop", kind: lab.FaultDrop, want: "clean"},
		{fault: "stall", kind: lab.FaultStall, want: "error", errRe: readErr(causeTimeout)},
		{fault: "reject", kind: lab.FaultReject, want: "clean"},
		{fault: "slow<timeout", kind: lab.FaultSlow, by: slowOK, want: "clean"},
		{fault: "slow>timeout", kind: lab.FaultSlow, by: slowOver, want: "error", errRe: readErr(causeTimeout)},
	}
	if host {
		// The host's boot units (persist, the default) write the settings again.
		rows = append(rows, planFault{fault: "reboot", kind: lab.FaultReboot, want: "clean"},
			planFault{fault: "driver-reload", kind: lab.FaultDriverReload, want: "clean"})
	}
	return rows
}

// applyFaults are the apply rows; cause holds each device's cause of a drop and a reject.
func applyFaults(dropCause, rejectCause func(d *faultDev) string) []applyFault {
	return []applyFault{
		{fault: "refuse", kind: lab.FaultRefuse, errRe: writeErr(causeRefused)},
		{fault: "drop", kind: lab.FaultDrop, errRe: func(d *faultDev) string { return writeErr(dropCause(d))(d) }},
		{fault: "stall", kind: lab.FaultStall, errRe: writeErr(causeTimeout)},
		{fault: "reject", kind: lab.FaultReject, errRe: func(d *faultDev) string { return writeErr(rejectCause(d))(d) }},
		{fault: "slow<timeout", kind: lab.FaultSlow, by: slowOK, ok: true},
		{fault: "slow>timeout", kind: lab.FaultSlow, by: slowOver, errRe: writeErr(causeTimeout)},
	}
}

func dropCause(d *faultDev) string {
	switch {
	case strings.HasPrefix(d.transport, "gNMI"):
		return `EOF|unreachable|Unavailable`
	case d.transport == "host SSH":
		return `without exit status|EOF|connection`
	}
	return `EOF|closed|connection|reset`
}

func rejectCause(d *faultDev) string {
	switch d.name {
	case "sonic-1":
		return `Failed\s+to\s+apply\s+patch`
	case "eos-1":
		return `%\s+Unavailable\s+command`
	case "nxos-1":
		return `Module\s+1\s+returned\s+status\s+"TCAM\s+region`
	case "cumulus-1":
		return `ended\s+invalid,\s+nothing\s+applied:\s+Config\s+invalid\s+at\s+router\.bgp\.enable:\s+BGP\s+requires\s+router-id`
	}
	return `Operation not permitted|Permission denied`
}

// rowOn makes t the rig's test for one row on d; the function it returns, deferred, brings d
// back in step with the state when the row failed.
func (r *faultRig) rowOn(t *testing.T, d *faultDev) func() {
	r.t, r.tf.t = t, t
	return func() {
		if t.Failed() {
			r.resync(d)
		}
	}
}

// matrix runs every plan and apply row for d, each as a subtest of the group.
func (r *faultRig) matrix(t *testing.T, d *faultDev) {
	host := d.transport == "host SSH"
	for _, row := range planFaults(host) {
		t.Run(d.name+"/plan/"+row.fault, func(t *testing.T) {
			defer r.rowOn(t, d)()
			r.runPlanRow(d, row)
		})
	}
	for _, row := range applyFaults(dropCause, rejectCause) {
		t.Run(d.name+"/apply/"+row.fault, func(t *testing.T) {
			defer r.rowOn(t, d)()
			r.runApplyRow(d, row)
		})
	}
	r.t, r.tf.t = t, t
}

// switchECN are a switch policy's two versions in the matrix: its roce class's ECN minimum,
// which ecnMark finds in a configuration.
var switchECN = [2]int{153600, 204800}

func ecnMark(v int) string { return fmt.Sprintf("min_threshold_bytes = %d", switchECN[v]) }

func sonicFaultDev(l *accLab) *faultDev {
	sw := l.SONiC("sonic-1")
	return &faultDev{
		name: "sonic-1", transport: "gNMI", addr: "roce_qos_policy.leaf",
		hcl:   func(v int) string { return sonicPolicyHCL(switchECN[v], `"Ethernet0", "Ethernet4"`) },
		mark:  ecnMark,
		state: func() string { return dbText(sw.DB()) },
		// one Get for the refresh, a Get and a Set for the update: each RPC is slowed.
		slowOK: 800 * time.Millisecond, slowOver: 4 * time.Second,
	}
}

// dbText is CONFIG_DB as sorted lines TABLE|KEY field=value.
func dbText(db map[string]map[string]map[string]string) string {
	var lines []string
	for table, keys := range db {
		for key, fields := range keys {
			for f, v := range fields {
				lines = append(lines, table+"|"+key+" "+f+"="+v)
			}
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func cliFaultDevs(l *accLab) (*faultDev, *faultDev) {
	return cliFaultDev(eosLeaf(l.EOS("eos-1")), `"Ethernet1", "Ethernet2"`), cliFaultDev(nxosLeaf(l.NXOS("nxos-1")), `"Ethernet1/1", "Ethernet1/2"`)
}

// cliFaultDev is a CLI switch's policy on ports, roce_qos_policy.<platform>; its state is the
// running-config.
func cliFaultDev(s cliLeaf, ports string) *faultDev {
	return &faultDev{
		name: s.device, transport: "CLI", addr: "roce_qos_policy." + s.platform,
		hcl: func(v int) string {
			return strings.Replace(s.policy(switchECN[v], ports), `"leaf"`, strconv.Quote(s.platform), 1)
		},
		mark:   ecnMark,
		state:  s.running,
		slowOK: 20 * time.Millisecond, slowOver: 4 * time.Second,
	}
}

// cumulusFaultDev: the applied NVUE configuration is the switch's own view (what
// `nv config show` prints, `rev=applied`).
func cumulusFaultDev(t *testing.T, l *accLab) *faultDev {
	sw := l.Cumulus("cumulus-1")
	return &faultDev{
		name: "cumulus-1", transport: "NVUE", addr: "roce_qos_policy.leaf",
		hcl:  func(v int) string { return cumulusPolicyHCL(switchECN[v], `"swp1", "swp2"`) },
		mark: ecnMark,
		state: func() string {
			b, err := json.MarshalIndent(sw.Applied(), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		},
		// the refresh is two GETs; the update two GETs, a revision, its staging, the apply and
		// its polls, each request slowed (the timeout is per request).
		slowOK: 300 * time.Millisecond, slowOver: 4 * time.Second,
	}
}

func hostFaultDev(t *testing.T, l *accLab) *faultDev {
	h := l.Host("mlx5-1")
	ets := [2]string{ets5050, ets4060}
	bw := [2]string{"50", "40"}
	return &faultDev{
		name: "mlx5-1", transport: "host SSH", addr: nicRes,
		hcl:   func(v int) string { return nicHCL("eth0", "3", ets[v]) },
		mark:  func(v int) string { return `bandwidth_percent = ` + bw[v] },
		state: func() string { return hostSettings(t, h) },
		// the refresh is one exec request, the update a read, a write and a read-back.
		slowOK: 500 * time.Millisecond, slowOver: 4 * time.Second,
	}
}

// TestAccFaultMatrixGNMI runs the matrix on a SONiC switch of each SKU the lab simulates: the
// two buffer models take different writes (buffermgrd rewrites the traditional model's lossless
// PGs after every applied Set), and a fault must leave either as it was.
func TestAccFaultMatrixGNMI(t *testing.T) {
	t.Parallel()
	for _, model := range lab.SONiCModels() {
		t.Run(model, func(t *testing.T) {
			t.Parallel()
			l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Models: map[string]string{"sonic": model}})
			d := sonicFaultDev(l)
			d.transport = "gNMI " + model
			runFaultMatrixOn(t, l, d)
		})
	}
}

// runFaultMatrixOn applies d's configuration on its own, checks the plan after it is empty,
// and runs the matrix on it.
func runFaultMatrixOn(t *testing.T, l *accLab, d *faultDev) {
	r := newFaultRigOn(t, l, d)
	r.write()
	r.tf.must("init", "-no-color", "-input=false")
	r.apply()
	r.planShows(nil)
	r.matrix(t, d)
	logFaultOutcomes(t, d.transport)
}

func TestAccFaultMatrixCLI(t *testing.T) {
	t.Parallel()
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 1, "nxos": 1}})
	e, n := cliFaultDevs(l)
	r := newFaultRigOn(t, l, e, n)
	r.write()
	r.tf.must("init", "-no-color", "-input=false")
	r.oneDown(t, n, e)
	r.matrix(t, e)
	r.matrix(t, n)
	logFaultOutcomes(t, "CLI")
}

// TestAccFaultMatrixNVUE runs the matrix on a Cumulus switch over NVUE's REST API: each write
// is one revision, so a fault leaves the applied configuration whole.
func TestAccFaultMatrixNVUE(t *testing.T) {
	t.Parallel()
	l := startLab(t, lab.Options{Switches: map[string]int{"cumulus": 1}})
	runFaultMatrixOn(t, l, cumulusFaultDev(t, l))
}

func TestAccFaultMatrixHostSSH(t *testing.T) {
	t.Parallel()
	l := startLab(t, lab.Options{Switches: map[string]int{}, Hosts: map[string]int{"mlx5": 1}})
	runFaultMatrixOn(t, l, hostFaultDev(t, l))
}

func newFaultRigOn(t *testing.T, l *accLab, devs ...*faultDev) *faultRig {
	dir := t.TempDir()
	return &faultRig{t: t, l: l, tf: newTFCLI(t, dir), dir: dir, devs: devs, ver: map[string]int{}}
}

// oneDown is the first apply of the group with down refusing connections: the healthy
// device's resource is created, only down's is reported, and the state holds only the
// healthy one; once down is back the next apply creates the rest and the plan is empty.
func (r *faultRig) oneDown(t *testing.T, down, healthy *faultDev) {
	o := faultOutcome{transport: down.transport, device: down.name + " down, " + healthy.name + " healthy", fault: "refuse", phase: "apply (create)"}
	defer recordWhenDone(t, &o)
	r.inject(down.name, lab.FaultRefuse, 0)
	out, code := r.tf.run("apply", "-no-color", "-auto-approve", "-input=false")
	r.clear(down.name)
	o.first = firstError(out)
	re := regexp.MustCompile(`Error: Cannot create .*on device "` + down.name + `".*(` + causeRefused + `)`)
	if code != 1 || !re.MatchString(oneLine(out)) {
		t.Fatalf("apply with %s refusing exited %d, want 1 and %s:\n%s", down.name, code, re, out)
	}
	if strings.Contains(out, `on device "`+healthy.name+`"`) {
		t.Fatalf("the healthy %s reported an error:\n%s", healthy.name, out)
	}
	list := r.tf.must("state", "list")
	if strings.TrimSpace(list) != healthy.addr {
		t.Fatalf("state holds %q, want only %s", list, healthy.addr)
	}
	r.stateShows(healthy, 0)
	r.planShows(map[string]string{down.addr: "created"})
	r.apply()
	r.planShows(nil)
	o.result = "healthy created, failed one reported, converges after clear"
}

func logFaultOutcomes(t *testing.T, transport string) {
	faultOutcomesMu.Lock()
	defer faultOutcomesMu.Unlock()
	var b strings.Builder
	for _, o := range faultOutcomes {
		if o.transport != transport {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", o.transport, o.device, o.fault, o.phase, o.result, o.first)
	}
	t.Logf("fault matrix, %s:\n%s", transport, b.String())
	if f := os.Getenv("ROCE_FAULT_MATRIX_OUT"); f != "" {
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			_, _ = fh.WriteString(b.String())
			_ = fh.Close()
		}
	}
}
