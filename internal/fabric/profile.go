package fabric

import (
	"fmt"
	"maps"
)

// Workloads of the roce_profile data source.
const (
	WorkloadAITraining = "ai-training"
	WorkloadStorage    = "storage"
	WorkloadLossy      = "lossy"
)

// Defaults and limits of roce_profile's optional inputs (domain section 2: NVIDIA Cumulus
// `nv set qos roce` and mlx5 firmware conventions).
const (
	DefaultRoCEDSCP      = 26
	DefaultCNPDSCP       = 48
	DefaultRoCEPriority  = 3
	DefaultCNPPriority   = 6
	DefaultLinkSpeedGbps = 400 // new AI back-end fabrics run 400G and 800G
	MinLinkSpeedGbps     = 10
	MaxLinkSpeedGbps     = 800
	// DefaultPortBufferBytes bounds ECN Kmax (profile_presets.go): 2.5 MiB, this project's
	// figure for one port's share of a 64 x 800G switch's buffer.
	DefaultPortBufferBytes = 2560 * KiB
	MinPortBufferBytes     = 64 * KiB
	MaxPortBufferBytes     = 1 << 30
)

// ProfileInput is what roce_profile takes. A zero field means "unset" and WithDefaults fills it
// in; DSCP 0 and priority 0 belong to the profile's default class, so no valid value is lost,
// but the provider must refuse an explicit 0 in its schema rather than let it become a default.
type ProfileInput struct {
	Workload      string // ai-training | storage | lossy
	RoCEDSCP      int
	CNPDSCP       int
	RoCEPriority  int
	CNPPriority   int
	LinkSpeedGbps int
	// PortBufferBytes is the per-port buffer budget that bounds the ECN thresholds.
	PortBufferBytes int64
}

// Profile is a consistent set of settings for one workload: the switch classes (shaped like
// roce_qos_policy.classes), the NIC's PFC priorities, DSCP map and roce_tos, and DCQCN
// parameters keyed like ReactionPointParams and NotificationPointParams. Fed to a
// roce_qos_policy, roce_pfc_interface, roce_nic_qos and roce_dcqcn_profile (DCQCN priorities =
// [roce_priority]), they pass each resource's validation and Check without error.
type Profile struct {
	SwitchClasses     map[string]Class
	PFCPriorities     []int // empty (not nil) for lossy
	NICDSCPToPriority map[int]int
	RoCEToS           int
	ReactionPoint     map[string]int64
	NotificationPoint map[string]int64
}

// Class names of a profile's switch classes.
const (
	ProfileClassRoCE    = "roce"
	ProfileClassCNP     = "cnp"
	ProfileClassDefault = "default"
)

// WithDefaults returns in with every unset (zero) optional field set to its default.
func (in ProfileInput) WithDefaults() ProfileInput {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&in.RoCEDSCP, DefaultRoCEDSCP)
	def(&in.CNPDSCP, DefaultCNPDSCP)
	def(&in.RoCEPriority, DefaultRoCEPriority)
	def(&in.CNPPriority, DefaultCNPPriority)
	def(&in.LinkSpeedGbps, DefaultLinkSpeedGbps)
	if in.PortBufferBytes == 0 {
		in.PortBufferBytes = DefaultPortBufferBytes
	}
	return in
}

const (
	zeroDSCP = "DSCP 0 is best-effort traffic, the profile's default class"
	zeroPrio = "priority 0 is the default class's"
)

// The field rules of the roce_profile data source (rules.go).
var (
	WorkloadRule = oneOf("Invalid workload", "Set workload to ai-training, storage or lossy.",
		WorkloadAITraining, WorkloadStorage, WorkloadLossy)
	RoCEDSCPRule = IntRule{"roce_dscp", 1, MaxDSCP,
		fmt.Sprintf("Set roce_dscp to the DSCP of RoCE data, 1-63 (the default is %d); %s.", DefaultRoCEDSCP, zeroDSCP)}
	ProfileCNPDSCPRule = IntRule{"cnp_dscp", 1, MaxDSCP,
		fmt.Sprintf("Set cnp_dscp to the DSCP of congestion notification packets, 1-63 (the default is %d); %s.", DefaultCNPDSCP, zeroDSCP)}
	RoCEPriorityRule = IntRule{"roce_priority", 1, MaxPriority,
		fmt.Sprintf("Set roce_priority to the traffic class of RoCE data, 1-7 (the default is %d); %s.", DefaultRoCEPriority, zeroPrio)}
	ProfileCNPPriorityRule = IntRule{"cnp_priority", 1, MaxPriority,
		fmt.Sprintf("Set cnp_priority to the traffic class of CNPs, 1-7 (the default is %d); %s.", DefaultCNPPriority, zeroPrio)}
	LinkSpeedRule = IntRule{"link_speed_gbps", MinLinkSpeedGbps, MaxLinkSpeedGbps,
		fmt.Sprintf("Set link_speed_gbps to the port speed in Gbit/s, %d-%d (the default is %d); ECN thresholds scale with it.",
			MinLinkSpeedGbps, MaxLinkSpeedGbps, DefaultLinkSpeedGbps)}
	PortBufferRule = IntRule{"port_buffer_bytes", MinPortBufferBytes, MaxPortBufferBytes,
		fmt.Sprintf("Set port_buffer_bytes to the buffer one port of the switch may use, %d-%d bytes (the default is %d, 2.5 MiB); it bounds the ECN thresholds.",
			MinPortBufferBytes, MaxPortBufferBytes, DefaultPortBufferBytes)}
)

// Validate checks in, defaults applied, and returns every problem at its attribute.
func (in ProfileInput) Validate() Problems { return all(in) }

func (in ProfileInput) check(c checks) {
	c.str(Root("workload"), WorkloadRule, in.Workload)
	okRoCE := c.int(Root("roce_dscp"), RoCEDSCPRule, int64(in.RoCEDSCP))
	okCNP := c.int(Root("cnp_dscp"), ProfileCNPDSCPRule, int64(in.CNPDSCP))
	if okRoCE && okCNP && in.RoCEDSCP == in.CNPDSCP {
		c.add(Root("cnp_dscp"), fmt.Sprintf("cnp_dscp %d equals roce_dscp", in.CNPDSCP),
			"CNPs need their own strict-priority class, apart from the RoCE data they throttle. Use two different DSCPs (e.g. 26 and 48).")
	}
	okRoCE = c.int(Root("roce_priority"), RoCEPriorityRule, int64(in.RoCEPriority))
	okCNP = c.int(Root("cnp_priority"), ProfileCNPPriorityRule, int64(in.CNPPriority))
	if okRoCE && okCNP && in.RoCEPriority == in.CNPPriority {
		c.add(Root("cnp_priority"), fmt.Sprintf("cnp_priority %d equals roce_priority", in.CNPPriority),
			"CNPs must not wait behind (or be paused with) the RoCE data they throttle. Use two different priorities (e.g. 3 and 6).")
	}
	c.int(Root("link_speed_gbps"), LinkSpeedRule, int64(in.LinkSpeedGbps))
	c.int(Root("port_buffer_bytes"), PortBufferRule, in.PortBufferBytes)
}

// BuildProfile applies the defaults to in, validates it and returns the workload's settings.
// The error is a Problems when the input is invalid. Every call returns new maps and slices.
func BuildProfile(in ProfileInput) (Profile, error) {
	in = in.WithDefaults()
	if err := in.Validate().Err(); err != nil {
		return Profile{}, err
	}
	ps := presets[in.Workload]
	roce := Class{
		TrafficClass: in.RoCEPriority, DSCP: []int{in.RoCEDSCP},
		BandwidthPercent: Ptr(ps.roceBandwidthPercent), Lossless: ps.lossless,
		ECN: Ptr(ps.ecn(in.LinkSpeedGbps, int(in.PortBufferBytes/KiB))),
	}
	pfc := []int{}
	if ps.lossless {
		pfc = []int{in.RoCEPriority}
	}
	return Profile{
		SwitchClasses: map[string]Class{
			ProfileClassRoCE: roce,
			ProfileClassCNP:  {TrafficClass: in.CNPPriority, DSCP: []int{in.CNPDSCP}, StrictPriority: true},
			ProfileClassDefault: {
				TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: Ptr(100 - ps.roceBandwidthPercent),
			},
		},
		PFCPriorities:     pfc,
		NICDSCPToPriority: map[int]int{in.RoCEDSCP: in.RoCEPriority, in.CNPDSCP: in.CNPPriority},
		RoCEToS:           in.RoCEDSCP<<2 | ectZero,
		ReactionPoint:     merge(nvidiaReactionPoint, ps.reactionPoint),
		NotificationPoint: merge(notificationPoint, nil),
	}, nil
}

// ectZero is the ECN field ECT(0), binary 10: RoCE packets are ECN-capable, so switches mark CE
// instead of dropping (RFC 3168). 106 = 26 << 2 | 2 is the conventional RoCE ToS.
const ectZero = 2

// merge returns a new map holding base overridden by over.
func merge(base, over map[string]int64) map[string]int64 {
	out := maps.Clone(base)
	maps.Copy(out, over)
	return out
}
