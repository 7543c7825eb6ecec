package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/response"
)

// The devices' answers to a configuration line, from the captures the lab dialect files cite
// (internal/lab/eos-switch.md and nxos-switch.md, "Refusals"): every refusal family fails,
// known warnings pass as warnings, silence passes.
func TestConfigAnswer(t *testing.T) {
	for _, tc := range []struct {
		platform, out string
		warn, refusal string
	}{
		{platformNXOS, "", "", ""},
		{platformNXOS, "\r\n\r\n", "", ""},
		{platformNXOS, "                        ^\r\n% Invalid command at '^' marker.\r\n", "", "% Invalid command at '^' marker."},
		{platformNXOS, "Invalid range at '^' marker.", "", "Invalid range at '^' marker."},
		{platformNXOS, `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"`,
			"", `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"`},
		{platformNXOS, "Please configure TCAM region for Ingress ARP-Ether ACL before configuring ARP supression.", "", //nolint:misspell // verbatim
			"Please configure TCAM region for Ingress ARP-Ether ACL before configuring ARP supression."}, //nolint:misspell // the device's own spelling
		{platformNXOS, "ERROR: Aggregate TCAM region configuration exceeded the available Ingress TCAM slices. Please re-configure.", "",
			"ERROR: Aggregate TCAM region configuration exceeded the available Ingress TCAM slices. Please re-configure."},
		{platformNXOS, "Warning: privilege escalation support is deprecated and will be removed in future release.",
			"Warning: privilege escalation support is deprecated and will be removed in future release.", ""},
		{platformEOS, "% Invalid input", "", "% Invalid input"},
		{platformEOS, "% Unavailable command (not supported on this hardware platform)", "", "% Unavailable command (not supported on this hardware platform)"},
		{platformEOS, "% Cannot change mode; remove all members and try again.", "", "% Cannot change mode; remove all members and try again."},
		{platformEOS, "! Interface does not exist. The configuration will not take effect until the module is inserted.",
			"! Interface does not exist. The configuration will not take effect until the module is inserted.", ""},
		{platformEOS, "% Writing 0 Arp, 0 Route, 1 Mac events to the database", "", ""},
		// Text that is neither: refused, with the warning kept in the text.
		{platformEOS, "! VLAN id 1040 not found in current VLAN configuration\nsomething else", "",
			"something else\n! VLAN id 1040 not found in current VLAN configuration"},
		// A `!` line is a warning on EOS only.
		{platformNXOS, "! Interface does not exist.", "", "! Interface does not exist."},
	} {
		warn, refusal := configAnswer(tc.platform, tc.out)
		if warn != tc.warn || refusal != tc.refusal {
			t.Errorf("%s %q: warning %q, refusal %q; want %q, %q", tc.platform, tc.out, warn, refusal, tc.warn, tc.refusal)
		}
	}
}

// The first refused line is blamed, even when scrapligo stopped only at a later line whose text
// it knows (NX-OS refuses `policy-map ...` with a module status, and the submode lines after it
// then fail with `% Invalid command`).
func TestAnswersBlameTheFirstRefusal(t *testing.T) {
	rs := []*response.Response{
		{Input: "class-map type qos match-any ROCE-roce", Result: ""},
		{Input: "policy-map type qos ROCE", Result: `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"`},
		{Input: "class ROCE-roce", Result: "% Invalid command at '^' marker.", Failed: errors.New("failed")},
	}
	line, text, warns := answers(platformNXOS, rs)
	if line != "policy-map type qos ROCE" || !strings.Contains(text, "TCAM region is not configured") || warns != nil {
		t.Errorf("answers = %q, %q, %v", line, text, warns)
	}
	rs = []*response.Response{{Input: "interface Ethernet1", Result: "! Interface does not exist. The configuration will not take effect until the module is inserted."},
		{Input: "qos trust dscp"}}
	if line, text, warns := answers(platformEOS, rs); line != "" || text != "" || len(warns) != 1 || warns[0].Line != "interface Ethernet1" {
		t.Errorf("a warned line: %q, %q, %v", line, text, warns)
	}
}
