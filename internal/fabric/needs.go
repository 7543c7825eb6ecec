package fabric

// NeedsLossless is a switch write that cannot be made yet because no traffic class of the
// switch is lossless: a PFC interface's headroom or no-drop setting needs a roce_qos_policy's
// lossless class first. Drivers wait for the other writes of the same apply before reporting
// it (Terraform may run the policy beside the interface when nothing orders them).
type NeedsLossless struct{ Reason string }

func (e NeedsLossless) Error() string { return e.Reason }
