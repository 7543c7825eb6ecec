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
	if !NotSaved(fmt.Errorf("wrapped: %w", saveFailed)) || NotSaved(refused) || NotSaved(nil) {
		t.Fatal("NotSaved must recognise only a committed change whose save failed")
	}
	prior, err := withWarning([]byte(`{"a":1}`), nil)(saveFailed)
	if string(prior) != `{"a":1}` || !errors.Is(err, saveFailed) {
		t.Errorf("a save failure must return the recorded prior with the warning: %s %v", prior, err)
	}
	if prior, err := withWarning(nil, errors.New("marshal"))(saveFailed); prior != nil || err == nil || err.Error() != "marshal" {
		t.Errorf("a prior that cannot be recorded is the error: %s %v", prior, err)
	}
}
