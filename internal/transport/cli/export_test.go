package cli

// StaleCheckpointAge lets the lab tests age checkpoints in seconds rather than an hour.
var StaleCheckpointAge = &staleCheckpointAge
