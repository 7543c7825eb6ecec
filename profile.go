//go:build roceprofile

package main

// Built only with -tags roceprofile (never in a release): ROCE_PPROF_ADDR=127.0.0.1:6060 serves
// net/http/pprof from the provider process, so a provider started with -debug (one long-lived
// process that Terraform reattaches to) can be profiled across plans (DESIGN.md, Performance).

import (
	"net/http"
	_ "net/http/pprof" //nolint:gosec // profiling build only, on the address the engineer chose
	"os"
)

func init() {
	if addr := os.Getenv("ROCE_PPROF_ADDR"); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }() //nolint:gosec // profiling build only
	}
}
