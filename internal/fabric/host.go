package fabric

// NICQoS is the QoS of one NIC netdev on a host (roce_nic_qos).
type NICQoS struct {
	Interface string
	// Trust is dscp or pcp.
	Trust         Trust
	PFCPriorities []int // sorted, unique, 0-7
	// DSCPToPriority maps DSCP 0-63 to priority 0-7; unlisted DSCPs go to priority 0.
	DSCPToPriority map[int]int
	// PriorityToTC maps priority 0-7 to TC 0-7; unlisted priorities go to TC 0. nil: unmanaged.
	PriorityToTC map[int]int
	// ETS is keyed by TC 0-7 and owned whole (unlisted TCs: 0 %, not strict). nil: unmanaged.
	ETS map[int]ETSClass
	// RoCEToS is the default ToS byte of RDMA-CM RoCE traffic. nil: unmanaged.
	RoCEToS *int
	// Persist: the host re-applies these settings whenever the netdev appears (a boot unit).
	Persist bool
	// Tool is what the host's settings are read and written with (mlnx_qos or dcb), as the
	// host read found it; not configured.
	Tool string
}

// ETSClass is one TC's scheduling: exactly one of BandwidthPercent and StrictPriority.
type ETSClass struct {
	BandwidthPercent *int
	StrictPriority   bool
}

// DCQCN is the congestion control of one NIC netdev (roce_dcqcn_profile).
type DCQCN struct {
	Interface string
	// Priorities get roce_rp and roce_np enabled; every other priority gets them disabled.
	Priorities  []int // sorted, unique, 0-7
	CNPDSCP     int   // 0-63
	CNPPriority int   // 0-7
	// ReactionPoint and NotificationPoint hold only the parameters the configuration sets
	// (unset ones are unmanaged), keyed by the contract's attribute names, e.g.
	// "time_reset_us", "clamp_target_rate" (booleans as 0/1), "min_time_between_cnps_us".
	ReactionPoint     map[string]int64
	NotificationPoint map[string]int64
	// Persist: the host re-applies these settings whenever the netdev appears (a boot unit).
	Persist bool
}

// ReactionPointParams lists the contract's reaction_point attributes; BoolParams says which of
// them are booleans.
var ReactionPointParams = []string{
	"time_reset_us", "byte_reset", "threshold", "ai_rate_mbps", "hai_rate_mbps", "min_rate_mbps",
	"max_rate_mbps", "dce_tcp_g", "dce_tcp_rtt_us", "initial_alpha", "rate_reduce_monitor_period_us",
	"min_dec_factor_percent", "gd", "rate_to_set_on_first_cnp_mbps", "clamp_target_rate",
	"clamp_target_rate_after_time_inc",
}

// NotificationPointParams lists the contract's notification_point attributes.
var NotificationPointParams = []string{"min_time_between_cnps_us"}

// BoolParams are the DCQCN parameters that are booleans in the schema (0/1 on the device).
var BoolParams = map[string]bool{"clamp_target_rate": true, "clamp_target_rate_after_time_inc": true}
