// Package tlsconf builds the client TLS configuration of the provider's TLS transports (gNMI,
// NVUE's HTTPS): TLS 1.2 or later, the server name from the device's address, trust roots from
// the device's ca_certificate (the system roots when empty), and no verification only when the
// user chose insecure.
package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
)

// Endpoint is how a TLS transport (gNMI, NVUE) reaches one device and logs in to it.
type Endpoint struct {
	Device   string // the provider's name for the device, used in errors
	Address  string // host:port
	Username string
	Password string
	// CACertificate holds PEM trust roots; empty means the system roots.
	CACertificate []byte
	// Insecure skips certificate verification (TLS is still used). Only by explicit choice.
	Insecure bool
}

// TLS is the client TLS configuration for e (Client).
func (e Endpoint) TLS() (*tls.Config, error) { return Client(e.Address, e.CACertificate, e.Insecure) }

// Client returns the TLS configuration for a device at address (host:port).
func Client(address string, caPEM []byte, insecure bool) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if host, _, err := net.SplitHostPort(address); err == nil {
		cfg.ServerName = host
	}
	if insecure {
		cfg.InsecureSkipVerify = true // #nosec G402 -- only by the user's explicit `insecure = true`, warned at plan time.
		return cfg, nil
	}
	if len(caPEM) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, errors.New("ca_certificate holds no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}
