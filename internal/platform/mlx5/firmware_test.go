package mlx5

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A read on a host with mstflint only (mlxconfig not found), in mstflint 4.21's layout.
const fwReadMst = `@@device mlx5_0
@@tool mlxconfig
sh: 1: mlxconfig: not found
@@tool mstconfig

Device #1:
----------

Device type:    ConnectX5       
Name:           MCX556A-ECA_Ax  
Description:    ConnectX-5 VPI adapter card; EDR IB (100Gb/s) and 100GbE; dual-port QSFP28; PCIe3.0 x16; tall bracket; ROHS R6
Device:         mlx5_0          

Configurations:                              Default         Current         Next Boot
         NUM_OF_VFS                          0               0               0               
*        LINK_TYPE_P1                        ETH(2)          ETH(2)          IB(1)           
*        ROCE_CC_PRIO_MASK_P1                255             8               8               
         PCI_ATOMIC_MODE                     PCI_ATOMIC_DISABLED_EXT_ATOMIC_ENABLED(0) PCI_ATOMIC_DISABLED_EXT_ATOMIC_ENABLED(0) PCI_ATOMIC_DISABLED_EXT_ATOMIC_ENABLED(0)
The '*' shows parameters with next value different from default/current value.
@@end
`

func TestParseFirmwareRead(t *testing.T) {
	st, err := ParseFirmwareRead("eth0", []byte(fwReadMst))
	if err != nil {
		t.Fatal(err)
	}
	if st.Tool != "mstconfig" || st.Device != "mlx5_0" || len(st.Order) != 4 {
		t.Fatalf("%+v", st)
	}
	if p := st.Params["LINK_TYPE_P1"]; p != (FirmwareParam{Default: "ETH(2)", Current: "ETH(2)", Next: "IB(1)"}) {
		t.Errorf("LINK_TYPE_P1 = %+v", p)
	}
	if p := st.Params["PCI_ATOMIC_MODE"]; p.Next != "PCI_ATOMIC_DISABLED_EXT_ATOMIC_ENABLED(0)" {
		t.Errorf("a value wider than its column: %+v", p)
	}
	for out, want := range map[string]string{
		"@@device mlx5_0\n@@tool mlxconfig\nsh: 1: mlxconfig: not found\n@@tool mstconfig\nsh: 1: mstconfig: not found\n@@end\n": "neither mlxconfig (NVIDIA MFT) nor mstconfig",
		"sudo: a password is required\n":                                        "sudo -n refused",
		"sh: 1: cd: can't cd to /sys/class/net/eth0/device/infiniband\n@@end\n": "has no RDMA device",
		"@@device mlx5_0\n@@tool mlxconfig\nsh: 1: mlxconfig: not found\n@@tool mstconfig\n-E- Failed to open the device\n@@end\n":              "mstconfig -d mlx5_0 -e q: Failed to open the device",
		"@@device mlx5_0\n@@tool mlxconfig\nsh: 1: mlxconfig: not found\n@@tool mstconfig\nConfigurations:   Next Boot\n  A B C D E F\n@@end\n": "unreadable row",
	} {
		if _, err := ParseFirmwareRead("eth0", []byte(out)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFirmwareRead(%q) = %v, want %q", out, err, want)
		}
	}
}

func TestFirmwareValues(t *testing.T) {
	for _, c := range []struct {
		want, shown string
		eq          bool
	}{
		{"ETH(2)", "ETH(2)", true}, {"2", "ETH(2)", true}, {"eth", "ETH(2)", true}, {"IB", "ETH(2)", false},
		{"0x08", "8", true}, {"8", "255", false}, {"True", "True(1)", true}, {"1", "True(1)", true}, {"false", "True(1)", false},
	} {
		if got := FirmwareEqual(c.want, c.shown); got != c.eq {
			t.Errorf("FirmwareEqual(%q, %q) = %v", c.want, c.shown, got)
		}
	}
	st := &FirmwareState{Tool: "mstconfig", Device: "mlx5_0"}
	got := FirmwareSetScript(st, map[string]string{"LINK_TYPE_P1": "ETH(2)", "CNP_DSCP_P1": "0x1a"}, []string{"CNP_DSCP_P1", "LINK_TYPE_P1"}, true)
	if want := "sh -c 'sudo -n mstconfig -d mlx5_0 -y set CNP_DSCP_P1=0x1a LINK_TYPE_P1=2'"; got != want {
		t.Errorf("set script %s, want %s (the tools refuse NAME(n): its number is sent)", got, want)
	}
	for _, bad := range []string{"48; reboot", "$(x)", "a b", "ETH(2", ""} {
		if FirmwareValue.MatchString(bad) {
			t.Errorf("FirmwareValue accepts %q", bad)
		}
	}
}

// On a host with both tools the query runs mlxconfig only; mstconfig runs when mlxconfig is
// absent or its query fails. Through a real /bin/sh with stub tools that log their runs.
func TestFirmwareReadRunsOneTool(t *testing.T) {
	table := fwReadMst[strings.Index(fwReadMst, "@@tool mstconfig\n")+len("@@tool mstconfig\n") : strings.Index(fwReadMst, "@@end")]
	for _, c := range []struct {
		name      string
		mlxconfig string // the stub's body; "" leaves the tool out
		want      string // the log
		tool      string
	}{
		{"both", `echo mlxconfig >> "$STUB_LOG"; ` + printTable, "mlxconfig\n", "mlxconfig"},
		{"mlxconfig fails", `echo mlxconfig >> "$STUB_LOG"; echo "-E- Failed to open the device"; exit 3`, "mlxconfig\nmstconfig\n", "mstconfig"},
		{"mstflint only", "", "mstconfig\n", "mstconfig"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHost(t, "eth0")
			bin := filepath.Join(filepath.Dir(h.root), "bin")
			h.file(filepath.Join(filepath.Dir(h.root), "table"), table, 0o644)
			h.env = append(h.env, "STUB_TABLE="+filepath.Join(filepath.Dir(h.root), "table"))
			h.file(filepath.Join(bin, "mstconfig"), "#!/bin/sh\necho mstconfig >> \"$STUB_LOG\"; "+printTable+"\n", 0o755)
			if c.mlxconfig != "" {
				h.file(filepath.Join(bin, "mlxconfig"), "#!/bin/sh\n"+c.mlxconfig+"\n", 0o755)
			} else {
				h.env = withoutTool(h.env, "mlxconfig") // a host without MFT, whatever this machine has
			}
			out, log, err := h.run(firmwareReadScript(h.root, "eth0", false))
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if log != c.want {
				t.Errorf("ran %q, want %q\n%s", log, c.want, out)
			}
			st, err := ParseFirmwareRead("eth0", []byte(out))
			if err != nil || st.Tool != c.tool {
				t.Fatalf("parse: %+v %v\n%s", st, err, out)
			}
		})
	}
}

// printTable prints $STUB_TABLE with sh builtins only: withoutTool may take cat's directory off
// PATH.
const printTable = `while IFS= read -r l; do printf '%s\n' "$l"; done < "$STUB_TABLE"`

// withoutTool is env with the PATH directories that hold tool left out (the stubs' directory
// comes first and has no such file).
func withoutTool(env []string, tool string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			var keep []string
			for _, dir := range filepath.SplitList(path) {
				if _, err := os.Stat(filepath.Join(dir, tool)); err != nil {
					keep = append(keep, dir)
				}
			}
			kv = "PATH=" + strings.Join(keep, string(os.PathListSeparator))
		}
		out = append(out, kv)
	}
	return out
}
