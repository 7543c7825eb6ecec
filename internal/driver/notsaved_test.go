package driver

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

func TestNotSavedIsAWarningWithTheNewPrior(t *testing.T) {
	saveFailed := &cli.Error{Device: "eos-1", Op: "configure", Line: "write memory", NotSaved: true, Err: errors.New("disk full")}
	refused := &cli.Error{Device: "eos-1", Op: "configure", Line: "x", Rejected: true, RolledBack: true}
	warned := &cli.Error{Device: "eos-1", Op: "configure", Warnings: []cli.Warning{{Line: "interface Ethernet9/1",
		Text: "! Interface does not exist. The configuration will not take effect until the module is inserted."}}}
	refusedWithWarning := &cli.Error{Device: "eos-1", Op: "configure", Line: "x", Rejected: true, RolledBack: true, Warnings: warned.Warnings}
	if what, ok := Applied(fmt.Errorf("wrapped: %w", saveFailed)); !ok || what != "applied but not saved" {
		t.Errorf("a committed change whose save failed: %q %v", what, ok)
	}
	if what, ok := Applied(warned); !ok || what != "applied with warnings from the device" {
		t.Errorf("a committed change answered with a warning: %q %v", what, ok)
	}
	for _, err := range []error{refused, refusedWithWarning, nil, errors.New("other")} {
		if _, ok := Applied(err); ok {
			t.Errorf("Applied(%v) is true: only committed changes are warnings", err)
		}
	}
	prior, err := withWarning([]byte(`{"a":1}`), nil)(saveFailed)
	if string(prior) != `{"a":1}` || !errors.Is(err, saveFailed) {
		t.Errorf("a save failure must return the recorded prior with the warning: %s %v", prior, err)
	}
	if prior, err := withWarning(nil, errors.New("marshal"))(saveFailed); prior != nil || err == nil || err.Error() != "marshal" {
		t.Errorf("a prior that cannot be recorded is the error: %s %v", prior, err)
	}
}
