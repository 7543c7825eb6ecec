package fabric

// The workload presets of roce_profile and where every value comes from.
//
// Sources:
//
//	[NV-FW]   NVIDIA ConnectX firmware defaults of DCQCN (mlxconfig RPG_* / DCE_* / *_CNP*; the same
//	          values as the "Default" column of NVIDIA's "DCQCN CC Parameters" page, DOCA / MLNX_OFED
//	          documentation, and domain.md section 2).
//	[NV-DOC]  The same NVIDIA page for semantics: rpg_min_dec_fac bounds one rate reduction so that
//	          new rate >= min_dec_fac % of the current rate (100 prevents reductions);
//	          rate_reduce_monitor_period is the time between rate reductions.
//	[CUMULUS] NVIDIA Cumulus `nv set qos roce`: DSCP 26 -> TC 3 lossless, CNP DSCP 48 -> TC 6
//	          strict, ETS TC 3 50 % / TC 0 50 %, ECN 150000 / 1500000 bytes at probability 100.
//	[SONIC]   SONiC AZURE_LOSSLESS WRED profile: 1048576 / 2097152 bytes, probability 5 %.
//	[A000]    Seed article 000 (domain.md section 1): DCQCN CP Kmin 5 KB / Kmax 200 KB; AI training:
//	          faster rate recovery and a larger Kmax (its example: 300 KB, i.e. 1.5x); storage
//	          replication: a smaller rate cut (beta 1/4 instead of 1/2) and a rate limiter to smooth
//	          the flow; NP CNP interval 2 us.
//	[DOMAIN]  domain.md section 2: np_min_time_between_cnps 2-4 us.
//	[PROJECT] This project's choice, in the direction the articles give; the magnitudes are ours.
//
// Values (G = link_speed_gbps; thresholds in KiB = 1024 bytes, so every platform, including
// the kbyte-based NX-OS and EOS, represents them exactly):
//
//	value                          ai-training          storage           lossy             origin
//	roce class                     lossless, 50 %       lossless, 50 %    lossy, 50 %       [CUMULUS]; lossy: no PFC
//	cnp / default class            strict / 50 %        same              same              [CUMULUS]
//	ECN min_threshold_bytes        ceil(1.5 G) KiB      G KiB             G KiB             see below
//	ECN max_threshold_bytes        15 G KiB             10 G KiB          10 G KiB          see below
//	ECN mark_probability_percent   100                  20                100               [CUMULUS] / [PROJECT]
//	time_reset_us                  100                  300               300               [PROJECT] / [NV-FW]
//	ai_rate_mbps                   20                   5                 5                 [PROJECT] / [NV-FW]
//	hai_rate_mbps                  200                  50                50                [PROJECT] / [NV-FW]
//	min_dec_factor_percent         50                   75                50                [NV-FW] / [A000]+[NV-DOC]
//	rate_reduce_monitor_period_us  4                    8                 4                 [NV-FW] / [PROJECT]
//	other reaction_point keys      firmware defaults    same              same              [NV-FW]
//	min_time_between_cnps_us       4                    4                 4                 [DOMAIN] (firmware: 0)
//
// ECN thresholds. At 100G, ai-training uses [CUMULUS]'s 150000 / 1500000 rounded to whole KiB
// (153600 = 150 KiB, 1536000 = 1500 KiB). Storage and lossy keep Kmax 1.5x lower (1000 KiB), the
// ratio by which [A000] raises Kmax for AI training (200 KB -> 300 KB), and start marking earlier
// (Kmin 100 KiB). Thresholds are queue depths, and the depth that means the same queueing delay
// grows with the drain rate, so all of them scale linearly with the link speed from the 100G
// reference [PROJECT]: ai-training Kmin = ceil(150 KiB x G/100), Kmax = 1500 KiB x G/100; the
// others Kmin = 100 KiB x G/100, Kmax = 1000 KiB x G/100. Kmax stays about 10x Kmin at every speed.
// A queue cannot grow past the port's share of the switch buffer, so Kmax is bounded by the
// per-port buffer budget B (port_buffer_bytes) [PROJECT]: when the linear Kmax exceeds it, Kmax
// is B (whole KiB, rounded down) and Kmin shrinks by the same factor (rounded up), keeping the
// ratio. The default B, 2.5 MiB, is this project's figure for the share of one port of a
// 64 x 800G (51.2 Tb/s) switch, whose shared buffers are of the order of 160 MB; set the switch's
// own figure where it is known. At 100G no preset reaches it.
// Storage marks with probability 20 % at most in the ramp [PROJECT, between SONiC's 5 % and
// Cumulus's 100 %], so CNPs arrive gradually and the rate moves smoothly; lossy marks up to
// 100 % because without PFC a queue that overflows drops RoCE packets.
//
// ai-training reaction point. [A000] asks for faster rate recovery. Recovery is driven by the
// rate-increase parameters: increase events come every time_reset_us (3x more often: 100 us
// instead of 300) and add ai_rate_mbps / hai_rate_mbps (4x larger steps: 20 / 200 Mbps instead
// of 5 / 50). [A000] words this as "raise alpha"; in DCQCN alpha scales each rate cut
// (rate x (1 - alpha/2)), so raising it would cut harder, not recover faster: alpha
// (initial_alpha, dce_tcp_g) stays at the firmware defaults.
//
// storage reaction point. [A000] cuts the rate less (beta 1/4 instead of 1/2). In NVIDIA's
// parameters that is rpg_min_dec_fac [NV-DOC]: 75 bounds a single reduction to a quarter of the
// rate, as the firmware default 50 bounds it to a half. Its rate limiter smoothing is
// rate_reduce_monitor_period_us 8 instead of 4 [PROJECT]: at most one reduction per 8 us, so a
// burst of CNPs lowers the rate by at most 25 % per 8 us, where the defaults allow two 50 % cuts
// (75 %).

// profilePreset is one workload's choices; BuildProfile fills in the input's DSCPs and priorities.
type profilePreset struct {
	lossless             bool
	roceBandwidthPercent int
	ecn                  func(linkSpeedGbps int, budgetKiB int) ECN
	reactionPoint        map[string]int64 // overrides of nvidiaReactionPoint
}

var presets = map[string]profilePreset{
	WorkloadAITraining: {
		lossless: true, roceBandwidthPercent: 50,
		ecn: func(g, b int) ECN { return thresholds((3*g+1)/2, 15*g, b, 100) },
		reactionPoint: map[string]int64{
			"time_reset_us": 100, "ai_rate_mbps": 20, "hai_rate_mbps": 200,
		},
	},
	WorkloadStorage: {
		lossless: true, roceBandwidthPercent: 50,
		ecn: func(g, b int) ECN { return thresholds(g, 10*g, b, 20) },
		reactionPoint: map[string]int64{
			"min_dec_factor_percent": 75, "rate_reduce_monitor_period_us": 8,
		},
	},
	WorkloadLossy: {
		lossless: false, roceBandwidthPercent: 50,
		ecn: func(g, b int) ECN { return thresholds(g, 10*g, b, 100) },
	},
}

// kib returns n KiB in bytes.
func kib(n int) int64 { return int64(n) * KiB }

// thresholds are the linear Kmin and Kmax (KiB) bounded by the budget (KiB): past it both
// shrink by the same factor.
func thresholds(minKiB, maxKiB, budgetKiB, probability int) ECN {
	if maxKiB > budgetKiB {
		minKiB = (minKiB*budgetKiB + maxKiB - 1) / maxKiB
		maxKiB = budgetKiB
	}
	return ECN{MinThresholdBytes: kib(minKiB), MaxThresholdBytes: kib(maxKiB), MarkProbabilityPercent: probability}
}

// nvidiaReactionPoint holds the ConnectX firmware defaults [NV-FW] of every reaction_point key.
var nvidiaReactionPoint = map[string]int64{
	"time_reset_us":                    300,
	"byte_reset":                       32767,
	"threshold":                        1,
	"ai_rate_mbps":                     5,
	"hai_rate_mbps":                    50,
	"min_rate_mbps":                    1,
	"max_rate_mbps":                    0, // line rate
	"dce_tcp_g":                        1019,
	"dce_tcp_rtt_us":                   1,
	"initial_alpha":                    1023,
	"rate_reduce_monitor_period_us":    4,
	"min_dec_factor_percent":           50,
	"gd":                               11,
	"rate_to_set_on_first_cnp_mbps":    0, // unchanged
	"clamp_target_rate":                0,
	"clamp_target_rate_after_time_inc": 1,
}

// notificationPoint is the same for every workload [DOMAIN]: the firmware default 0 sends a CNP
// for every marked packet; 4 us caps CNPs at one per flow per 4 us.
var notificationPoint = map[string]int64{"min_time_between_cnps_us": 4}
