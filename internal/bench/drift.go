package bench

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"strconv"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
)

// DriftFraction is the share of switch ports the drift plan finds changed out of band.
const DriftFraction = 0.05

// DriftDetectionMS is the PFC watchdog detection time the out-of-band change sets (the
// configuration says 200).
const DriftDetectionMS = 300

// DriftPorts picks ceil(5%) of the ports ("switch/port"), spread evenly over the fabric.
func DriftPorts(ports []string) []string {
	n := int(float64(len(ports))*DriftFraction + 0.999999)
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, ports[i*len(ports)/n])
	}
	return out
}

// DriftChanges is the number of resources a plan after the drift of ports must change: a
// resource per port per interface, a roce_pfc_interfaces (roce_pfc_interface_group) per
// switch touched map-keyed (grouped: the drifted ports leave the group's set).
func DriftChanges(ports []string, shape Shape) int {
	if shape == PerInterface {
		return len(ports)
	}
	switches := map[string]bool{}
	for _, sp := range ports {
		sw, _, _ := strings.Cut(sp, "/")
		switches[sw] = true
	}
	return len(switches)
}

// DriftPaths groups the PFC watchdog detection_time fields of ports ("switch/port") by switch:
// CONFIG_DB paths PFC_WD/<port>/detection_time under origin sonic-db.
func DriftPaths(ports []string) map[string][]*gpb.Path {
	out := map[string][]*gpb.Path{}
	for _, sp := range ports {
		sw, port, _ := strings.Cut(sp, "/")
		out[sw] = append(out[sw], &gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{
			{Name: "CONFIG_DB"}, {Name: "localhost"}, {Name: "PFC_WD"}, {Name: port}, {Name: "detection_time"},
		}})
	}
	return out
}

// SetOutOfBand changes fields on a sonic switch as an operator's own gNMI client would: one Set
// with an Update per path, each to the JSON_IETF value, over TLS with the inventory's CA and
// credentials. It shares nothing with the provider's transport.
func SetOutOfBand(ctx context.Context, d InventoryDevice, paths []*gpb.Path, value string) error {
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(d.CACertificate)) {
		return fmt.Errorf("%s: no PEM CA certificate in the inventory", d.Address)
	}
	conn, err := grpc.NewClient(d.Address, grpc.WithTransportCredentials(
		credentials.NewTLS(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12})))
	if err != nil {
		return fmt.Errorf("%s: %w", d.Address, err)
	}
	defer func() { _ = conn.Close() }()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "username", d.Username, "password", d.Password)
	req := &gpb.SetRequest{}
	for _, p := range paths {
		req.Update = append(req.Update, &gpb.Update{Path: p, Val: &gpb.TypedValue{
			Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(strconv.Quote(value))}}})
	}
	if _, err := gpb.NewGNMIClient(conn).Set(ctx, req); err != nil {
		return fmt.Errorf("%s: set: %w", d.Address, err)
	}
	return nil
}
