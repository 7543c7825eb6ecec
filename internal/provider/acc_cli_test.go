package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// cliLine returns a check that the switch's running-config holds line, within the block that
// starts with header (blockOf cuts it out; header "" is the whole configuration).
func cliLine(running func() string, blockOf func(text, header string) string) func(what, header, line string) error {
	return func(what, header, line string) error {
		text := running()
		if header != "" {
			text = blockOf(text, header)
		}
		if !strings.Contains(text, line) {
			return fmt.Errorf("%s: %q not in %s:\n%s", what, line, header, text)
		}
		return nil
	}
}

// cliRestored is a CheckDestroy: the running-config is byte for byte what it was before, and
// the switch keeps no transaction of ours (leftovers: EOS sessions, NX-OS checkpoints).
func cliRestored(before string, running func() string, what string, leftovers func() []string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if after := running(); after != before {
			return fmt.Errorf("destroy did not restore the running-config.\nbefore:\n%s\nafter:\n%s", before, after)
		}
		if l := leftovers(); len(l) != 0 {
			return fmt.Errorf("%s left behind: %v", what, l)
		}
		return nil
	}
}

// cliLines returns a check that every {what, header, line} is in the running-config (want is
// cliLine's check).
func cliLines(want func(what, header, line string) error, lines [][3]string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, c := range lines {
			if err := want(c[0], c[1], c[2]); err != nil {
				return err
			}
		}
		return nil
	}
}

// updatesPolicyAndPFC expects the plan to update the policy and the port's PFC in place.
var updatesPolicyAndPFC = resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
	plancheck.ExpectResourceAction("roce_qos_policy.leaf", plancheck.ResourceActionUpdate),
	plancheck.ExpectResourceAction("roce_pfc_interface.e1", plancheck.ResourceActionUpdate),
}}

// rejectingSwitch is what the refusal tests use of a lab CLI switch (EOS or NX-OS).
type rejectingSwitch interface {
	RunningConfig() string
	RejectLines(substr, msg string)
}

// refusal is a line the switch refuses with msg, and the error the apply must then show.
type refusal struct {
	line, msg string
	err       *regexp.Regexp
}

// rejectedChangeSteps: the switch refuses a line of the create (v1), which commits and records
// nothing (the running-config as before, no transaction of ours left: leftovers, named what);
// v1 is then still to be created and applies; a refused update (to v2) leaves the
// running-config and the state as they were.
func rejectedChangeSteps(t *testing.T, sw rejectingSwitch, v1, v2 string, create, update refusal, what string, leftovers func() []string) []resource.TestStep {
	before := sw.RunningConfig()
	var applied string
	return []resource.TestStep{
		{
			PreConfig:   func() { sw.RejectLines(create.line, create.msg) },
			Config:      v1,
			ExpectError: create.err,
		},
		{
			PreConfig: func() {
				if got := sw.RunningConfig(); got != before {
					t.Fatalf("a refused create changed the running-config:\n%s", got)
				}
				if l := leftovers(); len(l) != 0 {
					t.Fatalf("%s left behind by the refused create: %v", what, l)
				}
				sw.RejectLines("", "")
			},
			Config:             v1,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true, // nothing was recorded: the policy is still to be created
		},
		{Config: v1, Check: func(*terraform.State) error { applied = sw.RunningConfig(); return nil }},
		{
			PreConfig:   func() { sw.RejectLines(update.line, update.msg) },
			Config:      v2,
			ExpectError: update.err,
		},
		{
			PreConfig: func() {
				if got := sw.RunningConfig(); got != applied {
					t.Fatalf("a refused update changed the running-config:\n%s", got)
				}
				sw.RejectLines("", "")
			},
			Config: v1, PlanOnly: true, // state still holds v1, which the device has: nothing to do
		},
	}
}
