package bench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ParseVmHWM returns the peak resident set size, in kB, from the text of /proc/PID/status.
func ParseVmHWM(status string) (int64, error) { return ParseStatusKB(status, "VmHWM") }

// ParseStatusKB returns a "Field:   N kB" line's N from the text of /proc/PID/status (VmHWM,
// VmRSS...).
func ParseStatusKB(status, field string) (int64, error) {
	sc := bufio.NewScanner(strings.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("%s: unexpected %q", field, sc.Text())
		}
		return strconv.ParseInt(f[0], 10, 64)
	}
	return 0, fmt.Errorf("no %s line (a kernel thread or a process that has exited)", field)
}

// RSSSampler polls /proc for processes running one executable and records the largest peak RSS
// (VmHWM) any of them reached, and how many there were. Terraform starts the provider itself,
// several times per command, so the provider cannot report on itself.
type RSSSampler struct {
	exe      string // absolute path of the executable to watch
	comm     string // its /proc/PID/comm: the first 15 bytes of its file name
	interval time.Duration
	proc     string // /proc, replaceable in tests

	mu     sync.Mutex
	peakKB int64
	pids   map[int]bool
	other  map[int]bool // PIDs known to run something else
	stop   chan struct{}
	done   chan struct{}
}

// NewRSSSampler watches processes whose executable is exe, every interval.
func NewRSSSampler(exe string, interval time.Duration) *RSSSampler {
	comm := filepath.Base(exe)
	if len(comm) > 15 {
		comm = comm[:15]
	}
	return &RSSSampler{exe: exe, comm: comm, interval: interval, proc: "/proc"}
}

// Start begins polling.
func (s *RSSSampler) Start() {
	s.reset()
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(s.interval)
		defer t.Stop()
		for {
			s.poll()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
}

// Stop ends polling and returns the peak RSS in kB and the number of processes seen.
func (s *RSSSampler) Stop() (peakKB int64, processes int) {
	close(s.stop)
	<-s.done
	s.poll()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peakKB, len(s.pids)
}

// reset forgets what earlier runs saw.
func (s *RSSSampler) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peakKB, s.pids, s.other = 0, map[int]bool{}, map[int]bool{}
}

func (s *RSSSampler) poll() {
	entries, err := os.ReadDir(s.proc)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || s.other[pid] {
			continue
		}
		dir := filepath.Join(s.proc, e.Name())
		if !s.pids[pid] {
			comm, err := os.ReadFile(filepath.Join(dir, "comm")) //nolint:gosec // a /proc path
			if err != nil {
				continue
			}
			c := strings.TrimSpace(string(comm))
			if c != s.comm {
				// Terraform forks before it execs the provider: look at its children again.
				if c != "" && !strings.HasPrefix(c, "terraform") {
					s.other[pid] = true
				}
				continue
			}
			if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil && exe != s.exe {
				s.other[pid] = true
				continue
			}
			s.pids[pid] = true
		}
		status, err := os.ReadFile(filepath.Join(dir, "status")) //nolint:gosec // a /proc path
		if err != nil {
			continue
		}
		if kb, err := ParseVmHWM(string(status)); err == nil {
			s.peakKB = max(s.peakKB, kb)
		}
	}
}
