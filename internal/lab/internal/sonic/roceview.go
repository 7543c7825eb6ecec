package sonic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// RoCEView of a port (traffic.RoCESwitch, for the hosts' perftest path model): the DSCP's traffic class by the port's DSCP_TO_TC_MAP (the global
// PORT_QOS_MAP entry's when the port names none), lossless when that class is in pfc_enable
// (SONiC's stock maps put traffic class n on priority n: defaults.go).
func (sw *Switch) RoCEView(port string) (traffic.PortView, bool) {
	sw.mu.RLock()
	defer sw.mu.RUnlock()
	st, ok := sw.traffic.storms[port]
	if !ok {
		return traffic.PortView{}, false
	}
	qos := sw.db["PORT_QOS_MAP"][port]
	mapName := qos["dscp_to_tc_map"]
	if mapName == "" {
		mapName = sw.db["PORT_QOS_MAP"]["global"]["dscp_to_tc_map"]
	}
	dscpMap := sw.db["DSCP_TO_TC_MAP"][mapName]
	var pfc []int
	for _, s := range strings.Split(qos["pfc_enable"], ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			pfc = append(pfc, n)
		}
	}
	storm := st.on()
	return traffic.PortView{Storm: storm, Lossless: func(dscp int) (int, bool) {
		tc, err := strconv.Atoi(dscpMap[strconv.Itoa(dscp)])
		if err != nil {
			tc = 0 // a DSCP the map leaves out goes to traffic class 0
		}
		return tc, slices.Contains(pfc, tc)
	}}, true
}
