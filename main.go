// Command terraform-provider-roce is the Terraform provider for RoCEv2 lossless fabric QoS.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/rocefabric/terraform-provider-roce/internal/memlimit"
	"github.com/rocefabric/terraform-provider-roce/internal/profiling"
	"github.com/rocefabric/terraform-provider-roce/internal/provider"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// memoryLimit is the provider's soft heap limit unless GOMEMLIMIT sets one. Most of a plan's
// heap is per-request garbage (the plugin SDK's request loggers and decoded values); with the
// Go default (collect when the heap doubles) it grows with the fabric, past 200 MB of RSS at
// 1,600 resources. The soft limit makes the collector run more often only once the heap nears
// it, so small fabrics pay nothing (make bench measures both). A live heap that reaches it (a
// plan of thousands of map entries) raises it (internal/memlimit): a limit below the live heap
// would keep the collector running back to back.
const memoryLimit = 128 << 20

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if os.Getenv("GOMEMLIMIT") == "" {
		defer memlimit.Follow(memoryLimit, nil)()
	}
	quietSDKLogs(os.Getenv, os.Setenv)
	stopProfiling := profiling.Start() // ROCE_PPROF_DIR in a roceprofile build only (make bench)

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/rocefabric/roce",
		Debug:   debug,
	})
	stopProfiling()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// logVars are the variables with which a user asks Terraform or the plugin SDKs for logs.
var logVars = []string{"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_ROCE", "TF_LOG_SDK", "TF_LOG_SDK_PROTO",
	"TF_LOG_SDK_FRAMEWORK", "TF_LOG_PATH"}

// quietSDKLogs turns the plugin SDKs' own logs off when the user asked for no logs at all: the
// SDKs build and encode a trace entry per RPC whatever the level, and Terraform discards them
// when TF_LOG is unset (issue "Performance against the real floor" measured 19-26 % of the
// provider's CPU in them). Any log variable the user set leaves everything as it was.
func quietSDKLogs(getenv func(string) string, setenv func(string, string) error) {
	for _, v := range logVars {
		if getenv(v) != "" {
			return
		}
	}
	for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		_ = setenv(v, "OFF")
	}
}
