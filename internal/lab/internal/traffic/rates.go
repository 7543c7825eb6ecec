package traffic

// Rates more than one family's counters run at, per second (each family's counters file keeps
// its own): RoCE packets, a switch's output queue, and what a storm adds. One table, so that a
// host and the switch port it is cabled to count the same traffic.
const (
	// RDMAPktBytes is one RoCE packet: a 4096-byte payload plus RoCEv2 headers.
	RDMAPktBytes = 4154
	// StormPausePPS: the PFC pause frames a port receives on each paused priority in a storm.
	StormPausePPS = 10_000

	// QueuePPS is a switch output queue's steady rate; QueueECNMarkPPS its ECN marks.
	QueuePPS        = 500_000
	QueueECNMarkPPS = 50

	// While a switch port's storm is on: its discards, and each queue's drops and marks.
	StormInDiscardPPS  = 200
	StormOutDiscardPPS = 1_000
	StormQueueDropPPS  = 1_000
	StormQueueMarkPPS  = 20_000
)
