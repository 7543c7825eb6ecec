// Command noop is the bench's no-op framework provider (internal/bench/noop): roce's schemas,
// no behaviour. make bench builds it beside the provider and points a second CLI configuration
// at it; it is never shipped.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/rocefabric/terraform-provider-roce/internal/bench/noop"
	"github.com/rocefabric/terraform-provider-roce/internal/profiling"
	"github.com/rocefabric/terraform-provider-roce/internal/provider"
)

func main() {
	stopProfiling := profiling.Start() // as the provider's main (ROCE_PPROF_DIR, roceprofile build)
	err := providerserver.Serve(context.Background(), noop.New(provider.New("noop")), providerserver.ServeOpts{
		Address: "registry.terraform.io/rocefabric/roce",
	})
	stopProfiling()
	if err != nil {
		log.Fatal(err.Error())
	}
}
