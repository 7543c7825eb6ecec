package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

const statusText = `Name:	terraform-provi
Umask:	0022
State:	S (sleeping)
Pid:	4242
VmPeak:	 1337800 kB
VmSize:	 1337800 kB
VmHWM:	   94900 kB
VmRSS:	   90112 kB
Threads:	9
`

func TestParseVmHWM(t *testing.T) {
	kb, err := ParseVmHWM(statusText)
	if err != nil || kb != 94900 {
		t.Errorf("ParseVmHWM = %d, %v; want 94900", kb, err)
	}
	if kb, err := ParseStatusKB(statusText, "VmRSS"); err != nil || kb != 90112 {
		t.Errorf("ParseStatusKB(VmRSS) = %d, %v; want 90112", kb, err)
	}
	for name, in := range map[string]string{
		"kernel thread": "Name:\tkthreadd\nState:\tS (sleeping)\n",
		"no unit":       "VmHWM:\t123\n",
		"not a number":  "VmHWM:\tlots kB\n",
	} {
		if _, err := ParseVmHWM(in); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// fakeProc writes /proc/PID/{comm,status,exe} for a process.
func fakeProc(t *testing.T, proc string, pid int, comm, exe string, hwmKB int) {
	t.Helper()
	dir := filepath.Join(proc, strconv.Itoa(pid))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	// Each file appears whole (a rename), as /proc's do; exe and status before comm, so the
	// sampler never sees the new name with the old executable.
	if err := os.Symlink(exe, filepath.Join(dir, ".exe")); err != nil {
		t.Fatal(err)
	}
	status := "Name:\t" + comm + "\nVmHWM:\t" + strconv.Itoa(hwmKB) + " kB\n"
	for _, f := range []struct{ name, body string }{{"status", status}, {"comm", comm + "\n"}} {
		if err := os.WriteFile(filepath.Join(dir, "."+f.name), []byte(f.body), 0o600); err != nil {
			t.Fatal(err)
		}
		if f.name == "comm" {
			if err := os.Rename(filepath.Join(dir, ".exe"), filepath.Join(dir, "exe")); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Rename(filepath.Join(dir, "."+f.name), filepath.Join(dir, f.name)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRSSSampler(t *testing.T) {
	proc := t.TempDir()
	exe := "/x/.bench/bin/terraform-provider-roce"
	fakeProc(t, proc, 10, "terraform-provi", exe, 50000)
	fakeProc(t, proc, 11, "terraform-provi", exe, 90000)
	fakeProc(t, proc, 12, "terraform-provi", "/elsewhere/terraform-provider-roce", 500000) // another build
	fakeProc(t, proc, 13, "bash", "/bin/bash", 700000)
	fakeProc(t, proc, 14, "terraform", "/root/go/bin/terraform", 300000) // Terraform itself
	if err := os.MkdirAll(filepath.Join(proc, "self"), 0o750); err != nil {
		t.Fatal(err)
	}

	// An interval that never elapses: polls are the test's own, in order (Stop polls once more).
	s := NewRSSSampler(exe, time.Hour)
	s.proc = proc
	s.reset()
	s.poll()
	if s.peakKB != 90000 || len(s.pids) != 2 {
		t.Errorf("before the exec: peak %d kB over %d processes, want 90000 kB over 2", s.peakKB, len(s.pids))
	}
	// Terraform forks and execs a third provider: same PID, new comm.
	fakeProc(t, proc, 14, "terraform-provi", exe, 120000)
	s.poll()
	if s.peakKB != 120000 || len(s.pids) != 3 {
		t.Errorf("peak %d kB over %d processes, want 120000 kB over 3", s.peakKB, len(s.pids))
	}

	// Start and Stop: a fresh count, the same processes.
	s.Start()
	peak, n := s.Stop()
	if peak != 120000 || n != 3 {
		t.Errorf("Start/Stop: peak %d kB over %d processes, want 120000 kB over 3", peak, n)
	}
	if NewRSSSampler("/a/terraform-provider-roce", time.Second).comm != "terraform-provi" {
		t.Error("comm must be the first 15 bytes of the file name")
	}
}
