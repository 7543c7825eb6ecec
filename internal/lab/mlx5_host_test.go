package lab

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
)

func TestHostInventory(t *testing.T) {
	l := startHosts(t, 2, func(o *Options) { o.NICPorts = 3 })
	inv := l.Inventory()
	if got := l.Devices(); !slices.Equal(got, []string{"mlx5-1", "mlx5-2"}) {
		t.Fatalf("devices %v", got)
	}
	for _, name := range l.Devices() {
		d := inv.Devices[name]
		if d.Platform != "mlx5" || d.Username != HostUsername || !d.Sudo || d.CACertificate != "" {
			t.Errorf("%s entry %+v", name, d)
		}
		if !regexp.MustCompile(`^127\.0\.0\.1:[0-9]+$`).MatchString(d.Address) || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(d.Password) {
			t.Errorf("%s address %q password %q", name, d.Address, d.Password)
		}
		if !strings.HasPrefix(d.HostKey, "ssh-ed25519 AAAA") || strings.ContainsAny(d.HostKey, "\n ") && len(strings.Fields(d.HostKey)) != 2 {
			t.Errorf("%s host_key %q is not one authorized_keys line", name, d.HostKey)
		}
		if got := inv.Interfaces[name]; !slices.Equal(got, []string{"eth0", "eth1", "eth2"}) {
			t.Errorf("%s interfaces %v", name, got)
		}
	}
	if inv.Devices["mlx5-1"].HostKey == inv.Devices["mlx5-2"].HostKey {
		t.Error("two hosts share a host key")
	}
	h := l.Host("mlx5-2")
	if h == nil || h.Name() != "mlx5-2" || h.Address() != inv.Devices["mlx5-2"].Address || l.Host("mlx5-3") != nil || l.Switch("mlx5-1") != nil {
		t.Fatalf("Host/Switch lookups: %+v", h)
	}
	c := sshClient(t, inv.Devices["mlx5-2"])
	out, _, _ := runOn(t, c, "sudo -n ls /sys/kernel/debug/mlx5; ls /sys/class/infiniband /sys/class/net/eth2/device/infiniband; cat /sys/class/net/eth2/device/uevent", "")
	want := "0000:08:00.0\n0000:08:00.1\n0000:09:00.0\n" +
		"/sys/class/infiniband:\nmlx5_0\nmlx5_1\nmlx5_2\n\n/sys/class/net/eth2/device/infiniband:\nmlx5_2\n" +
		"DRIVER=mlx5_core\nPCI_CLASS=20000\nPCI_ID=15B3:1017\nPCI_SUBSYS_ID=15B3:0007\nPCI_SLOT_NAME=0000:09:00.0\n" +
		"MODALIAS=pci:v000015B3d00001017sv000015B3sd00000007bc02sc00i00\n"
	if out != want {
		t.Errorf("layout:\n%s\nwant:\n%s", out, want)
	}
}

func TestHostLogin(t *testing.T) {
	e := newHostEnv(t)
	if got := e.Must("ls /sys/class/net"); got != "eth0\neth1\nlo\n" {
		t.Errorf("ls /sys/class/net: %q", got)
	}

	wrong := e.d
	wrong.Password = "not-the-password"
	if c, err := sshDial(t, wrong); err == nil {
		_ = c.Close()
		t.Error("a wrong password logged in")
	}
	root := e.d
	root.Username = "root"
	if c, err := sshDial(t, root); err == nil {
		_ = c.Close()
		t.Error("root logged in with the user's password")
	}

	// The host key the inventory pins is the one the server presents.
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(other)
	impostor := e.d
	impostor.HostKey = string(ssh.MarshalAuthorizedKey(signer.PublicKey()))
	if c, err := sshDial(t, impostor); err == nil {
		_ = c.Close()
		t.Error("a client pinning another host key connected")
	}

	ki := ssh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
		answers := make([]string, len(questions))
		for i := range answers {
			answers[i] = e.d.Password
		}
		return answers, nil
	})
	c, err := sshDial(t, e.d, ki)
	if err != nil {
		t.Fatalf("keyboard-interactive login: %v", err)
	}
	if out, _, _ := runOn(t, c, "echo hello", ""); out != "hello\n" {
		t.Errorf("echo over keyboard-interactive: %q", out)
	}
	_ = c.Close()

	s, err := e.C.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	s.Stderr = &stderr
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	err = s.Wait()
	if exit, ok := err.(*ssh.ExitError); !ok || exit.ExitStatus() != 1 || !strings.Contains(stderr.String(), "exec") {
		t.Errorf("shell request: %v, stderr %q", err, stderr.String())
	}
	// Five TCP connections (two logins, three refused) and two exec requests.
	if got := e.h.Counters(); got != (HostCounters{Exec: 2, Connections: 5}) {
		t.Errorf("counters %+v", got)
	}
}

func TestHostReboot(t *testing.T) {
	e := newHostEnv(t)
	fresh := e.Must("mlnx_qos -i eth0")
	freshCC := e.Must("sudo -n sh -c 'grep -H . /sys/kernel/debug/mlx5/*/cc_params/* /sys/class/net/*/ecn/*/*_* /sys/class/net/*/ecn/*/enable/*'")
	freshTC := e.Must("cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class; sudo -n cma_roce_tos")
	e.Must("sudo -n mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0 -p 0,0,0,3,0,0,6,0 -s ets,ets,ets,ets,ets,ets,strict,ets -t 50,0,0,50,0,0,0,0 --cable_len 40 > /dev/null")
	e.Must("sudo -n sh -c 'echo 0 > /sys/class/net/eth0/ecn/roce_np/enable/1; echo 26 > /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/np_cnp_dscp; echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class'")
	e.Must("sudo -n cma_roce_tos -t 106 >/dev/null")
	if got := e.Must("mlnx_qos -i eth0"); got == fresh {
		t.Fatal("mlnx_qos settings did not change anything")
	}
	e.h.Reboot()
	if got := e.Must("mlnx_qos -i eth0"); got != fresh {
		t.Errorf("after reboot:\n%s\nwant\n%s", got, fresh)
	}
	if got := e.Must("sudo -n sh -c 'grep -H . /sys/kernel/debug/mlx5/*/cc_params/* /sys/class/net/*/ecn/*/*_* /sys/class/net/*/ecn/*/enable/*'"); got != freshCC {
		t.Errorf("congestion settings after reboot:\n%s", got)
	}
	if got := e.Must("cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class; sudo -n cma_roce_tos"); got != freshTC || got != "0\n" {
		t.Errorf("traffic class and RDMA-CM ToS after reboot: %q", got)
	}
}

func TestHostKnobs(t *testing.T) {
	e := newHostEnv(t)
	e.Expect("pgrep -x lldpad", "", "", 1)
	e.h.SetLLDPad(true)
	e.h.SetDCBXFirmware(true)
	e.Expect("pgrep -x lldpad", "812\n", "", 0)
	out := e.Must("mlnx_qos -i eth1")
	if want := "****** WARNING: lldpad service is running and may overwrite your settings ******\n\nDCBX mode: Firmware controlled\nPriority trust state: pcp\n"; !strings.HasPrefix(out, want) {
		t.Errorf("with lldpad and firmware DCBX:\n%s", out)
	}
	e.h.Reboot() // firmware DCBX is the adapter's own setting: it stays
	if out := e.Must("mlnx_qos -i eth1"); !strings.Contains(out, "DCBX mode: Firmware controlled\n") {
		t.Errorf("firmware DCBX lost in a reboot:\n%s", out)
	}
	e.Must("sudo -n mlnx_qos -i eth1 -d os > /dev/null")
	if out := e.Must("mlnx_qos -i eth1"); !strings.Contains(out, "DCBX mode: OS controlled\n") {
		t.Errorf("-d os:\n%s", out)
	}
	e.h.SetLLDPad(false)
	e.h.SetDCBXFirmware(false)

	e.h.RequireSudoPassword(true)
	e.Expect("sudo -n true", "", "sudo: a password is required\n", 1)
	e.Expect("sudo true", "", "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required\n", 1)
	e.h.RequireSudoPassword(false)
	e.Expect("sudo -n true", "", "", 0)

	e.h.RemoveECNTree()
	e.Expect("cat /sys/class/net/eth0/ecn/roce_np/enable/3", "", "cat: /sys/class/net/eth0/ecn/roce_np/enable/3: No such file or directory\n", 1)
	e.Expect("ls /sys/class/net/eth0/ecn", "", "ls: cannot access '/sys/class/net/eth0/ecn': No such file or directory\n", 2)
	e.Expect("sudo -n cat /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/np_cnp_dscp", "48\n", "", 0)

	// Run is the same interpreter without the network.
	if out, errOut, status := e.h.Run("cat /sys/class/infiniband/mlx5_1/tc/1/traffic_class; mlnx_qos -i eth1 -P 3"); out != "0\n" || errOut != "" || status != 0 {
		t.Errorf("Run: %q %q %d", out, errOut, status)
	}
}

// Parallel sessions on two hosts, reading and writing: run with -race.
func TestHostConcurrentSessions(t *testing.T) {
	l := startHosts(t, 2)
	var wg sync.WaitGroup
	for i := range 8 {
		d := l.Inventory().Devices[fmt.Sprintf("mlx5-%d", 1+i%2)]
		c := sshClient(t, d)
		wg.Go(func() {
			for j := range 5 {
				prio := (i + j) % 8
				cmd := fmt.Sprintf("sudo -n sh -c 'echo %d > /sys/class/net/eth%d/ecn/roce_rp/enable/%d' && mlnx_qos -i eth0 > /dev/null && cat /sys/class/net/eth%d/ecn/roce_rp/enable/%d",
					j%2, i%2, prio, i%2, prio)
				s, err := c.NewSession()
				if err != nil {
					t.Error(err)
					return
				}
				out, err := s.Output(cmd)
				_ = s.Close()
				if err != nil || (string(out) != "0\n" && string(out) != "1\n") {
					t.Errorf("%q: %q %v", cmd, out, err)
				}
			}
		})
	}
	wg.Wait()
}
