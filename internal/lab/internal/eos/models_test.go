package eos

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

// Each EOS model takes its family's queue command and refuses the other family's; Sand before
// 4.33 refuses queue 7; show version (text and json) names the model and its image optimization.
func TestEOSModels(t *testing.T) {
	for _, c := range []struct {
		model, take, refuse, format, image, boot string
	}{
		{"DCS-7280SR3-48YC8", "tx-queue 3", "uc-tx-queue 3", "3.0", "Sand-4GB", "flash:/EOS-4.31.2F.swi"},
		{"DCS-7060CX-32S", "uc-tx-queue 3", "tx-queue 3", "3.0", "Strata-4GB", "flash:/EOS-4.31.2F.swi"},
		{"vEOS-lab", "uc-tx-queue 7", "tx-queue 3", "1.0", "None", "flash:/vEOS-lab.swi"},
	} {
		t.Run(c.model, func(t *testing.T) {
			sw := startEOS(t, func(s *device.Spec) { s.Model = c.model })
			cli := newEOSCLI(t, sw, "enable", "configure", "qos profile P")
			cli.Must(c.take)
			cli.Must("exit")
			if got := cli.Run(c.refuse); got != "% Invalid input\n" {
				t.Errorf("%s: %q", c.refuse, got)
			}
			pfc := cli.Run("priority-flow-control priority 3 no-drop")
			if want := map[bool]string{true: "", false: "% Unavailable command (not supported on this hardware platform)\n"}[c.model != "vEOS-lab"]; pfc != want {
				t.Errorf("PFC on %s: %q, want %q", c.model, pfc, want)
			}
			cli.Run("end")
			text := cli.Run("show version")
			if !strings.HasPrefix(text, "Arista "+c.model+"\n") || !strings.Contains(text, "Image format version: "+c.format+"\n") ||
				!strings.Contains(text, "Image optimization: "+c.image+"\n") {
				t.Errorf("show version:\n%s", text)
			}
			var v struct{ ModelName, Version, ImageFormatVersion, ImageOptimization string }
			if err := json.Unmarshal([]byte(cli.Run("show version | json")), &v); err != nil ||
				v.ModelName != c.model || v.Version != "4.31.2F" || v.ImageFormatVersion != c.format || v.ImageOptimization != c.image {
				t.Errorf("show version | json: %+v %v", v, err)
			}
			if run := sw.RunningConfig(); !strings.Contains(run, "! device: eos-1 ("+c.model+", EOS-4.31.2F)\n!\n! boot system "+c.boot+"\n") {
				t.Errorf("header:\n%s", run[:200])
			}
		})
	}
	sw := startEOS(t)
	cli := newEOSCLI(t, sw, "enable", "configure", "qos profile P")
	if got := cli.Run("tx-queue 7"); got != "% Invalid input\n" {
		t.Errorf("tx-queue 7 on Sand before 4.33: %q", got)
	}
}
