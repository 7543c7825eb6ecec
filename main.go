// Command terraform-provider-roce is the Terraform provider for RoCEv2 lossless fabric QoS.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	rtdebug "runtime/debug"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/rocefabric/terraform-provider-roce/internal/provider"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// memoryLimit is the provider's soft heap limit unless GOMEMLIMIT sets one. Most of a plan's
// heap is per-request garbage (the plugin SDK's request loggers and decoded values); with the
// Go default (collect when the heap doubles) it grows with the fabric, past 200 MB of RSS at
// 1,600 resources. The soft limit makes the collector run more often only once the heap nears
// it, so small fabrics pay nothing (make bench measures both).
const memoryLimit = 128 << 20

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if os.Getenv("GOMEMLIMIT") == "" {
		rtdebug.SetMemoryLimit(memoryLimit)
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/rocefabric/roce",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
