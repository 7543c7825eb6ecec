package mlx5

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// host is a temporary /sys tree and stub commands to run the scripts through a real /bin/sh.
type host struct {
	t         *testing.T
	root, log string
	env       []string
}

// Stubs: sudo logs and runs its command (proving which commands are privileged), mlnx_qos logs
// its argv one argument per line and prints the report, pgrep finds nothing.
var stubs = map[string]string{
	"sudo":         `[ "$1" = -n ] || exit 9; shift; echo "sudo $1" >> "$STUB_LOG"; exec "$@"`,
	"mlnx_qos":     `echo "mlnx_qos ($#)" >> "$STUB_LOG"; for a in "$@"; do printf '%s\n' "$a" >> "$STUB_LOG"; done; cat "$STUB_REPORT"`,
	"pgrep":        `exit 1`,
	"cma_roce_tos": `exit 0`,
}

// newHost builds the tree under a root whose name holds a blank and a single quote, so every
// path in the scripts needs quoting, inside the single-quoted sh -c script.
func newHost(t *testing.T, ifname string) *host {
	base := t.TempDir()
	h := &host{t: t, root: filepath.Join(base, "it's root"), log: filepath.Join(base, "log")}
	bin := filepath.Join(base, "bin")
	for name, body := range stubs {
		h.file(filepath.Join(bin, name), "#!/bin/sh\n"+body+"\n", 0o755)
	}
	full := string(fixture(t, "read-full.txt"))
	report := full[strings.Index(full, "@@mlnx_qos\n")+len("@@mlnx_qos\n") : strings.Index(full, "@@uevent")]
	h.file(filepath.Join(base, "report"), report, 0o644)
	h.env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "STUB_LOG="+h.log, "STUB_REPORT="+filepath.Join(base, "report"))

	net := h.root + "/sys/class/net/" + ifname
	h.file(net+"/device/uevent", "DRIVER=mlx5_core\nPCI_SLOT_NAME=0000:3b:00.0\n", 0o644)
	h.file(net+"/device/infiniband/mlx5_0/tc/1/traffic_class", "Global tclass=96\n", 0o644)
	h.file(h.root+"/sys/class/net/lo/mtu", "65536\n", 0o644)
	for _, point := range []string{pointRP, pointNP} {
		for p := range 8 {
			h.file(net+"/ecn/"+point+"/enable/"+itoa(p), map[bool]string{true: "1\n", false: "0\n"}[p == 5], 0o644)
		}
	}
	for _, pci := range []string{"0000:3b:00.0", "0000:3b:00.1"} {
		for i, f := range ccOrder {
			h.file(h.root+"/sys/kernel/debug/mlx5/"+pci+"/cc_params/"+f, itoa(i+len(pci)%3)+"\n", 0o600)
		}
	}
	return h
}

func (h *host) file(path, content string, mode os.FileMode) {
	h.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		h.t.Fatal(err)
	}
}

// run runs cmd (built on h.root) as an SSH exec would hand it to the login shell, returning
// stdout+stderr as a host would print it (the paths without h.root) and the log of stubbed
// commands, which it then clears.
func (h *host) run(cmd string) (string, string, error) {
	h.t.Helper()
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Env = h.env
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	log, _ := os.ReadFile(h.log)
	_ = os.Remove(h.log)
	return h.unroot(out.String()), string(log), err
}

// unroot takes h.root out of a script's output: the paths as the host names them.
func (h *host) unroot(out string) string { return strings.ReplaceAll(out, h.root, "") }

// tree returns every file under the root with its content.
func (h *host) tree() map[string]string {
	h.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(h.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[strings.TrimPrefix(p, h.root)] = string(b)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

func TestScriptsRunInRealShell(t *testing.T) {
	for _, sudo := range []bool{true, false} {
		t.Run(map[bool]string{true: "sudo", false: "nosudo"}[sudo], func(t *testing.T) {
			h := newHost(t, "eth0")
			out, log, err := h.run(readScript(h.root, "eth0", sudo))
			if err != nil {
				t.Fatalf("read: %v\n%s", err, out)
			}
			if want := map[bool]string{true: "sudo sh\nmlnx_qos (3)\n-i\neth0\n-a\n", false: "mlnx_qos (3)\n-i\neth0\n-a\n"}[sudo]; log != want {
				t.Errorf("read ran:\n%s\nwant:\n%s", log, want)
			}
			s, err := ParseRead("eth0", []byte(out))
			if err != nil {
				t.Fatal(err)
			}
			if s.QoSError != nil || s.PCIAddress != "0000:3b:00.0" || s.RDMADev != "mlx5_0" || s.RoCEToS == nil || *s.RoCEToS != 96 ||
				s.RP != [8]int{0, 0, 0, 0, 0, 1, 0, 0} || len(s.CCParams) != 20 || s.CCParams["np_cnp_dscp"] != 17 ||
				!cmp.Equal(s.Netdevs, []string{"eth0", "lo"}) || len(s.Errors) != 0 {
				t.Fatalf("read state: %+v\noutput:\n%s", s, out)
			}
			before := h.tree()

			nic, d := contractNIC(), contractDCQCN()
			out, log, err = h.run(applyScript(h.root, "eth0", s, &nic, &d, sudo))
			if err != nil {
				t.Fatalf("apply: %v\n%s", err, out)
			}
			checkApplyLog(t, log, sudo)
			after := h.tree()
			net := "/sys/class/net/eth0"
			cc := "/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/"
			for path, want := range map[string]string{
				net + "/device/infiniband/mlx5_0/tc/1/traffic_class": "106\n",
				net + "/ecn/roce_rp/enable/3":                        "1\n", net + "/ecn/roce_np/enable/3": "1\n", net + "/ecn/roce_rp/enable/5": "0\n",
				cc + "np_cnp_dscp": "48\n", cc + "np_cnp_prio": "6\n", cc + "rp_byte_reset": "32767\n", cc + "np_min_time_between_cnps": "4\n",
				cc + "np_cnp_prio_mode": before[cc+"np_cnp_prio_mode"], // not written by apply
				"/sys/kernel/debug/mlx5/0000:3b:00.1/cc_params/np_cnp_dscp": before["/sys/kernel/debug/mlx5/0000:3b:00.1/cc_params/np_cnp_dscp"],
			} {
				if after[path] != want {
					t.Errorf("after apply %s = %q, want %q", path, after[path], want)
				}
			}

			if out, _, err = h.run(restoreScript(h.root, "eth0", s.Snapshot(&nic, &d), s, sudo)); err != nil {
				t.Fatalf("restore: %v\n%s", err, out)
			}
			restored := h.tree()
			tc := net + "/device/infiniband/mlx5_0/tc/1/traffic_class"
			if restored[tc] != "96\n" { // the driver would print it back as "Global tclass=96"
				t.Errorf("traffic_class = %q", restored[tc])
			}
			delete(restored, tc)
			delete(before, tc)
			if diff := cmp.Diff(before, restored); diff != "" {
				t.Errorf("restore left differences (-before +after):\n%s", diff)
			}
		})
	}
}

func checkApplyLog(t *testing.T, log string, sudo bool) {
	t.Helper()
	var want []string
	mlnx := func(args ...string) {
		if sudo {
			want = append(want, "sudo mlnx_qos")
		}
		want = append(want, "mlnx_qos ("+itoa(len(args))+")")
		want = append(want, args...)
	}
	mlnx("-i", "eth0", "--trust", "dscp", "--pfc", "0,0,0,1,0,0,0,0", "-p", "0,0,0,3,0,0,6,0",
		"-s", "ets,ets,ets,ets,ets,ets,strict,ets", "-t", "50,0,0,50,0,0,0,0")
	args := []string{"-i", "eth0"}
	for dscp := range 64 {
		args = append(args, "--dscp2prio", "set,"+itoa(dscp)+","+itoa(map[int]int{26: 3, 48: 6}[dscp]))
	}
	mlnx(args...)
	if sudo {
		for range 1 + 16 + 19 { // traffic_class, 16 ecn enables, 19 cc_params files
			want = append(want, "sudo tee")
		}
	}
	if diff := cmp.Diff(strings.Join(want, "\n")+"\n", log); diff != "" {
		t.Errorf("apply ran (-want +got):\n%s", diff)
	}
}

// Names a caller failed to validate still reach the commands as one literal argument.
func TestScriptQuotingHostileName(t *testing.T) {
	name := `e'x $(touch pwned);"q"`
	h := newHost(t, name)
	out, log, err := h.run(readScript(h.root, name, true))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "sudo sh\nmlnx_qos (3)\n-i\n" + name + "\n-a\n"; log != want {
		t.Errorf("mlnx_qos got:\n%s\nwant:\n%s", log, want)
	}
	s, err := ParseRead(name, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if s.PCIAddress != "0000:3b:00.0" || s.RP[5] != 1 || s.RoCEToS == nil {
		t.Errorf("state: %+v", s)
	}
	if _, err := os.Stat("pwned"); err == nil {
		t.Fatal("command substitution ran")
	}
}

// The first failing command stops the write and fails it, naming the file.
func TestApplyFailsFast(t *testing.T) {
	h := newHost(t, "eth0")
	s := readFixture(t, "read-full.txt")
	s.PCIAddress = "0000:ff:00.0" // no such debugfs directory
	d := contractDCQCN()
	out, _, err := h.run(applyScript(h.root, "eth0", s, nil, &d, true))
	if err == nil || !strings.Contains(out, "0000:ff:00.0/cc_params/rp_clamp_tgt_rate") {
		t.Fatalf("err %v, output:\n%s", err, out)
	}
	if strings.Contains(out, "rp_clamp_tgt_rate_ati") {
		t.Errorf("commands after the failure ran:\n%s", out)
	}
	if got := h.tree()["/sys/class/net/eth0/ecn/roce_rp/enable/3"]; got != "1\n" {
		t.Errorf("the writes before the failure did not run: %q", got)
	}
}
