package provider

import (
	"strconv"
	"strings"
	"testing"
)

// The EOS and NX-OS leaves of the transports guide (examples/guides/eos-leaf, nxos-leaf), run
// as the guide says with the real CLI against a lab with one switch of the platform (`rocelab up
// --switches eos=1`; a subtest a platform): apply, an empty plan, the running-config lines the
// example's comments name, the startup-config saved (save_config) and no transaction of ours
// left (EOS configuration sessions, NX-OS checkpoints), a change typed at the switch's CLI
// detected (exit 2) and repaired to the running-config of the first apply, and destroy giving
// back the running-config as it was, again with no transaction left.
func TestAccModuleGuideCLILeaf(t *testing.T) {
	for _, c := range []struct {
		platform  string
		lines     [][2]string                                   // {block header, lines in it}
		portLines func(port string) [][2]string                 // the same, of each port
		applied   func(t *testing.T, s cliLeaf, running string) // the platform's own checks
		operator  []string                                      // what the operator types in configure mode
		drift     string                                        // what the operator's change is
		expect    []string                                      // in the plan of the drift
	}{
		{
			platform: "eos",
			lines: [][2]string{
				{"qos profile ROCE", "qos trust dscp"},
				{"qos profile ROCE", "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100"},
				{"qos profile ROCE", "priority-flow-control priority 3 no-drop"},
				{"qos profile ROCE", "tx-queue 6\n      priority strict\n"},
			},
			portLines: func(port string) [][2]string {
				header := "interface " + port
				return [][2]string{
					{header, "service-profile ROCE"},
					{header, "priority-flow-control on"},
					{header, "flowcontrol send off"},
					{header, "priority-flow-control pause watchdog port action drop"},
					{header, "priority-flow-control pause watchdog port timer timeout 0.20 polling-interval auto recovery-time 0.40"},
				}
			},
			// The whole DSCP map is written; the running-config shows only what differs from EOS's
			// defaults (0-7 -> TC 1, 24-31 -> TC 3, 48-55 -> TC 6, ...): every DSCP but 26 and 48
			// that does not already go to TC 0 now does.
			applied: func(t *testing.T, _ cliLeaf, running string) {
				var toZero []string
				for d := range 64 {
					if d != 26 && d != 48 && (d < 8 || d > 15) {
						toZero = append(toZero, strconv.Itoa(d))
					}
				}
				if line := "\nqos map dscp " + strings.Join(toZero, " ") + " to traffic-class 0\n"; !strings.Contains(running, line) {
					t.Errorf("the running-config lacks%s", line)
				}
			},
			// An operator turns PFC off on one port in their own SSH session.
			operator: []string{"interface Ethernet3", "no priority-flow-control on"},
			drift:    "a port whose PFC was turned off by hand",
			expect: []string{`# roce_pfc_interface.port["Ethernet3"] will be updated in-place`, `"off" -> "on"`,
				"Plan: 0 to add, 1 to change, 0 to destroy."},
		},
		{
			platform: "nxos",
			lines: [][2]string{
				{"class-map type qos match-any ROCE-roce", "match dscp 26"},
				{"class-map type qos match-any ROCE-cnp", "match dscp 48"},
				{"class-map type qos match-any ROCE-default", "match dscp 0"},
				{"policy-map type qos ROCE", "class ROCE-roce\n    set qos-group 3"},
				{"policy-map type qos ROCE", "class ROCE-cnp\n    set qos-group 6"},
				{"policy-map type qos ROCE", "class class-default\n    set qos-group 0"},
				{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n" +
					"    random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn"},
				// Queue 7 stays the control queue (default-8q-out-policy's level 1); CNPs take level 2.
				{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q7\n    priority level 1"},
				{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q6\n    priority level 2"},
				{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q5\n    bandwidth remaining percent 0"},
				{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q-default\n    bandwidth remaining percent 50"},
				{"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216"},
				{"system qos", "service-policy type network-qos ROCE-nq"},
				// Egress queuing is system-wide, as every reference configuration binds it: uplinks too.
				{"system qos", "service-policy type queuing output ROCE-out"},
			},
			portLines: func(port string) [][2]string {
				header, ingress := "interface "+port, "roce-in-"+strings.ReplaceAll(port, "/", "_")
				return [][2]string{
					{header, "priority-flow-control mode on"},
					{header, "priority-flow-control watch-dog-interval on"},
					{header, "service-policy type qos input ROCE"},
					{header, "service-policy type queuing input " + ingress},
					{"policy-map type queuing " + ingress, "class type queuing c-in-q3\n    pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440"},
				}
			},
			applied: func(t *testing.T, s cliLeaf, running string) {
				for _, port := range s.sw.Interfaces() {
					if strings.Contains(nxosBlock(running, "interface "+port), "queuing output") {
						t.Errorf("interface %s binds a queuing output of its own, hiding system qos's", port)
					}
				}
			},
			// An operator turns PFC off on one port, and drops the jumbo MTU of the lossless class,
			// in their own SSH session.
			operator: []string{"interface Ethernet1/3", "priority-flow-control mode off", "exit",
				"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "no mtu"},
			drift: "changes typed by hand",
			expect: []string{`# roce_pfc_interface.port["Ethernet1/3"] will be updated in-place`, `"off" -> "on"`,
				"# roce_qos_policy.leaf will be updated in-place", "+ mtu ", "= 9216",
				"Plan: 0 to add, 2 to change, 0 to destroy."},
		},
	} {
		t.Run(c.platform, func(t *testing.T) {
			l, s := cliSwitchLab(t, c.platform)
			noneLeft := func(when string) {
				if left := s.leftovers(); len(left) != 0 {
					t.Errorf("%s left %s: %v", when, s.leftover, left)
				}
			}
			before := s.running()
			tf := applyGuide(t, l, c.platform+"-leaf")

			running := s.running()
			want := c.lines
			for _, port := range s.sw.Interfaces() {
				want = append(want, c.portLines(port)...)
			}
			wantBlockLines(t, running, s.blockOf, want)
			c.applied(t, s, running)
			wantSaved(t, s.sw, running)
			noneLeft("the apply")

			l.terminal(t, s.device).configure(c.operator...)
			tf.driftRepaired(c.drift, c.expect...)
			if got := s.running(); got != running {
				t.Errorf("the repair must give back the running-config of the first apply.\nwant:\n%s\ngot:\n%s", running, got)
			}

			tf.destroy()
			wantRestored(t, s.sw, before)
			noneLeft("destroy")
		})
	}
}
