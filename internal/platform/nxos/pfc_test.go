package nxos

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// updatedPFC changes the buffer, mode auto, and lets go of the watchdog.
func updatedPFC() *fabric.PFCInterface {
	p := examplePFC()
	p.Mode, p.Watchdog = fabric.PFCModeAuto, nil
	p.Buffer = &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(102400)), XonBytes: fabric.Ptr(int64(51200))}
	return p
}

// Ethernet1/3 of the base switch has an operator's PFC mode with send-tlv, flowcontrol receive
// off and an ingress queuing policy: delete puts them back. Each transaction replays on the
// switch text it was computed from and reads back as the next intent (delete: the port as the
// policy left it).
func TestPFCLinesGolden(t *testing.T) {
	prior := running.File(t, "after-create.txt").PFCPrior("Ethernet1/3")
	// device is the switch a step's lines are computed on: the policy's, or the one the PFC
	// create left.
	device := func(tc platformtest.PFCStep) string {
		if tc.Old == nil {
			return "after-create.txt"
		}
		return "after-pfc-create.txt"
	}
	platformtest.GoldenPFCLines(t, examplePFC, updatedPFC(), func(t *testing.T, tc platformtest.PFCStep) ([]string, error) {
		return PFCLines(running.File(t, device(tc)), "Ethernet1/3", tc.Old, tc.Next, prior)
	}, func(t *testing.T, tc platformtest.PFCStep, got []string) {
		after := replay(t, goldenfile.Read(t, "testdata/"+device(tc)), got)
		want := tc.Next
		if want == nil {
			want, _ = running.File(t, "after-create.txt").PFC("Ethernet1/3")
		}
		read, _ := after.PFC("Ethernet1/3")
		if diff := cmp.Diff(want, read); diff != "" {
			t.Errorf("after the lines (-want +read):\n%s", diff)
		}
		if tc.Next == nil || tc.Next.Buffer == nil {
			if diff := cmp.Diff(running.File(t, "after-create.txt").Queuing, after.Queuing); diff != "" {
				t.Errorf("ingress policy left behind (-before create +after):\n%s", diff)
			}
		}
	})
}

// The switch's text after pfc-create.golden reads back as the intent.
func TestPFCRead(t *testing.T) {
	c := running.File(t, "after-pfc-create.txt")
	got, ok := c.PFC("Ethernet1/3")
	if !ok {
		t.Fatal("PFC(Ethernet1/3) not found")
	}
	if diff := cmp.Diff(examplePFC(), got); diff != "" {
		t.Errorf("PFC(Ethernet1/3) (-want +got):\n%s", diff)
	}
	if _, ok := c.PFC("Ethernet1/5"); ok {
		t.Error("PFC of a port without an interface block")
	}
	text := goldenfile.Read(t, "testdata/after-pfc-create.txt")
	for name, tc := range map[string]struct {
		from, to string
		want     *fabric.PFCInterface
	}{
		"default mode, link pause on receive": {"  priority-flow-control mode on send-tlv\n  priority-flow-control watch-dog-interval on\n" +
			"  flowcontrol send off\n  flowcontrol receive off\n", "  flowcontrol receive on\n",
			&fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeAuto, LinkPause: true, Buffer: examplePFC().Buffer}},
		"watchdog off": {"watch-dog-interval on", "watch-dog-interval off",
			&fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn, Buffer: examplePFC().Buffer}},
		"another ingress policy": {"queuing input roce-in-Ethernet1_3", "queuing input LEGACY-in",
			&fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn, Watchdog: examplePFC().Watchdog}},
		"buffer-size is not xoff + xon": {"buffer-size 184320", "buffer-size 200000",
			&fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn, Watchdog: examplePFC().Watchdog,
				Buffer: &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(Unknown)), XonBytes: fabric.Ptr(int64(61440))}}},
		"class of the lossless TC missing": {"c-in-q3", "c-in-q4",
			&fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn, Watchdog: examplePFC().Watchdog,
				Buffer: &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(Unknown)), XonBytes: fabric.Ptr(int64(Unknown))}}},
	} {
		changed := strings.Replace(text, tc.from, tc.to, 1)
		if changed == text {
			t.Fatalf("%s: %q not in the text", name, tc.from)
		}
		got, _ := running.Text(t, changed).PFC("Ethernet1/3")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestPFCPrior(t *testing.T) {
	c := running.File(t, "after-create.txt")
	platformtest.CheckPrior(t, c.PFCPrior("Ethernet1/3"), PFCPrior{Mode: "on send-tlv", FlowReceive: "off", QueuingInput: "LEGACY-in"},
		c.PFCPrior("Ethernet1/9"), `"mode"`, `"flow_send"`, `"flow_receive"`, `"watchdog"`, `"queuing_input"`)
}

// A port that had none of the lines gets NX-OS's defaults back; a watchdog and a buffer the
// resource never managed are left alone.
func TestPFCLinesRestoreNone(t *testing.T) {
	c := running.File(t, "after-create.txt")
	old := &fabric.PFCInterface{Interface: "Ethernet1/1", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}}
	got, err := PFCLines(c, "Ethernet1/1", old, nil, PFCPrior{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"interface Ethernet1/1", "no priority-flow-control mode", "flowcontrol send off", "flowcontrol receive off",
		"no priority-flow-control watch-dog-interval", "exit"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	old.Watchdog = nil
	got, _ = PFCLines(c, "Ethernet1/1", old, nil, PFCPrior{})
	for _, l := range got {
		if strings.Contains(l, "watch-dog") || strings.Contains(l, "queuing") {
			t.Errorf("delete of an unmanaged watchdog and buffer writes %q", l)
		}
	}
	// A buffer on a port without an ingress policy before: attached, then detached on delete.
	got, _ = PFCLines(c, "Ethernet1/1", nil, &fabric.PFCInterface{Interface: "Ethernet1/1", Mode: fabric.PFCModeOn,
		Buffer: examplePFC().Buffer}, PFCPrior{})
	after := replay(t, goldenfile.Read(t, "testdata/after-create.txt"), got)
	got, _ = PFCLines(after, "Ethernet1/1", &fabric.PFCInterface{Interface: "Ethernet1/1", Buffer: examplePFC().Buffer}, nil, PFCPrior{})
	if !strings.Contains(goldenfile.Lines(got), "no service-policy type queuing input roce-in-Ethernet1_1\nexit\nno policy-map type queuing roce-in-Ethernet1_1\n") {
		t.Errorf("delete of a buffer:\n%s", goldenfile.Lines(got))
	}
	replay(t, goldenfile.Read(t, "testdata/after-create.txt")+indent(t, mustPFC(t, running.File(t, "after-create.txt"), "Ethernet1/1")), got)
}

func mustPFC(t *testing.T, c *Config, port string) []string {
	t.Helper()
	ls, err := PFCLines(c, port, nil, &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOn, Buffer: examplePFC().Buffer}, PFCPrior{})
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// A lossless TC added after the buffer gets its class on the next write; one no longer
// lossless loses its pause line.
func TestPFCLinesFollowLosslessTCs(t *testing.T) {
	text := strings.Replace(goldenfile.Read(t, "testdata/after-pfc-create.txt"), "  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n",
		"  class type network-qos c-8q-nq3\n  class type network-qos c-8q-nq4\n    pause pfc-cos 4\n", 1)
	got, err := PFCLines(running.Text(t, text), "Ethernet1/3", examplePFC(), examplePFC(), PFCPrior{})
	if err != nil {
		t.Fatal(err)
	}
	want := "policy-map type queuing roce-in-Ethernet1_3\nclass type queuing c-in-q4\n" +
		"pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440\nexit\nclass type queuing c-in-q3\nno pause buffer-size\nexit\nexit\n"
	if !strings.HasPrefix(goldenfile.Lines(got), want) {
		t.Errorf("lines:\n%s", goldenfile.Lines(got))
	}
	if r, _ := replay(t, text, got).PFC("Ethernet1/3"); !cmp.Equal(r, examplePFC()) {
		t.Errorf("read after the lines: %s", goldenfile.JSON(t, r))
	}
}

func TestCheckPFCAgainst(t *testing.T) {
	created, base := running.File(t, "after-create.txt"), running.File(t, "base-running-config.txt")
	if err := created.CheckPFCAgainst(*examplePFC()); err != nil {
		t.Errorf("a lossless TC exists: %v", err)
	}
	err := base.CheckPFCAgainst(*examplePFC())
	if err == nil || !strings.Contains(err.Error(), "bind a roce_qos_policy with a lossless class first (depends_on)") ||
		!strings.Contains(err.Error(), DefaultNetworkQoS) {
		t.Errorf("no lossless TC: %v", err)
	}
	if _, err := PFCLines(base, "Ethernet1/3", nil, examplePFC(), PFCPrior{}); err == nil {
		t.Error("PFCLines wrote a buffer without a lossless TC")
	}
	noBuffer := examplePFC()
	noBuffer.Buffer = nil
	if err := base.CheckPFCAgainst(*noBuffer); err != nil {
		t.Errorf("without a buffer nothing is needed from the device: %v", err)
	}
	alert := examplePFC()
	alert.Watchdog.Action = fabric.WatchdogAlert
	if err := created.CheckPFCAgainst(*alert); err == nil || !strings.Contains(err.Error(), "nxos: watchdog.action: NX-OS has no forward") {
		t.Errorf("alert: %v", err)
	}
	if _, err := PFCLines(nil, "Ethernet1/3", nil, examplePFC(), PFCPrior{}); err == nil {
		t.Error("PFCLines without the device's configuration")
	}
}

// A policy that changes the lossless classes moves the PFC interface's headroom with them: the
// port's ingress queuing policy pauses the new set, with the same values, and the PFC
// interface reads as configured afterwards, whichever was applied first.
func TestPolicyMovesPFCHeadroom(t *testing.T) {
	text := goldenfile.Read(t, "testdata/after-pfc-create.txt")
	c := running.Text(t, text)
	if got, _ := c.PFC("Ethernet1/3"); got.Buffer == nil || *got.Buffer.XoffBytes != 122880 {
		t.Fatalf("fixture: PFC(Ethernet1/3) buffer %+v", got.Buffer)
	}
	next := updatedPolicy() // adds the lossless storage class on TC 4
	ls, err := PolicyLines(c, examplePolicy(), next, basePrior(t))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ls, "policy-map type queuing "+IngressName("Ethernet1/3")) {
		t.Fatalf("the update leaves the headroom on the old lossless classes:\n%s", goldenfile.Lines(ls))
	}
	after := replay(t, text, ls)
	got, _ := after.PFC("Ethernet1/3")
	if got.Buffer == nil || *got.Buffer.XoffBytes != 122880 || *got.Buffer.XonBytes != 61440 {
		t.Errorf("after the policy update PFC(Ethernet1/3) buffer = %+v, want xoff 122880, xon 61440", got.Buffer)
	}
	// Nothing to move when the lossless set stays.
	if ls := mustLines(t, c, examplePolicy(), examplePolicy()); slices.Contains(ls, "policy-map type queuing "+IngressName("Ethernet1/3")) {
		t.Errorf("an update keeping the lossless set rewrites the headroom:\n%s", goldenfile.Lines(ls))
	}
}
