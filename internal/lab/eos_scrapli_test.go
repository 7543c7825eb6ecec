package lab

// The `eos` switch driven by scrapligo's arista_eos platform, an independent client that
// knows real EOS: its prompt patterns, privilege escalation, on-open commands and failure
// strings must all work against the lab as they do against a switch.

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"
	soptions "github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
)

// scrapliOpen opens scrapligo's driver for platform (arista_eos, cisco_nxos) on d.
func scrapliOpen(t *testing.T, platformName string, d DeviceEntry) *network.Driver {
	t.Helper()
	host, portText, _ := net.SplitHostPort(d.Address)
	port, _ := strconv.Atoi(portText)
	p, err := platform.NewPlatform(platformName, host,
		soptions.WithPort(port),
		soptions.WithAuthUsername(d.Username),
		soptions.WithAuthPassword(d.Password),
		soptions.WithAuthNoStrictKey(),
		soptions.WithTransportType("standard"),
		soptions.WithTimeoutOps(20*time.Second),
	)
	if err != nil {
		t.Fatal(err)
	}
	drv, err := p.GetNetworkDriver()
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Open(); err != nil {
		t.Fatalf("scrapli open: %v", err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	return drv
}

// addSessionPrivilege registers a configuration session the way python scrapli's EOS driver
// does (register_configuration_session).
func addSessionPrivilege(drv *network.Driver, name string) string {
	level := "session-" + name
	drv.PrivilegeLevels["configuration"].NotContains = []string{"(config-s-"}
	drv.PrivilegeLevels["privilege-exec"].NotContains = []string{"(config"}
	drv.PrivilegeLevels[level] = &network.PrivilegeLevel{
		Name: level,
		Pattern: fmt.Sprintf(`(?im)^[\w.\-@()/: ]{1,63}\(config\-s\-%s[\w.\-@/:]{0,63}\)#\s?$`,
			regexp.QuoteMeta(name[:6])),
		PreviousPriv: "privilege-exec",
		Escalate:     "configure session " + name,
		Deescalate:   "end",
	}
	drv.UpdatePrivileges()
	return level
}

func TestEOSWithScrapli(t *testing.T) {
	l, sw := startEOS(t)
	drv := scrapliOpen(t, "arista_eos", l.Inventory().Devices["eos-1"])

	r, err := drv.SendCommand("show running-config")
	if err != nil || r.Failed != nil {
		t.Fatalf("show running-config: %v %v", err, r.Failed)
	}
	if want := strings.TrimSuffix(sw.RunningConfig(), "\n"); r.Result != want {
		t.Errorf("scrapli read:\n%s\nwant:\n%s", r.Result, want)
	}

	mr, err := drv.SendConfigs([]string{
		"qos map dscp 26 to traffic-class 4",
		"qos profile ROCE",
		"tx-queue 3",
		"bandwidth percent 40",
		"qos map dscp 64 to traffic-class 1",
	})
	if err != nil {
		t.Fatal(err)
	}
	last := mr.Responses[len(mr.Responses)-1]
	if mr.Failed == nil || last.Failed == nil || !strings.Contains(last.Result, "% Invalid input") {
		t.Errorf("an invalid line: failed %v, %q", mr.Failed, last.Result)
	}
	for _, want := range []string{"qos map dscp 26 to traffic-class 4\n", "   tx-queue 3\n      bandwidth percent 40\n"} {
		if !strings.Contains(sw.RunningConfig(), want) {
			t.Errorf("configure terminal through scrapli: no %q in\n%s", want, sw.RunningConfig())
		}
	}

	t.Run("session commit", func(t *testing.T) {
		level := addSessionPrivilege(drv, "roce-abcdef12")
		mr, err := drv.SendConfigs([]string{"interface Ethernet2", "service-profile ROCE", "qos map cos 5 to traffic-class 3"},
			opoptions.WithPrivilegeLevel(level))
		if err != nil || mr.Failed != nil {
			t.Fatalf("session lines: %v %v", err, mr.Failed)
		}
		if strings.Contains(sw.RunningConfig(), "service-profile") {
			t.Error("session lines reached the running-config before commit")
		}
		if _, err := drv.Channel.SendInput("commit"); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"interface Ethernet2\n   service-profile ROCE\n", "qos map cos 5 to traffic-class 3\n"} {
			if !strings.Contains(sw.RunningConfig(), want) {
				t.Errorf("after commit: no %q in\n%s", want, sw.RunningConfig())
			}
		}
		if s := sw.Sessions(); len(s) != 0 {
			t.Errorf("sessions after commit: %v", s)
		}
	})

	t.Run("session abort and a rejected line", func(t *testing.T) {
		before := sw.RunningConfig()
		level := addSessionPrivilege(drv, "roce-0b1d77aa")
		// a captured refusal (eos-switch.md, "Refusals"); scrapligo fails on "% Unavailable command"
		sw.RejectLines("bandwidth percent 33", "Unavailable command (not supported on this hardware platform)")
		defer sw.RejectLines("", "")
		mr, err := drv.SendConfigs([]string{"qos profile ROCE", "tx-queue 3", "bandwidth percent 33", "no priority"},
			opoptions.WithPrivilegeLevel(level))
		if err != nil {
			t.Fatal(err)
		}
		if mr.Failed == nil || !strings.Contains(mr.Responses[2].Result, "% Unavailable command (not supported on this hardware platform)") {
			t.Errorf("a rejected line in a session: %v %q", mr.Failed, mr.Responses[2].Result)
		}
		// SendCommand would leave the session (it acquires privilege-exec); SendConfigs stays.
		shown, err := drv.SendConfigs([]string{"show running-config"}, opoptions.WithPrivilegeLevel(level))
		if err != nil || !strings.Contains(shown.JoinedResult(), "      no priority") {
			t.Errorf("show running-config in the session shows its candidate: %v\n%s", err, shown.JoinedResult())
		}
		if _, err := drv.Channel.SendInput("abort"); err != nil {
			t.Fatal(err)
		}
		if got := sw.RunningConfig(); got != before {
			t.Errorf("abort changed the running-config:\n%s\nwas:\n%s", got, before)
		}
		r, err := drv.SendCommand("show configuration sessions")
		if err != nil || strings.Contains(r.Result, "roce-") || len(sw.Sessions()) != 0 {
			t.Errorf("sessions after abort: %v %v\n%s", err, sw.Sessions(), r.Result)
		}
	})
}
