package sonic

import (
	"context"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/sonicyang"
)

// yangJudge returns SONiC's YANG models and yanglint, or skips saying what is missing.
func yangJudge(t *testing.T) *sonicyang.Models { return sonicyang.ForTest(t) }

// The stock CONFIG_DB of the lab switch is one SONiC's own models accept, and the judge is not
// blind: a value the models refuse fails it.
func TestSONiCStockPassesSONiCYANG(t *testing.T) {
	m := yangJudge(t)
	for _, model := range Models() {
		sw, _ := startSONiC(t, model)
		if err := m.Check(context.Background(), sw.DB()); err != nil {
			t.Fatalf("stock CONFIG_DB of %s: %v", model, err)
		}
	}
	sw, _ := startSONiC(t, "")
	db := sw.DB()
	for name, mutate := range map[string]func(){
		"scheduler type": func() { db["SCHEDULER"]["scheduler.0"]["type"] = "PRIORITY" },
		"DSCP 64":        func() { db["DSCP_TO_TC_MAP"]["AZURE"]["64"] = "1" },
		"missing PORT":   func() { db["QUEUE"]["Ethernet99|3"] = map[string]string{"scheduler": "scheduler.0"} },
		"unknown field":  func() { db["SCHEDULER"]["scheduler.0"]["colour"] = "red" },
	} {
		before := sw.DB()
		db = before
		mutate()
		err := m.Check(context.Background(), db)
		if err == nil || !strings.Contains(err.Error(), "yanglint refuses") {
			t.Errorf("%s: yanglint accepted it (%v)", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
}
