package lab

// The tests talk to the lab with a plain gNMI client written here, not with
// the provider's transport, so the lab is checked against the protocol and
// not against our own understanding of it.

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

func TestMain(m *testing.M) {
	labtest.Main(m, "lab-test-logs", func() {
		if shared.lab != nil {
			shared.lab.Stop()
		}
		_ = os.RemoveAll(shared.dir)
	})
}

// shared is one lab for the tests that only need an ordinary switch: starting
// a switch costs seconds (lemming builds its OpenConfig schema three times).
// Tests using it do not run in parallel and each uses its own object names.
var shared struct {
	once sync.Once
	lab  *Lab
	dir  string
	err  error
}

func sharedLab(t *testing.T) *Lab {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "lab-test") //nolint:usetesting // shared by many tests, removed in TestMain
		if shared.err != nil {
			return
		}
		shared.lab, shared.err = Start(context.Background(), Options{
			Switches: map[string]int{"openconfig": 2},
			Dir:      shared.dir,
		})
	})
	if shared.err != nil {
		t.Fatalf("start shared lab: %v", shared.err)
	}
	return shared.lab
}

// startLab starts a lab of o that stops with the test.
func startLab(t *testing.T, o Options) *Lab {
	t.Helper()
	l, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	return l
}

func entry(t *testing.T, l *Lab, name string) DeviceEntry {
	t.Helper()
	d, ok := l.Inventory().Devices[name]
	if !ok {
		t.Fatalf("no device %s in inventory", name)
	}
	return d
}
