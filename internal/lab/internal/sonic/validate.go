package sonic

// Whole-document validation of a candidate CONFIG_DB, as SONiC's YANG validation checks the
// configuration a change would produce (not the change alone): unknown tables and fields, value
// types and ranges, leafrefs in both directions (a QUEUE naming a missing SCHEDULER, and so
// deleting a SCHEDULER a QUEUE still names), mandatory fields and the models' `must` rules.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// validateDB returns every violation in d, sorted by table, key and field, each as
// "TABLE|key|field: what is wrong (model)".
func validateDB(d configDB) []string {
	var out []string
	add := func(where, msg, yang string) {
		out = append(out, fmt.Sprintf("%s: %s (%s)", where, msg, yang))
	}
	for _, table := range slices.Sorted(maps.Keys(d)) {
		s, ok := sonicTables[table]
		if !ok {
			out = append(out, fmt.Sprintf("%s: unknown table; this switch's CONFIG_DB holds %s",
				table, strings.Join(slices.Sorted(maps.Keys(sonicTables)), ", ")))
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(d[table])) {
			where := table + "|" + key
			if err := s.key(d, key); err != nil {
				add(where, "key "+err.Error(), s.yang)
			}
			fields := d[table][key]
			for _, name := range slices.Sorted(maps.Keys(fields)) {
				if err := s.checkField(d, name, fields[name]); err != nil {
					add(where+"|"+name, err.Error(), s.yang)
				}
			}
			for _, name := range s.mandatory {
				if _, ok := fields[name]; !ok {
					add(where+"|"+name, "mandatory field is missing", s.yang)
				}
			}
			if s.object != nil {
				for _, is := range s.object(d, key, fields) {
					add(where+"|"+is.field, is.msg, s.yang)
				}
			}
		}
	}
	return out
}

func (s tableSchema) checkField(d configDB, name, value string) error {
	if s.fields == nil {
		if err := s.field(d, name); err != nil {
			return fmt.Errorf("field name %w", err)
		}
		return s.value(d, value)
	}
	c, ok := s.fields[name]
	if !ok {
		return fmt.Errorf("unknown field; known: %s", strings.Join(slices.Sorted(maps.Keys(s.fields)), ", "))
	}
	return c(d, value)
}

// number reads a field already checked to be an unsigned integer; ok is false when it is
// absent or not one (its own check reports that).
func number(f map[string]string, name string) (uint64, bool) {
	v, present := f[name]
	if !present {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 64)
	return n, err == nil
}

// atLeast is YANG's `must "current() >= current()/../other"`: false, so a violation, when the
// other leaf is absent (an XPath comparison with an empty node-set), as libyang evaluates it.
func atLeast(f map[string]string, name, other, msg string) []issue {
	if _, set := f[name]; !set {
		return nil
	}
	if _, set := f[other]; !set {
		return []issue{{name, msg + "; " + other + " is not set"}}
	}
	a, okA := number(f, name)
	b, okB := number(f, other)
	if okA && okB && a < b {
		return []issue{{name, fmt.Sprintf("%s (%d < %d)", msg, a, b)}}
	}
	return nil
}

// schedulerRules: sonic-scheduler.yang's `must` rules on the shaper, plus the lab's rule that a
// weighted scheduler names its weight (the model defaults type to WRR and weight to 1, which
// would silently give a forgotten weight the smallest share).
func schedulerRules(_ configDB, _ string, f map[string]string) []issue {
	var out []issue
	// sonic-scheduler.yang's must rules, with their error-messages.
	if _, ok := f["pir"]; ok {
		if r, _ := number(f, "cir"); r == 0 {
			out = append(out, issue{"pir", "pir can't be configured without cir."})
		}
	}
	if _, ok := f["cir"]; ok {
		out = append(out, atLeast(f, "pir", "cir", "pir must be greater than or equal to cir when cir is configured")...)
	}
	for _, p := range []struct{ burst, rate string }{{"cbs", "cir"}, {"pbs", "pir"}} {
		if _, ok := f[p.burst]; ok {
			if r, _ := number(f, p.rate); r == 0 {
				out = append(out, issue{p.burst, p.burst + " can't be configured without " + p.rate + "."})
			}
		}
	}
	if _, ok := f["cbs"]; ok {
		out = append(out, atLeast(f, "pbs", "cbs", "pbs must be greater than or equal to cbs")...)
	}
	return out
}

// wredRules: each colour's max threshold is at least its min (drop and ECN-marking thresholds
// alike), and ECN-marking leaves need their colour enabled in `ecn`.
func wredRules(_ configDB, _ string, f map[string]string) []issue {
	var out []issue
	ecn := f["ecn"]
	if ecn == "" {
		ecn = "ecn_none"
	}
	for _, c := range wredColours {
		title := strings.ToUpper(c[:1]) + c[1:]
		out = append(out, atLeast(f, c+"_max_threshold", c+"_min_threshold",
			title+" max threshold must be greater than or equal to min threshold")...)
		out = append(out, atLeast(f, "ecn_"+c+"_max_threshold", "ecn_"+c+"_min_threshold",
			"ECN "+c+" max threshold must be greater than or equal to ECN "+c+" min threshold")...)
		marks := ecn == "ecn_all" || slices.Contains(strings.Split(strings.TrimPrefix(ecn, "ecn_"), "_"), c)
		for _, leaf := range []string{"min_threshold", "max_threshold", "mark_probability"} {
			name := "ecn_" + c + "_" + leaf
			if _, set := f[name]; set && !marks {
				out = append(out, issue{name, name + " requires " + c + " ECN marking enabled in 'ecn' (ecn is " + ecn + ")"})
			}
		}
	}
	return out
}

func bufferPoolRules(d configDB, _ string, f map[string]string) []issue {
	if _, ok := f["percentage"]; !ok {
		return nil
	}
	var out []issue
	if _, ok := f["size"]; ok {
		out = append(out, issue{"percentage", "Percentage should not be configured along with size"})
	}
	if d.fields("DEVICE_METADATA", "localhost")["buffer_model"] != "dynamic" {
		out = append(out, issue{"percentage", "Percentage must be configured in dynamic buffer model"})
	}
	return out
}

// pfcwdRules: GLOBAL carries only POLL_INTERVAL and ports everything else; a port's times are
// at least the poll interval.
func pfcwdRules(d configDB, key string, f map[string]string) []issue {
	var out []issue
	for name := range f {
		if (key == "GLOBAL") != (name == "POLL_INTERVAL") {
			where := "a port's PFC_WD entry"
			if key == "GLOBAL" {
				where = "PFC_WD|GLOBAL, only on a port"
			}
			out = append(out, issue{name, name + " is not allowed on " + where})
		}
	}
	global, ok := d["PFC_WD"]["GLOBAL"]
	if key == "GLOBAL" || !ok {
		return out
	}
	poll, pollOK := number(global, "POLL_INTERVAL")
	for _, name := range []string{"detection_time", "restoration_time"} {
		t, ok := number(f, name)
		switch {
		case !ok:
		case !pollOK:
			out = append(out, issue{name, name + " must be greater than or equal to POLL_INTERVAL; PFC_WD|GLOBAL has no valid POLL_INTERVAL"})
		case t < poll:
			out = append(out, issue{name, fmt.Sprintf("%s must be greater than or equal to POLL_INTERVAL (%d < PFC_WD|GLOBAL|POLL_INTERVAL %d)", name, t, poll)})
		}
	}
	slices.SortFunc(out, func(a, b issue) int { return strings.Compare(a.field, b.field) })
	return out
}
