// Package openconfig translates a roce_qos_policy (fabric.QoSPolicy) to OpenConfig /qos gNMI
// operations and parses /qos back into it. Pure functions: no transport, no Terraform.
//
// # Object naming (policy P, class C)
//
//   - classifier P, type IPV4; one term per class with DSCPs, id C, ipv4 dscp-set = the class's
//     DSCPs, target-group P-C; term P-default carries every DSCP no class lists (so all 64 are
//     classified) and targets the forwarding group of the class whose traffic_class is
//     default_traffic_class. When no class has that TC, queue and forwarding group P-tc<N> are
//     created for it (queue-id N); that queue gets no scheduler input and no port binding.
//   - queue P-C with queue-id = traffic_class: this is how the TC is carried, exactly;
//     forwarding group P-C with output-queue P-C.
//   - scheduler policy P: one sequence per strict class, priority STRICT, highest TC first from
//     sequence 0; then one sequence (no priority: the model's only priority is STRICT) holding
//     an input per WRR class: id C, input-type QUEUE, queue P-C, weight = bandwidth_percent.
//   - queue-management profile P-C for classes with ecn: wred/uniform min-threshold and
//     max-threshold in bytes (uint64, exact), enable-ecn true, drop false,
//     max-drop-probability-percent = mark_probability_percent.
//   - each bound interface (/qos/interfaces/interface[interface-id=IF]): IPv4 input classifier
//     P, output scheduler-policy P, output queue P-C per class with queue-management-profile P-C
//     where the class has ecn.
//
// Class names are read back from the scheduler inputs (input id), the policy name from the
// classifier and scheduler-policy names, so P-C names must be unique across the policies of a
// device. Classes that would collide with a generated name (a class named P-default, or
// tc<N> when P-tc<N> is created) are reported by CheckSupported.
//
// # Writing
//
// BuildSet makes one SetRequest: deletes, replaces, updates (the gNMI order of application;
// references are checked once, after all of them). Owned objects are written whole with
// Replace of their list entry; the interface, a shared object, gets an Update of only our
// leaves and a Replace of only our output queue entries. uint64 leaves are JSON strings and
// enumerations carry no module prefix (RFC 7951). The request prefix carries origin
// "openconfig"; paths carry none.
//
// # Quirks of the lemming v0.7.0 target (pinned by TestLemmingQuirks)
//
//   - A Set whose path ends in a config container (…/queue[name=Q]/config) is rejected ("no
//     match found"): set the list entry with {"name":Q,"config":{…}} or single leaves.
//   - uint64 leaves must be JSON strings ("153600"); a JSON number is rejected. uint8/uint32
//     leaves are numbers. Enumerations are accepted with or without a module prefix and read
//     back without one.
//   - Config-mode Set validates the whole tree after applying the request: leafrefs
//     (target-group -> forwarding group, output-queue and scheduler input queue -> queue,
//     interface classifier, scheduler policy and queue-management-profile -> their objects),
//     ranges (max-drop-probability-percent <= 100). A rejected request is rolled back whole,
//     so deleting a queue that something still references fails unless the same request
//     removes the reference. Deleting something absent succeeds.
//   - /qos/interfaces/interface[interface-id] is not a leafref: binding a port needs no
//     /interfaces entry; only interface-ref/config/interface (which we do not set) must name
//     an existing /interfaces/interface.
//   - Server.LocalClient().Set writes the operational-state datastore without any validation;
//     tests call Server.Set directly (no metadata: config mode) to get a real target's checks.
//   - Reads return defaults lemming populates (red/uniform drop and enable-ecn false, wred drop
//     false); the parser ignores what it does not model.
//   - A Subscribe ONCE through LocalClient ends with sync_response and never with io.EOF.
package openconfig
