package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

const nicRes = "roce_nic_qos.gpu"

func nicHCL(ifname, pfc, ets string) string {
	return fmt.Sprintf(`
resource "roce_nic_qos" "gpu" {
  device           = "mlx5-1"
  interface        = %q
%s}
`, ifname, nicSettingsHCL(pfc, ets))
}

// nicSettingsHCL are the tests' NIC QoS settings, the PFC priorities pfc and the ETS classes
// ets (ets5050, ets4060), indented as attributes of a resource: roce_nic_qos's, and each
// interface's of roce_nic_qos_interfaces (hostMapsHCL).
func nicSettingsHCL(pfc, ets string) string {
	return fmt.Sprintf(`  trust            = "dscp"
  pfc_priorities   = [%s]
  dscp_to_priority = { "26" = 3, "48" = 6 }
  priority_to_tc   = { "3" = 3, "6" = 6 }
  ets = {
    %s
  }
  roce_tos = 106
`, pfc, ets)
}

const ets5050 = `"0" = { bandwidth_percent = 50 }
    "3" = { bandwidth_percent = 50 }
    "6" = { strict_priority = true }`

const ets4060 = `"0" = { bandwidth_percent = 40 }
    "3" = { bandwidth_percent = 60 }
    "6" = { strict_priority = true }`

func hostLab(t *testing.T) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{}, Hosts: map[string]int{"mlx5": 1}})
}

func TestAccNICQoSLifecycle(t *testing.T) {
	l := hostLab(t)
	sh := l.shell(t, "mlx5-1")
	before := sh.run("mlnx_qos -i eth0 -a")
	tosBefore := sh.run("cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class")
	v1 := l.providerHCL() + nicHCL("eth0", "3", ets5050)
	v2 := l.providerHCL() + nicHCL("eth0", "3, 4", ets4060)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if after := sh.run("mlnx_qos -i eth0 -a"); after != before {
				return fmt.Errorf("destroy did not restore the NIC:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if after := sh.run("cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class"); after != tosBefore {
				return fmt.Errorf("destroy did not restore the traffic class: %q, want %q", after, tosBefore)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: v1,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(nicRes, tfjsonpath.New("id"), knownvalue.StringExact("mlx5-1/eth0")),
				},
				Check: func(*terraform.State) error {
					out := sh.run("mlnx_qos -i eth0")
					for _, want := range []string{"Priority trust state: dscp", "\tenabled     0   0   0   1   0   0   0   0   ", "prio:3 dscp:26,", "tsa: strict"} {
						if !strings.Contains(out, want) {
							return fmt.Errorf("mlnx_qos on the host lacks %q:\n%s", want, out)
						}
					}
					if tos := sh.run("cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class"); !strings.Contains(tos, "106") {
						return fmt.Errorf("traffic class = %q", tos)
					}
					return nil
				},
			},
			{ResourceName: nicRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStateVerify: true},
			{
				Config:           v2,
				ConfigPlanChecks: expectUpdates(nicRes),
				Check: func(*terraform.State) error {
					if out := sh.run("mlnx_qos -i eth0"); !strings.Contains(out, "\tenabled     0   0   0   1   1   0   0   0   ") {
						return fmt.Errorf("PFC on 3 and 4 not applied:\n%s", out)
					}
					return nil
				},
			},
			{ // a reboot loses everything mlnx_qos and sysfs set, and the boot unit puts it back
				PreConfig: func() {
					l.Host("mlx5-1").Reboot()
					if out := l.openSSH(t, "mlx5-1").run(t, "mlnx_qos -i eth0"); !strings.Contains(out, "\tenabled     0   0   0   1   1   0   0   0   ") ||
						!strings.Contains(out, "Priority trust state: dscp") {
						t.Errorf("after the reboot the persisted settings are not back:\n%s", out)
					}
				},
				Config:           v2,
				ConfigPlanChecks: expectEmptyPlan,
			},
			{ // a driver reload likewise
				PreConfig:        func() { l.Host("mlx5-1").DriverReload() },
				Config:           v2,
				ConfigPlanChecks: expectEmptyPlan,
			},
			{ // without persist the unit goes, and a reboot shows as drift that apply repairs
				Config: strings.Replace(v2, "roce_tos = 106", "roce_tos = 106\n  persist = false", 1),
				Check: func(*terraform.State) error {
					if out := sh.run("ls /etc/systemd/system"); strings.Contains(out, "roce-") {
						return fmt.Errorf("persist = false left a unit: %s", out)
					}
					return nil
				},
			},
			{
				PreConfig:        func() { l.Host("mlx5-1").Reboot() },
				Config:           strings.Replace(v2, "roce_tos = 106", "roce_tos = 106\n  persist = false", 1),
				ConfigPlanChecks: expectUpdates(nicRes),
			},
		},
	})
}

// TestAccNICQoSPersistDrift: the boot unit is part of the resource. Disabled or edited over
// OpenSSH, the plan shows persist drifting (exit 2 in CI's terraform plan -detailed-exitcode)
// and one apply repairs it; destroy removes it.
func TestAccNICQoSPersistDrift(t *testing.T) {
	l := hostLab(t)
	o := l.openSSH(t, "mlx5-1")
	unit := "/etc/systemd/system/roce-nic-qos-eth0.service"
	cfg := l.providerHCL() + nicHCL("eth0", "3", ets5050)
	persistDrift := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(nicRes, plancheck.ResourceActionUpdate),
		plancheck.ExpectKnownValue(nicRes, tfjsonpath.New("persist"), knownvalue.Bool(true)),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if out := o.run(t, "ls /etc/systemd/system/sys-subsystem-net-devices-eth0.device.wants; ls /etc/systemd/system"); strings.Contains(out, "roce-") {
				return fmt.Errorf("destroy left the boot unit: %s", out)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					if out := o.run(t, "systemctl is-enabled roce-nic-qos-eth0.service"); out != "enabled\n" {
						return fmt.Errorf("is-enabled: %q", out)
					}
					if out := o.run(t, "cat "+unit); !strings.Contains(out, "--trust dscp --pfc 0,0,0,1,0,0,0,0") {
						return fmt.Errorf("the unit does not write the settings:\n%s", out)
					}
					return nil
				},
			},
			{
				PreConfig:        func() { o.run(t, "sudo -n systemctl disable roce-nic-qos-eth0.service") },
				Config:           cfg,
				ConfigPlanChecks: persistDrift,
			},
			{
				// An edit (here: another trust) is drift too, though the unit is enabled.
				PreConfig: func() {
					edited := strings.Replace(o.run(t, "cat "+unit), "--trust dscp", "--trust pcp", 1)
					o.run(t, "echo '"+strings.TrimSuffix(edited, "\n")+"' | sudo -n tee "+unit+" >/dev/null")
				},
				Config:           cfg,
				ConfigPlanChecks: persistDrift,
				Check: func(*terraform.State) error {
					if out := o.run(t, "cat "+unit); !strings.Contains(out, "--trust dscp") {
						return fmt.Errorf("apply did not rewrite the edited unit:\n%s", out)
					}
					return nil
				},
			},
		},
	})
}

func TestAccNICQoSPlanTimeErrors(t *testing.T) {
	l := hostLab(t)
	host := l.Host("mlx5-1")
	l.expectPlanErrors(t, []planError{
		{"DSCP 64", strings.Replace(nicHCL("eth0", "3", ets5050), `"26" = 3`, `"64" = 3`, 1), `(?s)dscp_to_priority.*64`, nil},
		{"priority 8", nicHCL("eth0", "8", ets5050), `(?s)pfc_priorities.*8`, nil},
		{"missing netdev", nicHCL("eth9", "3", ets5050), `(?s)eth9.*eth0.*eth1`, nil},
		{"shell metacharacters", nicHCL("eth0;reboot", "3", ets5050), `(?s)interface.*eth0;reboot`, nil},
		{"persist on a netdev with a dash", nicHCL("rdma-0", "3", ets5050), `(?s)persist is not supported for netdev "rdma-0".*persist = false`, nil},
		{"firmware DCBX", nicHCL("eth0", "3", ets5050), `(?s)firmware-controlled`, func() { host.SetDCBXFirmware(true) }},
		{"switch resource on a host", l.providerHCL() + classesHCL("mlx5-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 }`), `(?s)mlx5.*NIC host`, nil},
	}, func() { host.SetDCBXFirmware(false) })
}

// TestAccNICQoSPersistWithoutSystemd: on a host without systemd the persisted create fails
// after its device writes; the provider puts the NIC and /etc/systemd/system back as they
// were, records nothing, and says to set persist = false, which then applies.
func TestAccNICQoSPersistWithoutSystemd(t *testing.T) {
	l := hostLab(t)
	h := l.Host("mlx5-1")
	h.RemoveSystemd()
	sh := l.shell(t, "mlx5-1")
	before := sh.run("mlnx_qos -i eth0 -a")
	cfg := l.providerHCL() + nicHCL("eth0", "3", ets5050)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: regexp.MustCompile(`(?s)sudo: systemctl: command not found.*set persist = false.*restored on eth0`),
			},
			{
				// Nothing was left behind: the NIC as before, no unit file, no state.
				PreConfig: func() {
					if after := sh.run("mlnx_qos -i eth0 -a"); after != before {
						t.Errorf("the failed create left the NIC changed:\nbefore:\n%s\nafter:\n%s", before, after)
					}
					if out := sh.run("ls /etc/systemd/system"); strings.Contains(out, "roce-") {
						t.Errorf("the failed create left a unit file: %s", out)
					}
				},
				Config: strings.Replace(cfg, "roce_tos = 106", "roce_tos = 106\n  persist = false", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nicRes, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccNICQoSSRIOVHost: on a host with 8 VFs per port in switchdev mode (16 VFs, 16
// representors), a refresh of both ports' roce_nic_qos launches mlnx_qos (a Python program
// on a real host) once per port, not for the VFs and representors; a roce_nic_qos on a VF is
// read on its own and refused at plan time (a VF has no DCB of its own).
func TestAccNICQoSSRIOVHost(t *testing.T) {
	l := hostLab(t)
	h := l.Host("mlx5-1")
	h.AddVFs(8)
	dir := t.TempDir()
	two := strings.Replace(nicHCL("eth0", "3", ets5050), `"gpu"`, `"gpu0"`, 1) + strings.Replace(nicHCL("eth1", "3", ets5050), `"gpu"`, `"gpu1"`, 1)
	writeMain(t, dir, l.providerHCL()+two)
	tf := initCLI(t, dir)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	h.ResetCounters()
	tf.emptyPlan(t.Fatalf, "after apply")
	if got := h.Counters().MlnxQos; got != 2 {
		t.Errorf("the refresh ran mlnx_qos %d times, want 2 (eth0 and eth1; none for the 16 VFs and 16 representors)", got)
	}
	writeMain(t, dir, l.providerHCL()+two+strings.Replace(nicHCL("eth0v3", "3", ets5050), `"gpu"`, `"vf"`, 1))
	out, code := tf.run("plan", "-input=false", "-no-color")
	if code != 1 || !strings.Contains(out, `"eth0v3"`) || !strings.Contains(out, "not supported") {
		t.Errorf("a roce_nic_qos on a VF: exit %d, want a plan-time error naming it:\n%s", code, out)
	}
	writeMain(t, dir, l.providerHCL()+two)
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color")
}
