// Package sonic translates roce_qos_policy (fabric.QoSPolicy) and roce_pfc_interface
// (fabric.PFCInterface) to SONiC CONFIG_DB gNMI operations and parses CONFIG_DB back into them.
// Pure functions: no transport, no Terraform.
//
// # Paths and values
//
// Every path has origin "sonic-db" (in the SetRequest prefix) and the elements CONFIG_DB,
// localhost, TABLE, KEY and optionally FIELD; a key holding "|" ("Ethernet0|3") is one
// element. Values are JSON_IETF; every CONFIG_DB value is a string: thresholds and sizes are
// decimal byte strings, exactly the configured bytes ("153600"); watchdog times are ms strings
// ("200"); cable lengths "<n>m" ("40m"). Reads parse them back to integers (normalising "040",
// and references written "[SCHEDULER|name]" by older databases).
//
// ReadPaths (and PFCReadPaths) is the CONFIG_DB root in one Get: sonic-gnmi fails a Get of a
// table that has no key, and a switch commonly lacks DOT1P_TO_TC_MAP or WRED_PROFILE.
//
// # roce_qos_policy (policy P, class C)
//
// Owned, written whole with Replace at key level: DSCP_TO_TC_MAP|P (64 entries, unlisted
// DSCPs to default_traffic_class), DOT1P_TO_TC_MAP|P (8 entries; written when trust is pcp or
// dscp_pcp or a class has pcp), TC_TO_QUEUE_MAP|P and MAP_PFC_PRIORITY_TO_QUEUE|P (identity:
// TC = queue = priority), TC_TO_PRIORITY_GROUP_MAP|P (lossless TC -> PG of its own number,
// lossy TCs -> the lowest non-lossless TC, 0 unless TC 0 is lossless), SCHEDULER|P-C (STRICT,
// or DWRR with weight = bandwidth_percent) and WRED_PROFILE|P-C per ECN class (green, yellow
// and red thresholds alike, drop probability = mark probability, wred_*_enable "true", ecn
// ecn_all). While a port is bound, QUEUE|<port>|<tc> of each class is written whole too
// (scheduler P-C, wred_profile P-C with ECN). Queues of TCs without a class are untouched.
//
// Shared: PORT_QOS_MAP|<port> gets only its policy fields, each with a field-level Update or
// Delete, never a Replace of the key: dscp_to_tc_map and dot1p_to_tc_map (P for the maps the
// trust uses, the other deleted so no stock map classifies beside ours), tc_to_queue_map,
// tc_to_pg_map, pfc_to_queue_map (P) and pfc_enable (the lossless TCs, "3,4"; "" for none).
// Unbinding a port, and delete, put those fields and queues back to the values read before
// (PortBinding, from DB.PortFields), deleting what was absent.
//
// While a port is bound its BUFFER_QUEUE keys are the policy's too: each lossless queue sits on
// the lossless egress profile, the earlier layout split where it must be (queue_buffer.go), and
// unbinding puts the earlier keys back.
//
// Class names live only in SCHEDULER|P-C (every class has one). A class's traffic class is
// read from the QUEUE entries that name its scheduler, so for a policy bound to no port the
// caller supplies the known traffic classes (PolicyWith). The DSCP map records no "listed"
// DSCPs: Canonical is the form in which a policy reads back (unlisted DSCPs belong to the class
// that has default_traffic_class; default_traffic_class is 0 when nothing else is sent to a
// classless TC).
//
// DESIGN section 3 also lists BUFFER_PG|<port>|<tc> {profile: NULL} for the dynamic buffer
// model. The policy does not write it: BUFFER_PG|<port>|<pg>.profile is roce_pfc_interface's
// field (buffer), and one field cannot be owned and restored by two resources. The lossless
// PGs of the dynamic model come from the device's buffer template (BUFFER_PG|<port>|3-4 NULL);
// the policy owns only which keys a bound port has (pg_split.go, followBuffer), never their
// profile.
//
// # roce_pfc_interface (port X)
//
// Owned: BUFFER_PROFILE|roce-X-lossless {pool ingress_lossless_pool, xoff, xon, size = xoff +
// xon, dynamic_th "0"}. Shared fields (PFCPrior records their values before): the profile field
// of the BUFFER_PG keys holding X's lossless PGs (existing keys, ranges included, else
// X|<pg>), CABLE_LENGTH|<key>.X (the key already listing X, usually AZURE),
// PFC_WD|X.{action, detection_time, restoration_time} and PORT_QOS_MAP|X.pfcwd_sw_enable.
// mode = on writes nothing: pfc_enable belongs to the policy. The lossless PGs follow the
// port's pfc_enable through its tc_to_pg_map.
//
// # Atomicity
//
// One SetRequest per operation: deletes, replaces, updates; each path at most once. The target
// validates references after the whole request (sonic-gnmi applies it as one GCU patch), so
// renames delete old objects in the request that rebinds ports to the new ones. sonic-gnmi
// skips the delete of a path that does not exist. AfterSet is CONFIG_DB once the switch has
// accepted a request, so a writer can keep CONFIG_DB instead of reading it before each write
// (ErrNotKnown where the switch's buffermgrd rewrites it). Requests of several operations that
// touch no common path (Overlap) can go as one (Combine): the switch applies it whole or not
// at all, with the same result as one after the other.
//
// # Limits
//
//   - QUEUE range keys ("Ethernet0|0-2") are neither split nor restored; the per-TC keys this
//     package writes sit beside them.
//   - PORT_QOS_MAP|global.dscp_to_tc_map is a switch-wide DSCP map SAI applies to ports
//     without their own: under trust pcp it still classifies IP packets.
//   - A scheduler P-x-C belongs to policy P-x when DSCP_TO_TC_MAP|P-x exists, so a class
//     "x-C" of policy P reads as P-x's when both policies exist.
package sonic
