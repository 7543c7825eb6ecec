package openconfig

import (
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/ietfjson"
)

// Origin is the gNMI origin of every path this package reads or writes.
const Origin = "openconfig"

// classifierType is the classifier type this package creates and binds (an enumeration in
// openconfig-qos, so written without a module prefix).
const classifierType = "IPV4"

// ReadPaths lists what a read of the policy needs: the whole /qos tree.
func ReadPaths() []*gpb.Path {
	return []*gpb.Path{{Origin: Origin, Elem: []*gpb.PathElem{{Name: "qos"}}}}
}

// qos builds a path below /qos. Paths carry no origin: the SetRequest prefix does.
func qos(elems ...*gpb.PathElem) *gpb.Path {
	return &gpb.Path{Elem: append([]*gpb.PathElem{{Name: "qos"}}, elems...)}
}

func el(name string) *gpb.PathElem { return &gpb.PathElem{Name: name} }

func keyed(name, key, value string) *gpb.PathElem {
	return &gpb.PathElem{Name: name, Key: map[string]string{key: value}}
}

func queuePath(q string) *gpb.Path { return qos(el("queues"), keyed("queue", "name", q)) }

func fgPath(q string) *gpb.Path {
	return qos(el("forwarding-groups"), keyed("forwarding-group", "name", q))
}

func profilePath(q string) *gpb.Path {
	return qos(el("queue-management-profiles"), keyed("queue-management-profile", "name", q))
}

func classifierPath(n string) *gpb.Path {
	return qos(el("classifiers"), keyed("classifier", "name", n))
}

func schedulerPath(n string) *gpb.Path {
	return qos(el("scheduler-policies"), keyed("scheduler-policy", "name", n))
}

func ifPath(ifname string, rest ...*gpb.PathElem) *gpb.Path {
	return qos(append([]*gpb.PathElem{el("interfaces"), keyed("interface", "interface-id", ifname)}, rest...)...)
}

func ifQueuePath(ifname, q string) *gpb.Path {
	return ifPath(ifname, el("output"), el("queues"), keyed("queue", "name", q))
}

func ifClassifierPath(ifname string) *gpb.Path {
	return ifPath(ifname, el("input"), el("classifiers"), keyed("classifier", "type", classifierType))
}

func ifSchedulerNamePath(ifname string) *gpb.Path {
	return ifPath(ifname, el("output"), el("scheduler-policy"), el("config"), el("name"))
}

// obj is a JSON object; encoding/json sorts its keys, so values render deterministically.
type obj = map[string]any

// jsonIETF is v as a JSON_IETF value; an error names the platform.
func jsonIETF(v any) (*gpb.TypedValue, error) { return ietfjson.Value(v, "openconfig") }
