package mlx5

import (
	"strings"
	"testing"
)

// The expected texts are mstflint 4.21's layout (mlx5-host.md): 9-character row prefix, names
// padded to 36, values to 16, trailing spaces kept.
func TestMstconfigQuerySetReboot(t *testing.T) {
	e := newHostEnv(t)
	e.Expect("mstconfig -d 0000:08:00.0 q", "-E- Failed to open the device\n", "", 3)
	e.Expect("sudo -n mstconfig q", "-E- Failed to get devices.\n", "", 3)
	e.Expect("sudo -n mstconfig -d mlx5_7 q", "-E- Failed to open the device\n",
		"read link: No such file or directory\nUnable to read link /sys/class/infiniband/mlx5_7/device\n", 3)

	opening := "\nDevice #1:\n----------\n\n" +
		"Device type:    ConnectX5       \n" +
		"Name:           MCX556A-ECA_Ax  \n" +
		"Description:    ConnectX-5 VPI adapter card; EDR IB (100Gb/s) and 100GbE; dual-port QSFP28; PCIe3.0 x16; tall bracket; ROHS R6\n" +
		"Device:         0000:08:00.0    \n\n"
	e.Expect("sudo -n mstconfig -d 0000:08:00.0 -y set ROCE_CC_PRIO_MASK_P1=0x08 CNP_DSCP_P1=26 LINK_TYPE_P1=eth", opening+
		"Configurations:                              Next Boot       New\n"+
		"         ROCE_CC_PRIO_MASK_P1                255             0x08(8)         \n"+
		"         CNP_DSCP_P1                         48              26              \n"+
		"         LINK_TYPE_P1                        ETH(2)          ETH(2)          \n"+
		"\n Apply new Configuration? (y/n) [n] : y\n"+
		"Applying... Done!\n-I- Please reboot machine to load new configurations.\n", "", 0)
	query := "sudo -n mstconfig -d 0000:08:00.0 -e q ROCE_CC_PRIO_MASK_P1 CNP_DSCP_P1 CNP_DSCP_P2"
	pending := opening +
		"Configurations:                              Default         Current         Next Boot\n" +
		"*        ROCE_CC_PRIO_MASK_P1                255             255             8               \n" +
		"*        CNP_DSCP_P1                         48              48              26              \n" +
		"         CNP_DSCP_P2                         48              48              48              \n" +
		"The '*' shows parameters with next value different from default/current value.\n"
	e.Expect(query, pending, "", 0)

	// Errors come right after the header, on stdout, exit 3.
	e.Expect("sudo -n mstconfig -d 0000:08:00.0 -y set 'LINK_TYPE_P1=ETH(2)'", opening+
		"Configurations:                              Next Boot       New\n-E- Unknown value ETH(2)\n", "", 3)
	e.Expect("sudo -n mstconfig -d 0000:08:00.0 -y set LINK_TYPE_P3=ETH", opening+
		"Configurations:                              Next Boot       New\n-E- Unknown Parameter: LINK_TYPE_P3\n", "", 3)
	e.Expect("sudo -n mstconfig -d 0000:08:00.0 -y set CNP_DSCP_P1=64", opening+
		"Configurations:                              Next Boot       New\n-E- The value 64 is not valid,  as its size is 6 bits\n", "", 3)
	out, _, st := e.Run("sudo -n mstconfig -d 0000:08:00.0 set CNP_DSCP_P1=20")
	if st != 2 || !strings.HasSuffix(out, "\n Apply new Configuration? (y/n) [n] : -E- Aborted by user.\n") {
		t.Errorf("set without -y and no answer: exit %d\n%s", st, out)
	}

	// A warm reboot keeps Next Boot pending; a cold one loads it, and the driver's defaults
	// follow: CNP DSCP 26 and ECN only on priority 3 (mask 8) for eth0; eth1 (P2) unchanged.
	e.h.WarmReboot()
	e.Expect(query, pending, "", 0)
	e.h.Reboot()
	e.Expect(query, opening+
		"Configurations:                              Default         Current         Next Boot\n"+
		"*        ROCE_CC_PRIO_MASK_P1                255             8               8               \n"+
		"*        CNP_DSCP_P1                         48              26              26              \n"+
		"         CNP_DSCP_P2                         48              48              48              \n"+
		"The '*' shows parameters with next value different from default/current value.\n", "", 0)
	if got := e.Must("sudo -n cat /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/np_cnp_dscp /sys/kernel/debug/mlx5/0000:08:00.1/cc_params/np_cnp_dscp"); got != "26\n48\n" {
		t.Errorf("cc_params np_cnp_dscp after the cold reboot: %q, want 26 (eth0) and 48 (eth1)", got)
	}
	if got := e.Must("cat /sys/class/net/eth0/ecn/roce_np/enable/3 /sys/class/net/eth0/ecn/roce_np/enable/4"); got != "1\n0\n" {
		t.Errorf("eth0 ECN enables after the cold reboot: %q, want priority 3 only", got)
	}
	e.Expect("sudo -n mstconfig -d 0000:08:00.0 -y reset", "\n Reset configuration for device 0000:08:00.0? (y/n) [n] : y\n"+
		"Applying... Done!\n-I- Please reboot machine to load new configurations.\n", "", 0)
	out = e.Must("sudo -n mstconfig -d 0000:08:00.0 -e q CNP_DSCP_P1")
	if !strings.Contains(out, "*        CNP_DSCP_P1                         48              26              48              \n") {
		t.Errorf("after reset:\n%s", out)
	}
}
