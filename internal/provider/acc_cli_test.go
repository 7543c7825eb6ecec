package provider

import (
	"fmt"
	"strings"

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
