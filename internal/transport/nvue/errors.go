package nvue

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
)

// Error is a failed NVUE operation on one switch.
type Error struct {
	Device   string
	Address  string
	Op       string // get, create revision, stage change, apply revision, poll revision
	Attempts int
	// Revision is the revision the failure left behind ("" before one existed); State its
	// final state when NVUE ended it (invalid, apply_fail, ...).
	Revision string
	State    string
	// Issues are NVUE's reasons for a failed revision.
	Issues []Issue
	Err    error
}

// Issue is one entry of a revision's transition issues: for an invalid configuration code
// "config_invalid", the location (a dotted path such as qos.pfc.ROCE) and the reason.
type Issue struct {
	Code     string
	Message  string
	Severity string
	Location string
	Reason   string
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("NVUE %s on device %q (%s)%s", e.Op, e.Device, e.Address, retry.AfterAttempts(e.Attempts))
	if e.Revision != "" {
		msg += fmt.Sprintf(", revision %s", e.Revision)
	}
	if e.State != "" && e.Err == nil {
		msg += fmt.Sprintf(" ended %s, nothing applied", e.State)
		var msgs []string
		for _, i := range e.Issues {
			msgs = append(msgs, strings.TrimSpace(i.Message))
		}
		if len(msgs) > 0 {
			msg += ": " + strings.Join(msgs, "; ")
		}
		return msg
	}
	if e.Err == nil {
		return msg
	}
	return msg + ": " + describe(e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Rejected reports whether the switch refused the change itself (a request it answered with
// an error, or a revision it ended failed), as opposed to the transport failing.
func Rejected(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	var h *HTTPError
	return (e.State != "" && e.Err == nil) || (errors.As(e.Err, &h) && h.Status/100 == 4)
}

// HTTPError is an answer other than 2xx. NVUE's errors are JSON with title and detail
// (NVIDIA's NVOS test client reads those), or message (the OpenAPI's error schema); nginx in
// front answers some with an HTML page.
type HTTPError struct {
	Status int
	Title  string
	Detail string
}

func (h *HTTPError) Error() string {
	s := fmt.Sprintf("HTTP %d", h.Status)
	switch {
	case h.Title != "" && h.Detail != "":
		return s + " " + h.Title + ": " + h.Detail
	case h.Title != "" || h.Detail != "":
		return s + " " + h.Title + h.Detail
	}
	return s + " " + http.StatusText(h.Status)
}

func httpError(status int, body []byte) error {
	h := &HTTPError{Status: status}
	var j struct {
		Title   string `json:"title"`
		Detail  string `json:"detail"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &j) == nil {
		h.Title, h.Detail = j.Title, j.Detail
		if h.Detail == "" {
			h.Detail = j.Message
		}
	}
	return h
}

func describe(err error) string {
	var h *HTTPError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	var recordHeader tls.RecordHeaderError
	switch {
	case errors.As(err, &h) && (h.Status == http.StatusUnauthorized || h.Status == http.StatusForbidden):
		return "authentication failed (check username and password; Cumulus Linux 5.6 and later answer 403 until the " +
			"default password is changed): " + h.Error()
	case errors.As(err, &unknownAuthority), errors.As(err, &hostname), errors.As(err, &certInvalid):
		return "TLS verification failed (the switch's certificate is not trusted: check ca_certificate): " + err.Error()
	case errors.As(err, &recordHeader):
		return "the address does not speak TLS (is it NVUE's HTTPS port, 8765 by default?): " + err.Error()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out: " + err.Error()
	}
	return err.Error()
}

// transient failures are worth another read: the request may not have reached the switch, or
// nginx/nvued answered that it is not ready.
func transient(err error) bool {
	var h *HTTPError
	if errors.As(err, &h) {
		return h.Status == http.StatusBadGateway || h.Status == http.StatusServiceUnavailable || h.Status == http.StatusGatewayTimeout
	}
	var ne net.Error
	var op *net.OpError
	return errors.As(err, &ne) && ne.Timeout() || errors.As(err, &op)
}

func (c *Client) wrap(op string, attempts int, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op, Attempts: attempts, Err: err}
}
