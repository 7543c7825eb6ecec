package mlx5

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// A host's LLDP neighbours come from lldpd, the LLDP agent of Linux distributions (Debian and
// Ubuntu's lldpd package), through its client lldpcli. The json0 format is lldpd's stable one
// for scripts: every value is a list of objects, so one neighbour and several have the same
// shape (the plain json format turns a one-element list into an object). The layouts are real
// captures of lldpcli 1.0.16 in testdata/lldp.

const (
	markLLDPChassis   = "@@lldp-chassis"
	markLLDPNeighbors = "@@lldp-neighbors"
)

var lldpMarkers = []string{markLLDPChassis, markLLDPNeighbors, markEnd}

// LLDPScript returns the one command that reads the host's own LLDP chassis (the system name
// its neighbours see) and its neighbours. lldpcli talks to lldpd's socket, which its group or
// root may use: with sudo the script runs as root.
func LLDPScript(sudo bool) string {
	script := []string{
		"echo " + markLLDPChassis, "lldpcli -f json0 show chassis 2>&1",
		"echo " + markLLDPNeighbors, "lldpcli -f json0 show neighbors 2>&1",
		"echo " + markEnd,
	}
	return shWrap(strings.Join(script, "; "), sudo)
}

// jsonValues is json0's list of {"value": ...} (or {"type": ..., "value": ...}) objects.
type jsonValues []struct {
	Value string `json:"value"`
}

func (v jsonValues) first() string {
	if len(v) == 0 {
		return ""
	}
	return v[0].Value
}

type lldpChassis struct {
	ID   jsonValues `json:"id"`
	Name jsonValues `json:"name"`
}

// ParseLLDP parses the output of LLDPScript: the host's system name (trimmed) and its
// neighbours, one per interface and remote chassis, in lldpd's order.
func ParseLLDP(out []byte) (fabric.DeviceNeighbors, error) {
	sections, err := scriptSections(string(out), "LLDP", lldpMarkers)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	chassisText := strings.Join(sections[markLLDPChassis], "\n")
	var chassis struct {
		Local []struct {
			Chassis []lldpChassis `json:"chassis"`
		} `json:"local-chassis"`
	}
	if err := json.Unmarshal([]byte(chassisText), &chassis); err != nil {
		return fabric.DeviceNeighbors{}, lldpcliError("show chassis", chassisText, err)
	}
	var got fabric.DeviceNeighbors
	if len(chassis.Local) > 0 && len(chassis.Local[0].Chassis) > 0 {
		got.Hostname = strings.TrimSpace(chassis.Local[0].Chassis[0].Name.first())
	}
	neighborsText := strings.Join(sections[markLLDPNeighbors], "\n")
	var doc struct {
		LLDP []struct {
			Interface []struct {
				Name    string        `json:"name"`
				Chassis []lldpChassis `json:"chassis"`
				Port    []struct {
					ID    jsonValues `json:"id"`
					Descr jsonValues `json:"descr"`
				} `json:"port"`
			} `json:"interface"`
		} `json:"lldp"`
	}
	if err := json.Unmarshal([]byte(neighborsText), &doc); err != nil {
		return fabric.DeviceNeighbors{}, lldpcliError("show neighbors", neighborsText, err)
	}
	for _, l := range doc.LLDP {
		for _, ifc := range l.Interface {
			if ifc.Name == "" {
				continue // no local interface to attribute it to (lldpcli always names it)
			}
			n := fabric.Neighbor{Interface: ifc.Name}
			if len(ifc.Chassis) > 0 {
				n.ChassisID = ifc.Chassis[0].ID.first()
				n.SystemName = ifc.Chassis[0].Name.first()
			}
			if len(ifc.Port) > 0 {
				n.PortID = ifc.Port[0].ID.first()
				n.PortDescription = ifc.Port[0].Descr.first()
			}
			got.Neighbors = append(got.Neighbors, n)
		}
	}
	return got, nil
}

// lldpcliError explains output that is not lldpcli's JSON: lldpcli missing, or lldpd not
// running (lldpcli then prints its own error).
func lldpcliError(cmd, text string, err error) error {
	text = strings.TrimSpace(text)
	switch {
	case strings.Contains(text, "not found"):
		return fmt.Errorf("lldpcli is not installed on the host (%s): install lldpd", firstLines(text, 1))
	case text == "":
		return fmt.Errorf("lldpcli %s printed nothing", cmd)
	case !strings.HasPrefix(text, "{"):
		return fmt.Errorf("lldpcli %s failed: %s (is lldpd running?)", cmd, firstLines(text, 2))
	}
	return fmt.Errorf("lldpcli %s: unexpected JSON: %w", cmd, err)
}
