// Package cumulus translates roce_qos_policy (fabric.QoSPolicy) and roce_pfc_interface
// (fabric.PFCInterface) to NVIDIA Cumulus Linux 5.x NVUE configuration and reads the applied
// NVUE configuration back into them. Pure functions: no HTTP, no Terraform. DESIGN.md section
// "Cumulus Linux (NVUE)" has the mapping table; every key and value below comes from NVIDIA's
// NVUE OpenAPI specification for Cumulus Linux 5.12 and the Cumulus Linux 5.14 "Quality of
// Service" and "RDMA over Converged Ethernet" pages (CumulusNetworks/docs), unless marked
// assumed.
//
// # The vocabulary
//
// NVUE classifies on DSCP or PCP into a switch priority (qos mapping), maps switch priorities to
// traffic classes, which are the egress queues (qos egress-queue-mapping, default-global only),
// schedules traffic classes (qos egress-scheduler: strict, or dwrr with bw-percent), marks ECN
// per traffic class (qos congestion-control) and pauses per switch priority (qos pfc). The
// provider's traffic class is the switch priority, the traffic class and the queue at once, as
// on the other platforms: a class with traffic_class 3 classifies its DSCPs to switch priority 3,
// which the egress queue mapping sends to traffic class 3.
//
// # roce_qos_policy (policy P)
//
// Owned, written whole: the profiles named P in qos mapping (trust; all 64 DSCPs, unlisted ones
// to default_traffic_class; all 8 PCPs when trust uses them), egress-scheduler (a traffic class
// per class), congestion-control (a traffic class per ECN class: ecn enable, red disable,
// min/max threshold, probability; no profile without an ECN class) and pfc (the lossless
// classes' switch priorities, tx and rx enabled; no profile without a lossless class); each
// bound port's qos mapping, egress-scheduler, congestion-control and pfc profile bindings.
//
// Shared: egress-queue-mapping default-global switch-priority N traffic-class N for every
// traffic class the policy uses (NVUE's own RoCE mode sends switch priorities other than 3 and
// 6 to traffic class 0); the values before are recorded (Prior) and put back on delete.
//
// Not touched: qos roce, traffic pools and buffers (advance-buffer-config), the PFC watchdog's
// global timers. NVUE refuses a PFC profile unless a lossless pool exists (qos roce mode
// lossless, or a lossless traffic pool): that is the switch's buffer design, which the user
// owns; the refusal reaches the user as NVUE's apply error.
//
// # roce_pfc_interface (port X)
//
// NVUE keeps PFC's switch priorities, xoff/xon and cable length in the PFC profile a port
// binds, which the policy owns and shares across its ports. The resource owns the port's
// qos pfc-watchdog state; mode reads on when the port binds a PFC profile with switch
// priorities.
//
// # Class names
//
// No NVUE object carries a class name. A policy read with a known policy (the state) keeps the
// known names of its traffic classes; an import names each class tc<N>.
package cumulus
