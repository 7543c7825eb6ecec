package provider

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
)

// inputValidators are the regexps that decide whether a string may reach a CLI line, a shell
// command or a device object name: names from the configuration, and names read back from a
// device that later commands use. Each must be anchored at both ends and refuse every hostile
// name (lengths are checked apart, see tooLong).
var inputValidators = []string{
	"devices/devices.go NamePattern",             // device names (provider `devices` keys)
	"fabric/qos_validate.go namePattern",         // policy and class names
	"fabric/qos_validate.go interfacePattern",    // switch ports
	"fabric/host_validate.go netdevPattern",      // NIC netdevs
	"fabric/host_validate.go keyPattern",         // numeric map keys
	"platform/sonic/support.go objectName",       // SONiC CONFIG_DB object names
	"platform/nxos/policy.go className",          // NX-OS class-map names
	"platform/mlx5/read.go rdmaDevPattern",       // RDMA device read from the host, used mid-path
	"platform/mlx5/firmware.go FirmwareName",     // mlxconfig parameter names, sent in set
	"platform/mlx5/firmware.go FirmwareValue",    // mlxconfig values, sent in set
	"transport/cli/checkpoints.go ourCheckpoint", // checkpoint read from the switch, then deleted
	"platform/cumulus/support.go profileName",    // NVUE profile names, in paths and bodies
	"platform/cumulus/support.go portName",       // Cumulus ports, in NVUE paths
	"platform/eos/counters.go portName",          // EOS ports, in the counters' show commands
	"platform/nxos/counters.go portName",         // NX-OS ports, in the counters' show command
	"platform/perftest/perftest.go deviceName",   // RDMA device given to perftest's -d
}

// outputParsers are the other regexps: they parse what devices print and never decide what is
// sent. Listed so that a new regexp must be put in one list or the other.
var outputParsers = []string{
	"platform/nxos/chassis.go reChassis", "platform/nxos/lldp.go reLLDPField",
	"platform/nxos/counters.go reQoSGroup", "platform/nxos/counters.go reDropRow", "platform/nxos/counters.go rePFCRow", "platform/nxos/counters.go reIngressFor", "platform/nxos/counters.go reEgressFor", "platform/mlx5/counters.go rePause", "platform/mlx5/counters.go reHWLine", "platform/mlx5/counters.go reStatLine",
	"platform/mlx5/mlnxqos.go reBuffers", "platform/mlx5/mlnxqos.go reCableLen", "platform/mlx5/mlnxqos.go reDSCPRow",
	"platform/mlx5/mlnxqos.go reDefPrio", "platform/mlx5/mlnxqos.go rePFCHeader", "platform/mlx5/mlnxqos.go rePFCRow",
	"platform/mlx5/mlnxqos.go rePrioLine", "platform/mlx5/mlnxqos.go reTC", "platform/mlx5/mlnxqos.go reTSA",
	"platform/mlx5/mlnxqos.go reNetlink", "platform/mlx5/read.go reCCValue", "platform/mlx5/read.go reECNValue",
	"platform/mlx5/read.go reGlobalTC", "platform/mlx5/read.go reGrepErr", "platform/mlx5/read.go reToSValue",
	"platform/mlx5/read.go reToolError", "platform/mlx5/read.go reUnitLine", "transport/cli/checkpoints.go checkpointHeader",
	"transport/cli/session.go s.re", // scrapligo's prompt pattern
	"platform/perftest/perftest.go bwHeader", "platform/perftest/perftest.go latHeader",
}

// compiledRegexps finds every regexp.MustCompile in the non-test sources under internal/{dirs}:
// "dir/file.go name" (the variable or field assigned) to the pattern ("" when not a literal).
func compiledRegexps(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		root := filepath.Join("..", dir)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("..", p)
			record := func(name string, call ast.Expr) {
				c, ok := call.(*ast.CallExpr)
				if !ok || len(c.Args) != 1 {
					return
				}
				if sel, ok := c.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "MustCompile" {
					return
				}
				pattern := ""
				if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					pattern, _ = strconv.Unquote(lit.Value)
				}
				out[filepath.ToSlash(rel)+" "+name] = pattern
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					for i, v := range n.Values {
						record(n.Names[i].Name, v)
					}
				case *ast.AssignStmt:
					for i, v := range n.Rhs {
						if i < len(n.Lhs) {
							record(exprString(n.Lhs[i]), v)
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return "?"
}

// anchored reports whether the whole pattern is ^(...)$: begin and end of text (not of line),
// around everything, so no alternative escapes an anchor and no newline ends a match early.
func anchored(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	return re.Op == syntax.OpConcat && len(re.Sub) >= 2 &&
		re.Sub[0].Op == syntax.OpBeginText && re.Sub[len(re.Sub)-1].Op == syntax.OpEndText
}

// TestSecurityAnchoredPatterns: every input validator in internal/devices, fabric, platform and
// transport is anchored at both ends of the text and refuses every hostile name; every other
// regexp there is a known output parser.
func TestSecurityAnchoredPatterns(t *testing.T) {
	found := compiledRegexps(t, "devices", "fabric", "platform", "transport")
	for where, pattern := range found {
		if !slices.Contains(inputValidators, where) && !slices.Contains(outputParsers, where) {
			t.Errorf("%s compiles %q: add it to inputValidators (it decides what reaches a device) or outputParsers", where, pattern)
		}
	}
	for _, where := range inputValidators {
		pattern, ok := found[where]
		switch {
		case !ok:
			t.Errorf("%s: no such regexp.MustCompile any more; update inputValidators", where)
			continue
		case !anchored(pattern):
			t.Errorf("%s: %q is not anchored at both ends (^...$, without (?m))", where, pattern)
		}
		re := regexp.MustCompile(pattern)
		for _, s := range hostileNames {
			// An RDMA device name only ever sits inside a path, where a leading '-' is no option.
			if where == "platform/mlx5/read.go rdmaDevPattern" && strings.HasPrefix(s, "-") {
				continue
			}
			if re.MatchString(s) {
				t.Errorf("%s: %q accepts the hostile name %q", where, pattern, s)
			}
		}
	}
	for _, bad := range []string{`[a-z]+`, `^[a-z]+`, `[a-z]+$`, `^a|b$`, `(?m)^[a-z]+$`} {
		if anchored(bad) {
			t.Errorf("anchored(%q) = true; the check itself is broken", bad)
		}
	}
	// The exported validators are those patterns, with their lengths.
	for _, s := range allHostile() {
		if devices.NamePattern.MatchString(s) || fabric.ValidNetdevName(s) || mlx5.ValidNetdev(s) {
			t.Errorf("an exported validator accepts %q", s)
		}
	}
}

// TestSecurityShellQuoting: the mlx5 scripts, run by the real /bin/sh, pass each hostile name
// to the tools as one literal argument, even when the caller skipped validation; nothing the
// name holds is executed, redirected or expanded.
func TestSecurityShellQuoting(t *testing.T) {
	bin := t.TempDir()
	// mlnx_qos and ethtool stand-ins record their arguments, NUL-separated, one call per record.
	tool := "#!/bin/sh\n{ printf '%s\\0' \"$(basename \"$0\")\" \"$@\"; printf '\\n'; } >> \"$SEC_LOG\"\n"
	for _, name := range []string{"mlnx_qos", "ethtool"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(tool), 0o700); err != nil { // #nosec G306 -- an executable stand-in
			t.Fatal(err)
		}
	}
	nic := &fabric.NICQoS{Trust: fabric.TrustPCP, PFCPriorities: []int{3}}
	for _, name := range hostileNames {
		work := t.TempDir()
		logPath := filepath.Join(t.TempDir(), "calls")
		for _, c := range []struct {
			script string
			want   []string
		}{
			{mlx5.ReadScript(name, false), []string{"mlnx_qos", "-i", name, "-a"}},
			{mlx5.CountersScript([]string{name}, false), []string{"ethtool", "-S", name}},
			{mlx5.ApplyScript(name, &mlx5.HostState{}, nic, nil, false), []string{"mlnx_qos", "-i", name, "--trust", "pcp", "--pfc", "0,0,0,1,0,0,0,0"}},
		} {
			_ = os.Remove(logPath)
			cmd := exec.Command("/bin/sh", "-c", c.script) // #nosec G204 -- the script under test
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "SEC_LOG="+logPath)
			_ = cmd.Run() // reads of /sys paths that do not exist fail; that is fine
			calls, _ := os.ReadFile(logPath)
			got := strings.Split(strings.TrimSuffix(string(bytes.TrimSuffix(calls, []byte("\n"))), "\x00"), "\x00")
			if !slices.Equal(got, c.want) {
				t.Errorf("name %q: the tools were called with %q, want %q\nscript: %s", name, got, c.want, c.script)
			}
		}
		if left, _ := os.ReadDir(work); len(left) != 0 {
			t.Errorf("name %q: the scripts created %v in their working directory", name, left)
		}
	}
}
