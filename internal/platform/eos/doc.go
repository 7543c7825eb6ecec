// Package eos translates roce_qos_policy (fabric.QoSPolicy) and roce_pfc_interface
// (fabric.PFCInterface) to Arista EOS configuration lines and parses EOS running-config (text
// or `| json`) back into them. Pure functions: no transport, no Terraform.
//
// # Reading
//
// ParseRunningConfig reads `show running-config`: blocks by indentation (EOS indents 3
// spaces a level), "!" lines and "end" skipped, CRLF accepted, unknown lines and blocks
// ignored. ParseRunningConfigJSON walks the `| json` tree ({"cmds": {"line": null | {"cmds":
// ...}}}) in its key order and feeds the same handlers. Config holds the effective global maps
// (EOS defaults, then every `qos map` line; the running-config shows only entries that differ
// from the default), every `qos profile` and every `interface` block.
//
// Units: ECN thresholds in bytes, kbytes (1024) and mbytes (1048576) read as bytes; segments
// and milliseconds cannot be converted and read as Unknown (-1), so a plan shows a change and
// the apply rewrites them in kbytes. A missing max-mark-probability reads 100 (EOS's default).
// Watchdog seconds read from any decimal form ("0.2", "0.20") as whole milliseconds.
//
// # roce_qos_policy (policy P)
//
// Owned: `qos profile P`, rewritten in place on every update: the trust line, a `tx-queue N`
// block for each class (TC N = queue N) and the 8 `priority-flow-control priority N` lines. A
// TC without a class is not written, so its queue keeps the platform's default (strict; queue
// 7 carries control traffic and Sand platforms before 4.33 refuse `tx-queue 7`); a block an
// earlier version wrote is removed (`no tx-queue N`). EOS makes every queue below a
// round-robin one round-robin too, so CheckSupported refuses a strict class below a class with
// a bandwidth share. A rename deletes the old profile in the same session.
//
// Shared, global: the 64-entry `qos map dscp` (always), the 8-entry `qos map cos` (trust pcp,
// or any class with pcp) and the identity `qos map traffic-class N to tx-queue N`, all written
// whole; and `service-profile P` on each bound interface. PolicyPrior records them before the
// policy changes them; unbinding and delete write them back (maps whole: reset to the EOS
// default, then the entries that differ). A zero PolicyPrior (none recorded, as after import)
// restores the EOS default maps and removes the bindings.
//
// EOS keeps no class names: a class is identified by its TC, named after the known class with
// that TC (else "tc<N>"). A class is a TC whose queue has `bandwidth percent` or an explicit
// `priority strict`.
//
// # roce_pfc_interface (port X)
//
// Shared lines of `interface X`: `priority-flow-control on`, `flowcontrol send|receive`, and
// the watchdog (`priority-flow-control pause watchdog`, `... port action drop`, `... port
// timer timeout S polling-interval auto recovery-time R`) when managed. PFCPrior records them
// before; delete, and a watchdog that becomes unmanaged, put them back.
//
// # Limits
//
//   - Trust is read from the profile; an interface-level `qos trust` overriding it is not
//     read.
//   - A tx-queue block missing from the profile reads as no class, although EOS serves such a
//     queue strictly: queues without a class are neither written nor compared.
//   - `random-detect ecn ... weight W` is neither written nor compared.
package eos
