package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// fabricInventory is a CMDB export: the RoCE ports and NICs of every device, plus attributes the
// module does not use (they must be ignored).
const fabricInventory = `{
  "switches": {
    "sonic-1": { "ports": ["Ethernet0", "Ethernet4"], "rack": "r1", "role": "leaf" },
    "sonic-2": { "ports": ["Ethernet0", "Ethernet4"], "rack": "r2", "role": "leaf" }
  },
  "hosts": {
    "mlx5-1": { "interfaces": ["eth0", "eth1"], "rack": "r1", "serial": "GPU0001" },
    "mlx5-2": { "interfaces": ["eth0", "eth1"], "rack": "r2", "serial": "GPU0002" }
  }
}`

// fabricHCL calls examples/modules/roce-fabric with the inventory file and extra module
// arguments.
func fabricHCL(l *accLab, source, args string) string {
	return l.providerHCL() + fmt.Sprintf(`
module "fabric" {
  source    = %q
  inventory = jsondecode(file("${path.module}/fabric.json"))
%s
}
`, source, args) + moduleOutputsHCL("fabric", "policy_ids", "pfc_ids", "nic_ids", "dcqcn_ids", "findings")
}

// fabricSettings are what the fabric module can change: each SONiC switch's CONFIG_DB and
// each host's NIC settings (hostSettings), by device name.
func fabricSettings(t *testing.T, l *accLab, switches, hosts []string) (map[string]map[string]map[string]map[string]string, map[string]string) {
	db := map[string]map[string]map[string]map[string]string{}
	for _, sw := range switches {
		db[sw] = l.SONiC(sw).DB()
	}
	host := map[string]string{}
	for _, h := range hosts {
		host[h] = hostSettings(t, l.Host(h))
	}
	return db, host
}

// examples/modules/roce-fabric on two SONiC leaves and two mlx5 hosts with two NICs each,
// applied with the real CLI from an inventory file: every device is configured, the next plan
// is empty, a host reboot is survived (persisted settings), a hand change on a host shows as drift of that resource only and apply repairs it, inconsistent
// fabrics fail the plan with the fabric check's findings, and destroy leaves switches and hosts
// as they were.
func TestAccModuleRoCEFabric(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 2}, Hosts: map[string]int{"mlx5": 2}})
	switches, hosts := []string{"sonic-1", "sonic-2"}, []string{"mlx5-1", "mlx5-2"}
	dbBefore, hostBefore := fabricSettings(t, l, switches, hosts)
	dir := t.TempDir()
	copyModules(t, dir, "roce-fabric", "roce-leaf", "roce-gpu-host")
	source := "./modules/roce-fabric"
	if err := os.WriteFile(filepath.Join(dir, "fabric.json"), []byte(fabricInventory), 0o600); err != nil {
		t.Fatal(err)
	}
	consistent := fabricHCL(l, source, "")
	writeMain(t, dir, consistent)
	tf := initCLI(t, dir)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")

	for _, sw := range switches {
		db := l.SONiC(sw).DB()
		for _, port := range []string{"Ethernet0", "Ethernet4"} {
			if db["PORT_QOS_MAP"][port]["pfc_enable"] != "3" || db["PORT_QOS_MAP"][port]["dscp_to_tc_map"] != "ROCE" ||
				db["PFC_WD"][port]["detection_time"] != "200" {
				t.Errorf("%s %s: PORT_QOS_MAP %v, PFC_WD %v", sw, port, db["PORT_QOS_MAP"][port], db["PFC_WD"][port])
			}
		}
		if db["DSCP_TO_TC_MAP"]["ROCE"]["26"] != "3" || db["DSCP_TO_TC_MAP"]["ROCE"]["48"] != "6" {
			t.Errorf("%s: DSCP_TO_TC_MAP|ROCE 26 -> %q, 48 -> %q; want 3 and 6", sw, db["DSCP_TO_TC_MAP"]["ROCE"]["26"], db["DSCP_TO_TC_MAP"]["ROCE"]["48"])
		}
	}
	for _, h := range hosts {
		for _, nic := range []string{"eth0", "eth1"} {
			out, _, _ := l.Host(h).Run("mlnx_qos -i " + nic)
			for _, want := range []string{"Priority trust state: dscp", "\tenabled     0   0   0   1   0   0   0   0   ", "prio:3 dscp:26,"} {
				if !strings.Contains(out, want) {
					t.Errorf("%s: mlnx_qos -i %s lacks %q:\n%s", h, nic, want, out)
				}
			}
		}
	}
	var outputs map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(tf.must("output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	wantOutputs := map[string]string{
		"policy_ids": `{"sonic-1":"sonic-1/ROCE","sonic-2":"sonic-2/ROCE"}`,
		"pfc_ids":    `{"sonic-1":["sonic-1/Ethernet0","sonic-1/Ethernet4"],"sonic-2":["sonic-2/Ethernet0","sonic-2/Ethernet4"]}`,
		"nic_ids":    `{"mlx5-1":["mlx5-1/eth0","mlx5-1/eth1"],"mlx5-2":["mlx5-2/eth0","mlx5-2/eth1"]}`,
		"dcqcn_ids":  `{"mlx5-1":["mlx5-1/eth0","mlx5-1/eth1"],"mlx5-2":["mlx5-2/eth0","mlx5-2/eth1"]}`,
		"findings":   `[]`,
	}
	for name, want := range wantOutputs {
		var got bytes.Buffer
		if err := json.Compact(&got, outputs[name].Value); err != nil || got.String() != want {
			t.Errorf("output %s = %s, want %s", name, outputs[name].Value, want)
		}
	}
	plan := func() (string, int) {
		return tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	}
	tf.emptyPlan(t.Fatalf, "after apply")

	// A reboot drops mlx5-2's NIC settings and its boot units (persist) write them again.
	l.Host("mlx5-2").Reboot()
	tf.emptyPlan(t.Errorf, "after a reboot of mlx5-2 (its persisted settings must be back)")
	// A hand change on mlx5-2 (trust pcp on eth0) is drift of that resource only.
	if _, errOut, st := l.Host("mlx5-2").Run("sudo -n mlnx_qos -i eth0 --trust pcp >/dev/null"); st != 0 {
		t.Fatalf("mlnx_qos --trust pcp: exit %d %s", st, errOut)
	}
	out, code := plan()
	if code != 2 {
		t.Errorf("after a hand change on mlx5-2 the plan must show drift (exit 2), got %d:\n%s", code, out)
	}
	for _, want := range []string{
		`module.fabric.module.host["mlx5-2"].roce_nic_qos.nic["eth0"] will be updated in-place`,
		"Plan: 0 to add, 1 to change, 0 to destroy.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan after the hand change lacks %q:\n%s", want, out)
		}
	}
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	tf.emptyPlan(t.Errorf, "after repairing mlx5-2")

	// Inconsistent fabrics: the plan fails on the module's precondition, naming rule and device,
	// and nothing is written.
	dbApplied, hostApplied := fabricSettings(t, l, switches, hosts)
	for _, c := range []struct {
		name, args string
		want       []string
	}{
		{
			name: "a host managed elsewhere with PFC on priority 4",
			args: `  external = {
    nic_qos        = [{ device = "gpu-9", interface = "eth0", pfc_priorities = [4], dscp_to_priority = { "26" = 3, "48" = 6 } }]
    dcqcn_profiles = [{ device = "gpu-9", interface = "eth0", priorities = [3, 4] }]
  }`,
			want: []string{"Resource precondition failed", "The RoCE fabric is inconsistent", "- R1 gpu-9: ", "[4]"},
		},
		{
			name: "a host managed elsewhere sending CNPs on DSCP 46",
			args: `  external = {
    dcqcn_profiles = [{ device = "gpu-9", interface = "eth0", priorities = [3], cnp_dscp = 46 }]
  }`,
			want: []string{"Resource precondition failed", "- R4 sonic-1: ", "- R4 sonic-2: ", "- R4 gpu-9: ", "DSCP 46"},
		},
		{
			name: "a lossy workload",
			args: `  workload = "lossy"`,
			want: []string{"Invalid value for variable", `workload must be "ai-training" or "storage"`},
		},
	} {
		writeMain(t, dir, fabricHCL(l, source, c.args))
		out, code := plan()
		if code != 1 {
			t.Errorf("%s: the plan must fail (exit 1), got %d:\n%s", c.name, code, out)
			continue
		}
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the plan's error lacks %q:\n%s", c.name, want, out)
			}
		}
	}
	for _, sw := range switches {
		if db := l.SONiC(sw).DB(); !reflect.DeepEqual(db, dbApplied[sw]) {
			t.Errorf("a failed plan changed %s", sw)
		}
	}
	for _, h := range hosts {
		if got := hostSettings(t, l.Host(h)); got != hostApplied[h] {
			t.Errorf("a failed plan changed %s", h)
		}
	}

	writeMain(t, dir, consistent)
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color")
	for _, sw := range switches {
		after := l.SONiC(sw).DB()
		for table, keys := range after {
			for key, fields := range keys {
				if want := dbBefore[sw][table][key]; !reflect.DeepEqual(fields, want) {
					t.Errorf("destroy did not restore %s %s|%s: %v, want %v", sw, table, key, fields, want)
				}
			}
		}
		for table, keys := range dbBefore[sw] {
			for key := range keys {
				if _, ok := after[table][key]; !ok {
					t.Errorf("destroy removed %s %s|%s", sw, table, key)
				}
			}
		}
	}
	for _, h := range hosts {
		if after := hostSettings(t, l.Host(h)); after != hostBefore[h] {
			t.Errorf("destroy did not restore %s:\nbefore:\n%s\nafter:\n%s", h, hostBefore[h], after)
		}
	}
}
