// Command terraform-provider-roce is the Terraform provider for RoCEv2 lossless fabric QoS.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/rocefabric/terraform-provider-roce/internal/provider"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/rocefabric/roce",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
