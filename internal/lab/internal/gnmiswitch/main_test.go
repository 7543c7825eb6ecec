package gnmiswitch

import (
	"flag"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// Keep the datastore's glog files out of /tmp.
	logs, err := os.MkdirTemp("", "gnmiswitch-test-logs")
	if err != nil {
		panic(err)
	}
	_ = flag.Set("log_dir", logs)
	code := m.Run()
	_ = os.RemoveAll(logs)
	os.Exit(code)
}
