// Package event is what every transport reports its events to (connects, attempts, durations),
// one interface so that one bridge in the provider serves them all.
package event

import "context"

// Logger receives transport events; the provider bridges it to tflog. No transport passes it
// a password.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
}

// Log sends msg and fields to l, when there is one, adding the device (the provider's name for
// it) and its address to the fields.
func Log(ctx context.Context, l Logger, device, address, msg string, fields map[string]any) {
	if l == nil {
		return
	}
	fields["device"], fields["address"] = device, address
	l.Debug(ctx, msg, fields)
}

// ErrText is err's text for an event's "error" field, "" for none.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
