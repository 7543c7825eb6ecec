package provider

import (
	"context"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var _ datasource.DataSourceWithConfigure = (*fabricAuditDataSource)(nil)

// fabricAuditDataSource checks the fabric as it really is: what each device applies, read
// whatever its objects are called, through the same rules as roce_fabric_check.
type fabricAuditDataSource struct{ configuredData }

func newFabricAuditDataSource() datasource.DataSource {
	return &fabricAuditDataSource{configuredData{dataSourceName: "roce_fabric_audit"}}
}

type fabricAuditModel struct {
	Devices  types.Set  `tfsdk:"devices"`
	Links    types.List `tfsdk:"links"`
	Ports    types.List `tfsdk:"ports"`
	NICs     types.List `tfsdk:"nics"`
	Findings types.List `tfsdk:"findings"`
	OK       types.Bool `tfsdk:"ok"`
}

var (
	auditIntList       = types.ListType{ElemType: types.Int64Type}
	auditIntMap        = types.MapType{ElemType: types.Int64Type}
	auditPortAttrTypes = map[string]attr.Type{
		"device": types.StringType, "interface": types.StringType, "policy": types.StringType, "trust": types.StringType,
		"dscp_to_traffic_class": auditIntMap, "lossless_priorities": auditIntList, "pfc_mode": types.StringType,
		"strict_traffic_classes": auditIntList, "ecn_traffic_classes": auditIntList,
	}
	auditNICAttrTypes = map[string]attr.Type{
		"device": types.StringType, "interface": types.StringType, "trust": types.StringType, "pfc_priorities": auditIntList,
		"dscp_to_priority": auditIntMap, "dcqcn_priorities": auditIntList, "cnp_dscp": types.Int64Type,
	}
)

func (d *fabricAuditDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Audits the fabric as it is: reads what each device really applies, whether this configuration manages it or not and whatever its objects are called (a stock SONiC AZURE map, a hand-made EOS qos profile or NX-OS policy-map, NVUE profiles typed on a Cumulus switch), and checks it with `roce_fabric_check`'s rules (R1-R11, and R12-R17 on `links`). Platforms: sonic, eos, nxos, cumulus, openconfig, mlx5. A brownfield fabric can be audited before anything is imported.",
		Attributes: map[string]schema.Attribute{
			"devices": devicesToRead("can be audited"),
			"links": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Cables between the devices, e.g. `data.roce_fabric_links.x.links`, for the per-link rules.",
				NestedObject:        schema.NestedAttributeObject{Attributes: linkAttrs(false)}},
			"ports": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "The effective QoS of every switch port that classifies traffic or has PFC settings.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"device": computedString("Device name."), "interface": computedString("Port."),
					"policy":                 computedString("The device's own name of what classifies the port (SONiC DSCP map, EOS qos profile, NX-OS qos policy-map, Cumulus NVUE qos mapping profile); empty where nothing does."),
					"trust":                  computedString("`dscp`, `pcp`, `dscp_pcp`, or empty."),
					"dscp_to_traffic_class":  computedIntMap("Traffic class of every DSCP the port classifies on (keys `\"0\"`..`\"63\"`; a DSCP the port's map leaves out is absent); null without DSCP trust."),
					"lossless_priorities":    computedInts("The port's no-drop traffic classes."),
					"pfc_mode":               computedString("`on`, `off` or `auto`; empty where the device reports no PFC setting for the port."),
					"strict_traffic_classes": computedInts("Traffic classes scheduled strict priority."),
					"ecn_traffic_classes":    computedInts("Traffic classes whose queue marks ECN."),
				}}},
			"nics": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "The effective QoS and DCQCN of every NIC port of the hosts read.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"device": computedString("Device name."), "interface": computedString("Netdev."), "trust": computedString("`dscp` or `pcp`."),
					"pfc_priorities":   computedInts("Priorities with PFC on."),
					"dscp_to_priority": computedIntMap("The NIC's DSCP -> priority map (keys `\"0\"`..`\"63\"`)."),
					"dcqcn_priorities": computedInts("Priorities DCQCN (both roce_rp and roce_np) is enabled on; empty when none."),
					"cnp_dscp":         computedInt("The DSCP the NIC sends CNPs with; null without DCQCN."),
				}}},
			"findings": findingsAttr(),
			"ok":       okAttr(),
		},
	}
}

func (d *fabricAuditDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fabricAuditModel
	ctx, ok := d.begin(ctx, req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	f := fabric.Fabric{Links: linksOf(ctx, m.Links, &resp.Diagnostics)}
	linked := map[string][]string{} // ports each device has on a link
	for _, l := range f.Links {
		linked[l.ADevice] = append(linked[l.ADevice], l.AInterface)
		linked[l.BDevice] = append(linked[l.BDevice], l.BInterface)
	}
	reads, ok := readDevices(ctx, &d.configuredData, m.Devices, driver.AuditDevices, func(name string) (fabric.Fabric, error) {
		return driver.Audit(ctx, d.pd.registry, name, linked[name])
	}, "Cannot audit %q", &resp.Diagnostics)
	if !ok {
		return
	}
	for _, r := range reads {
		f.Policies, f.PFC = append(f.Policies, r.Policies...), append(f.PFC, r.PFC...)
		f.NICs, f.DCQCN = append(f.NICs, r.NICs...), append(f.DCQCN, r.DCQCN...)
	}
	m.Findings, m.OK = checked(roceOnly(f))
	m.Ports = types.ListValueMust(types.ObjectType{AttrTypes: auditPortAttrTypes}, auditPorts(f))
	m.NICs = types.ListValueMust(types.ObjectType{AttrTypes: auditNICAttrTypes}, auditNICs(f))
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}

func intsValue(vs []int) attr.Value {
	els := make([]attr.Value, 0, len(vs))
	for _, v := range vs {
		els = append(els, types.Int64Value(int64(v)))
	}
	return types.ListValueMust(types.Int64Type, els)
}

func intMapValue(m map[int]int, n int) attr.Value {
	if m == nil {
		return types.MapNull(types.Int64Type)
	}
	els := map[string]attr.Value{}
	for k := range n {
		if v, ok := m[k]; ok {
			els[strconv.Itoa(k)] = types.Int64Value(int64(v))
		}
	}
	return types.MapValueMust(types.Int64Type, els)
}

// auditPorts lists, per device and port, the effective policy and PFC.
func auditPorts(f fabric.Fabric) []attr.Value {
	type key struct{ device, port string }
	pfc := map[key]string{}
	var order []key
	for _, e := range f.PFC {
		k := key{e.Device, e.PFC.Interface}
		pfc[k] = e.PFC.Mode
		order = append(order, k)
	}
	policy := map[key]fabric.QoSPolicy{}
	for _, sp := range f.Policies {
		for _, port := range sp.Policy.Interfaces {
			k := key{sp.Device, port}
			policy[k] = sp.Policy
			if !slices.Contains(order, k) {
				order = append(order, k)
			}
		}
	}
	slices.SortFunc(order, func(a, b key) int {
		if a.device != b.device {
			if a.device < b.device {
				return -1
			}
			return 1
		}
		return fabric.ComparePorts(a.port, b.port)
	})
	out := make([]attr.Value, 0, len(order))
	for _, k := range order {
		p, bound := policy[k]
		var lossless, strict, ecn []int
		var dscp map[int]int
		for _, name := range p.ClassNames() {
			cl := p.Classes[name]
			if cl.Lossless {
				lossless = append(lossless, cl.TrafficClass)
			}
			if cl.StrictPriority {
				strict = append(strict, cl.TrafficClass)
			}
			if cl.ECN != nil {
				ecn = append(ecn, cl.TrafficClass)
			}
		}
		if bound && (p.Trust == fabric.TrustDSCP || p.Trust == fabric.TrustDSCPPCP) {
			dscp = map[int]int{}
			for d, tc := range p.DSCPMap() {
				if tc >= 0 { // a DSCP a partial map leaves out (read as -1) is absent
					dscp[d] = tc
				}
			}
		}
		slices.Sort(lossless)
		slices.Sort(strict)
		slices.Sort(ecn)
		out = append(out, types.ObjectValueMust(auditPortAttrTypes, map[string]attr.Value{
			"device": types.StringValue(k.device), "interface": types.StringValue(k.port),
			"policy": types.StringValue(p.Name), "trust": types.StringValue(string(p.Trust)),
			"dscp_to_traffic_class": intMapValue(dscp, 64), "lossless_priorities": intsValue(lossless),
			"pfc_mode": types.StringValue(pfc[k]), "strict_traffic_classes": intsValue(strict), "ecn_traffic_classes": intsValue(ecn),
		}))
	}
	return out
}

// auditNICs lists every NIC with its DCQCN.
func auditNICs(f fabric.Fabric) []attr.Value {
	out := make([]attr.Value, 0, len(f.NICs))
	for _, h := range f.NICs {
		var dcqcn []int
		cnp := types.Int64Null()
		for _, d := range f.DCQCN {
			if d.Device == h.Device && d.DCQCN.Interface == h.NIC.Interface {
				dcqcn, cnp = d.DCQCN.Priorities, types.Int64Value(int64(d.DCQCN.CNPDSCP))
			}
		}
		out = append(out, types.ObjectValueMust(auditNICAttrTypes, map[string]attr.Value{
			"device": types.StringValue(h.Device), "interface": types.StringValue(h.NIC.Interface),
			"trust": types.StringValue(string(h.NIC.Trust)), "pfc_priorities": intsValue(h.NIC.PFCPriorities),
			"dscp_to_priority": intMapValue(h.NIC.DSCPToPriority, 64), "dcqcn_priorities": intsValue(dcqcn), "cnp_dscp": cnp,
		}))
	}
	return out
}

// checked checks f: the findings attribute's value, and ok's.
func checked(f fabric.Fabric) (types.List, types.Bool) {
	findings := fabric.Check(f)
	vals := make([]attr.Value, 0, len(findings))
	for _, fi := range findings {
		vals = append(vals, types.ObjectValueMust(findingAttrTypes, map[string]attr.Value{
			"severity": types.StringValue(fi.Severity), "rule": types.StringValue(fi.Rule),
			"device": types.StringValue(fi.Device), "message": types.StringValue(fi.Message),
		}))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: findingAttrTypes}, vals), types.BoolValue(fabric.OK(findings))
}

// roceOnly leaves out the NICs that carry no RoCE setting (factory defaults: trust pcp, no PFC,
// no DCQCN), so a host's front-end port cabled to an unconfigured switch port is no finding.
func roceOnly(f fabric.Fabric) fabric.Fabric {
	out := f
	out.NICs = nil
	for _, h := range f.NICs {
		dcqcn := slices.ContainsFunc(f.DCQCN, func(d fabric.HostDCQCN) bool {
			return d.Device == h.Device && d.DCQCN.Interface == h.NIC.Interface
		})
		if len(h.NIC.PFCPriorities) > 0 || h.NIC.Trust == fabric.TrustDSCP || dcqcn {
			out.NICs = append(out.NICs, h)
		}
	}
	return out
}
