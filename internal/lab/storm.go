package lab

import (
	"fmt"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// setStorm turns the storm of a switch port on or off at now (`rocelab storm`); the switch
// names its ports in the error for one it lacks. The caller holds the lock guarding storms.
func setStorm(storms map[string]*traffic.Storm, device string, ports []string, ifname string, on bool, now time.Time) error {
	st, ok := storms[ifname]
	if !ok {
		return fmt.Errorf("%s has no interface %q (interfaces: %s)", device, ifname, strings.Join(ports, ", "))
	}
	st.Set(on, now)
	return nil
}
