package bench

import (
	"fmt"
	"slices"
	"time"
)

// Kind is what a run measures.
type Kind string

const (
	// NoChange is `terraform plan` against devices that match the state.
	NoChange Kind = "no-change plan"
	// Drift is `terraform plan` after 5% of the ports were changed out of band.
	Drift Kind = "drift plan"
	// Apply is `terraform apply` of the whole fabric from an empty state (and devices).
	Apply Kind = "apply from empty"
	// Destroy is `terraform destroy` of the whole fabric.
	Destroy Kind = "destroy"
)

// DeviceCount is what one device saw during a run: connections accepted and requests served
// (gNMI RPCs on a switch, SSH exec requests on a host), and of those the reads (gNMI Get and
// Subscribe; every host exec request, which the lab does not tell apart) and the writes (gNMI
// Set; on hosts unknown, so 0).
type DeviceCount struct {
	Connections int64 `json:"connections"`
	Requests    int64 `json:"requests"`
	Reads       int64 `json:"reads"`
	Writes      int64 `json:"writes"`
}

// Sample is one run of one command.
type Sample struct {
	Wall      time.Duration          `json:"wall_ns"`
	CPU       time.Duration          `json:"cpu_ns"` // Terraform's and its provider processes' user and system time
	Exit      int                    `json:"exit"`
	Err       string                 `json:"error,omitempty"` // set when the run did not end as expected
	PeakRSSKB int64                  `json:"peak_rss_kb"`
	Processes int                    `json:"provider_processes"`
	Counts    map[string]DeviceCount `json:"counts,omitempty"` // per device of the configuration
}

// Measurement is the samples of one variant and kind at one fabric size.
type Measurement struct {
	Variant   Variant  `json:"variant"`
	Kind      Kind     `json:"kind"`
	Resources int      `json:"resources"`
	Samples   []Sample `json:"samples"`
}

// OK reports whether every sample ended as expected.
func (m Measurement) OK() bool {
	if len(m.Samples) == 0 {
		return false
	}
	for _, s := range m.Samples {
		if s.Err != "" {
			return false
		}
	}
	return true
}

// Error is the first sample's error, "" if there is none.
func (m Measurement) Error() string {
	for _, s := range m.Samples {
		if s.Err != "" {
			return s.Err
		}
	}
	if len(m.Samples) == 0 {
		return "not measured"
	}
	return ""
}

// Median is the median wall time of the samples (the mean of the middle two of an even count).
func (m Measurement) Median() time.Duration {
	walls := make([]time.Duration, len(m.Samples))
	for i, s := range m.Samples {
		walls[i] = s.Wall
	}
	return Median(walls)
}

// Median of ds; 0 for none.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// PeakRSSKB is the largest provider peak RSS over the samples.
func (m Measurement) PeakRSSKB() int64 {
	var p int64
	for _, s := range m.Samples {
		p = max(p, s.PeakRSSKB)
	}
	return p
}

// MaxProcesses is the largest number of provider processes one sample started.
func (m Measurement) MaxProcesses() int {
	p := 0
	for _, s := range m.Samples {
		p = max(p, s.Processes)
	}
	return p
}

// Stat is the maximum and mean of a per-device count over the devices of one platform, over
// all samples (the maximum of the worst sample, the mean of all device-samples).
type Stat struct {
	Max     int64
	Mean    float64
	Devices int // devices of the platform in one sample
}

// Stats returns the requests and connections of the devices of one platform (platformOf maps
// a device name to its platform).
func (m Measurement) Stats(platform string, platformOf func(string) string) (requests, connections Stat) {
	requests = m.Stat(platform, platformOf, func(c DeviceCount) int64 { return c.Requests })
	connections = m.Stat(platform, platformOf, func(c DeviceCount) int64 { return c.Connections })
	return requests, connections
}

// Stat is one count (pick) over the devices of one platform.
func (m Measurement) Stat(platform string, platformOf func(string) string, pick func(DeviceCount) int64) Stat {
	var st Stat
	var sum, n int64
	for _, s := range m.Samples {
		devices := 0
		for name, c := range s.Counts {
			if platformOf(name) != platform {
				continue
			}
			devices++
			n++
			sum += pick(c)
			st.Max = max(st.Max, pick(c))
		}
		st.Devices = devices
	}
	if n > 0 {
		st.Mean = float64(sum) / float64(n)
	}
	return st
}

// Results are all the measurements of one bench run.
type Results struct {
	Size         string            `json:"size"`
	Latency      time.Duration     `json:"latency_ns"`
	Parallelism  int               `json:"parallelism"`
	Repetitions  int               `json:"repetitions"`
	DriftPorts   int               `json:"drift_ports"`
	Platforms    map[string]string `json:"platforms"` // device -> platform
	Measurements []Measurement     `json:"measurements"`
	// Variants are the variants the run was asked for (empty: those measured); Skipped says
	// why a requested variant was not run.
	Variants []Variant          `json:"variants,omitempty"`
	Skipped  map[Variant]string `json:"skipped,omitempty"`
	Lab      LabCost            `json:"lab"`
}

// LabCost is what the in-process lab cost the bench process: the lab runs inside it, so its
// memory and descriptors are the bench's own (Terraform and the providers are other processes).
type LabCost struct {
	Devices    int           `json:"devices"`
	Start      time.Duration `json:"start_ns"`               // lab.Start, until every device listens
	RSSKB      int64         `json:"rss_after_start_kb"`     // VmRSS right after the start
	FDs        int           `json:"fds_after_start"`        // open descriptors right after the start
	Goroutines int           `json:"goroutines_after_start"` // idem
	PeakRSSKB  int64         `json:"peak_rss_kb"`            // VmHWM at the end: the lab serving every run
	PeakFDs    int           `json:"peak_fds"`               // most open descriptors seen, sampled every 100 ms
	NoFile     uint64        `json:"rlimit_nofile"`          // the soft RLIMIT_NOFILE the bench ran with
}

// FormatLabCost is the table's line on the lab.
func FormatLabCost(c LabCost) string {
	if c.Devices == 0 {
		return ""
	}
	return fmt.Sprintf("Lab (in the bench process): %d devices started in %s; after the start RSS %s, %d open files, %d goroutines; "+
		"over the run peak RSS %s, at most %d open files (RLIMIT_NOFILE %d).\n",
		c.Devices, Seconds(c.Start), MB(c.RSSKB), c.FDs, c.Goroutines, MB(c.PeakRSSKB), c.PeakFDs, c.NoFile)
}

// Find returns the measurement of a variant and kind at a number of resources.
func (r Results) Find(v Variant, k Kind, resources int) (Measurement, bool) {
	for _, m := range r.Measurements {
		if m.Variant == v && m.Kind == k && m.Resources == resources {
			return m, true
		}
	}
	return Measurement{}, false
}

// FullResources is the largest fabric measured of a variant (in its shape's resources).
func (r Results) FullResources(v Variant) int {
	n := 0
	for _, m := range r.Measurements {
		if m.Variant == v {
			n = max(n, m.Resources)
		}
	}
	return n
}

// Requested are the variants of the run in table order: those asked for, else those measured.
func (r Results) Requested() []Variant {
	if len(r.Variants) > 0 {
		return r.Variants
	}
	var out []Variant
	for _, v := range Variants {
		if r.FullResources(v) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// PlatformOf names a device's platform.
func (r Results) PlatformOf(device string) string { return r.Platforms[device] }
