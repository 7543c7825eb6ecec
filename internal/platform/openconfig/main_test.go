package openconfig

import (
	"os"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func TestMain(m *testing.M) {
	// lemming's datastore logs through glog, which writes files to /tmp unless told otherwise.
	logs, err := os.MkdirTemp("", "openconfig-test-logs")
	if err == nil {
		lab.KeepLogsIn(logs)
	}
	code := m.Run()
	_ = os.RemoveAll(logs)
	os.Exit(code)
}
