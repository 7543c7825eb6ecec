package gnmiswitch

import (
	"os"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

func TestMain(m *testing.M) {
	removeLogs := labtest.KeepGlogOutOfTmp("gnmiswitch-test-logs")
	code := m.Run()
	removeLogs()
	os.Exit(code)
}
