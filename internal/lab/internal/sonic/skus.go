package sonic

// The SONiC switch models (SKUs) the lab simulates (sonic-switch.md, "Models"), from
// sonic-net/sonic-buildimage at 086b03bd: device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700
// (buffers_defaults_t0.j2, buffers_defaults_objects.j2, pg_profile_lookup.ini) and
// device/arista/x86_64-arista_7060_cx32s/Arista-7060CX-32S-C32, whose buffer files link to
// device/common/profiles/th/gen/BALANCED. Mellanox images run the dynamic buffer model
// (platform/mellanox/rules.mk: SONIC_BUFFER_MODEL=dynamic), the others the traditional one.

// sonicSKU is one real SONiC hardware SKU: its DEVICE_METADATA identity, ASIC family (which
// branch of qos_config.j2 renders its QoS tables), buffer model (which buffer manager runs),
// buffer pools and profiles, and the pg_profile_lookup.ini rows buffermgrd uses.
type sonicSKU struct {
	hwsku, platform string
	asic            string // "mellanox" or "broadcom"
	bufferModel     string // "dynamic" or "traditional"
	speed           string // every port's speed, Mb/s
	cable           string // buffers_defaults_t0.j2 default_cable
	lookup          map[[2]string]pgLookup
	pools           func() map[string]map[string]string
	profiles        func() map[string]map[string]string
}

// pgLookup is one pg_profile_lookup.ini row: speed cable size xon xoff threshold [xon_offset].
type pgLookup struct{ size, xon, xoff, threshold, xonOffset string }

var sonicSKUs = map[string]sonicSKU{
	"ACS-MSN2700": {hwsku: "ACS-MSN2700", platform: "x86_64-mlnx_msn2700-r0", asic: "mellanox",
		bufferModel: "dynamic", speed: "100000", cable: "5m",
		lookup: map[[2]string]pgLookup{
			{"40000", "5m"}: {"49152", "19456", "29696", "0", ""}, {"100000", "5m"}: {"50176", "19456", "30720", "0", ""},
			{"40000", "40m"}: {"52224", "19456", "32768", "0", ""}, {"100000", "40m"}: {"58368", "19456", "38912", "0", ""},
			{"40000", "300m"}: {"78848", "19456", "59392", "0", ""}, {"100000", "300m"}: {"123904", "19456", "104448", "0", ""},
		},
		pools: func() map[string]map[string]string {
			return map[string]map[string]string{
				"ingress_lossless_pool": {"mode": "dynamic", "type": "ingress"},
				"ingress_lossy_pool":    {"mode": "dynamic", "type": "ingress"},
				"egress_lossless_pool":  {"mode": "dynamic", "size": "13945824", "type": "egress"},
				"egress_lossy_pool":     {"mode": "dynamic", "type": "egress"},
			}
		},
		profiles: func() map[string]map[string]string {
			return map[string]map[string]string{
				"ingress_lossless_profile": {"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "7"},
				"ingress_lossy_profile":    {"pool": "ingress_lossy_pool", "size": "0", "dynamic_th": "3"},
				"egress_lossless_profile":  {"pool": "egress_lossless_pool", "size": "0", "dynamic_th": "7"},
				"egress_lossy_profile":     {"pool": "egress_lossy_pool", "size": "9216", "dynamic_th": "7"},
				"q_lossy_profile":          {"pool": "egress_lossy_pool", "size": "0", "dynamic_th": "3"},
			}
		},
	},
	"Arista-7060CX-32S-C32": {hwsku: "Arista-7060CX-32S-C32", platform: "x86_64-arista_7060_cx32s", asic: "broadcom",
		bufferModel: "traditional", speed: "100000", cable: "5m",
		lookup: map[[2]string]pgLookup{
			{"40000", "5m"}: {"1248", "2288", "66560", "0", "2288"}, {"100000", "5m"}: {"1248", "2288", "165568", "0", "2288"},
			{"40000", "40m"}: {"1248", "2288", "71552", "0", "2288"}, {"100000", "40m"}: {"1248", "2288", "177632", "0", "2288"},
			{"40000", "300m"}: {"1248", "2288", "108160", "0", "2288"}, {"100000", "300m"}: {"1248", "2288", "268736", "0", "2288"},
		},
		pools: func() map[string]map[string]string {
			return map[string]map[string]string{
				"ingress_lossless_pool": {"size": "10875072", "type": "ingress", "mode": "dynamic", "xoff": "4194112"},
				"egress_lossy_pool":     {"size": "9243812", "type": "egress", "mode": "dynamic"},
				"egress_lossless_pool":  {"size": "15982720", "type": "egress", "mode": "static"},
			}
		},
		profiles: func() map[string]map[string]string {
			return map[string]map[string]string{
				"ingress_lossy_profile":   {"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "3"},
				"egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "1518", "static_th": "15982720"},
				"egress_lossy_profile":    {"pool": "egress_lossy_pool", "size": "1518", "dynamic_th": "3"},
			}
		},
	},
}

// lossyQueueProfile is the profile of the lossy queues 0-2 and 5-6 (the Mellanox SKU's own
// q_lossy_profile; buffers_config.j2's egress_lossy_profile otherwise).
func (s sonicSKU) lossyQueueProfile() string {
	if s.asic == "mellanox" {
		return "q_lossy_profile"
	}
	return "egress_lossy_profile"
}

// Models lists the SONiC models (SKUs) the lab simulates, the default first: the seed
// deployment's Mellanox SN2700.
func Models() []string { return []string{"ACS-MSN2700", "Arista-7060CX-32S-C32"} }
