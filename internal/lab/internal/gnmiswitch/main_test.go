package gnmiswitch

import (
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

func TestMain(m *testing.M) { labtest.Main(m, "gnmiswitch-test-logs", nil) }
