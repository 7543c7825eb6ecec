// Package nxos translates roce_qos_policy (fabric.QoSPolicy) and roce_pfc_interface
// (fabric.PFCInterface) to Cisco NX-OS (Nexus 9000) configuration lines and parses `show
// running-config ipqos` back into them. Pure functions: no transport, no Terraform.
//
// # Reading
//
// ParseRunningConfig reads blocks by indentation (NX-OS indents 2 spaces a level); "!" lines
// (the !Command:/!Time: header), the version line, blank lines and CRLF are accepted, unknown
// lines and blocks ignored. Config holds the qos class-maps, the policy-maps by type (qos,
// queuing, network-qos), the `system qos` bindings and each interface's service-policies and
// PFC lines. Later lines win and the `no` forms PolicyLines and PFCLines write are understood,
// so lines replayed after a running-config read like the switch after them.
//
// Units: random-detect thresholds in bytes, kbytes (1024) and mbytes (1048576) read as bytes;
// another unit reads Unknown (-1), so a plan shows a change and the apply rewrites it in
// kbytes. drop-probability is mark_probability_percent; a random-detect line without `ecn`
// drops instead of marking and reads the probability Unknown. Pause values are bytes.
//
// # roce_qos_policy (policy P)
//
// Owned, rewritten in place on every update:
//   - `class-map type qos match-any P-C` per class C: `match dscp LIST` (trust dscp) or `match
//     cos LIST` (trust pcp), lists printed compactly (0-7,9);
//   - `policy-map type qos P`: per class, in name order, `class P-C` `set qos-group TC`, then
//     `class class-default` `set qos-group <default_traffic_class>`, which takes every DSCP no
//     class lists (and non-IP frames);
//   - `policy-map type network-qos P-nq`: a class c-8q-nqN (TC 0: c-8q-nq-default) per lossless
//     class (`pause pfc-cos N`) and per class with an mtu (`mtu M`); c-8q-nq-default carries the
//     largest class mtu when TC 0's class sets none (the other classes' traffic would fall to
//     1500);
//   - `policy-map type queuing P-out`, all 8 egress classes whole (c-out-8q-qN, TC 0:
//     c-out-8q-q-default): `bandwidth remaining percent P`, strict classes `priority level L`
//     (1, 2, ... from the highest TC down), TCs without a class `bandwidth remaining percent
//     0`; ECN `random-detect minimum-threshold X kbytes maximum-threshold Y kbytes
//     drop-probability P weight 0 ecn`.
//
// Shared: `system qos` `service-policy type network-qos P-nq` and `service-policy type queuing
// output P-out` (egress scheduling system-wide, as the reference configurations bind it), and
// on each bound port `service-policy type qos input P` (a port's own queuing output, which
// would hide the system one, is removed while it is bound).
// PolicyPrior records them before; unbinding and delete write them back (an imported policy
// has no prior: delete binds DefaultNetworkQoS and removes the port bindings). NX-OS has one
// system network-qos policy: CheckCreate refuses to create a policy while system qos binds
// another one (ForeignNetworkQoS), telling the user to import it instead.
//
// NX-OS checks references line by line and refuses to delete a policy-map in use, so
// PolicyLines creates class-maps, then policy-maps, then binds; and unbinds, then deletes
// policy-maps, then class-maps.
//
// # roce_pfc_interface (port X)
//
// Shared lines of `interface X`: `priority-flow-control mode on|off|auto` (a `send-tlv` the
// line has is kept), `flowcontrol send|receive on|off`, and `priority-flow-control
// watch-dog-interval on` when the watchdog is managed (its action is drop; its timers are
// system-wide, so the times are unsupported). PFCPrior records them before; delete, and a
// watchdog that becomes unmanaged, put them back.
//
// Owned: the buffer's `policy-map type queuing roce-in-X` ("/" in X replaced by "_") with
// `pause buffer-size <xoff+xon> pause-threshold <xoff> resume-threshold <xon>` in the ingress
// class c-in-qN of each lossless TC of the device (the network-qos policy bound in system
// qos), attached as `service-policy type queuing input`. CheckPFCAgainst refuses a buffer
// while no TC is lossless.
//
// # Limits
//
//   - Under trust dscp a class's pcp is not written (the class-maps match DSCP only) and reads
//     nil; under trust pcp the dscp lists are not written and read empty (Canonical says so).
//   - Lossless and mtu are read from P-nq while system qos binds it; a policy without lossless
//     classes and mtu has an empty P-nq, so its system qos binding is not compared.
//   - An imported policy whose queuing and network-qos policy-maps are not named P-out and
//     P-nq (an operator's, as in the Azure sample) reads without shares, strictness, ECN,
//     lossless and interfaces; the next apply creates P-out and P-nq and binds them.
//   - `random-detect ... weight W` is neither compared nor written other than 0.
package nxos
