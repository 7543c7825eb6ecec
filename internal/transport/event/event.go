// Package event is what every transport reports its events to (connects, attempts, durations),
// one interface so that one bridge in the provider serves them all.
package event

import "context"

// Logger receives transport events; the provider bridges it to tflog. No transport passes it
// a password.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
}
