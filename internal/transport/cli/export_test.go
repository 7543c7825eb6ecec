package cli

import "time"

// SetStaleCheckpointAge lets the lab tests age checkpoints in seconds rather than an hour, on
// their own client.
func SetStaleCheckpointAge(c *Client, age time.Duration) { c.staleCheckpointAge = age }
