package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// cliCommand types lines at a CLI switch (eos, nxos) over SSH, as an operator at a terminal
// would, and prints the transcript: the way to look at a CLI switch, or change it behind
// Terraform's back, on a machine without an OpenSSH client. It fails when the switch refuses a
// line (`% ...`, `ERROR: ...` or NX-OS's `Unable to perform the action due to incompatibility: ...`).
func cliCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("cli", stderr)
	dir := fs.String("dir", "", "directory of the running lab's inventory.json (required)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if *dir == "" || fs.NArg() < 2 {
		fmt.Fprintf(stderr, "rocelab cli: want --dir DIR DEVICE LINE..., got %q\n", fs.Args())
		return 2
	}
	device, lines := fs.Arg(0), fs.Args()[1:]
	transcript, err := typeLines(*dir, device, lines)
	fmt.Fprint(stdout, transcript)
	if err != nil {
		fmt.Fprintf(stderr, "rocelab cli: %v\n", err)
		return 1
	}
	return 0
}

// terminal is an SSH shell session whose output is collected as it arrives.
type terminal struct {
	stdin  io.Writer
	prompt *regexp.Regexp

	mu  sync.Mutex
	out bytes.Buffer
}

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// Carriage returns go; the count is still len(p), or io.Copy would stop at a short write.
	t.out.Write(bytes.ReplaceAll(p, []byte("\r"), nil))
	return len(p), nil
}

// untilPrompt returns what the switch printed up to and including its next prompt.
func (t *terminal) untilPrompt(timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		t.mu.Lock()
		text := t.out.String()
		if loc := t.prompt.FindStringIndex(text); loc != nil {
			t.out.Reset()
			t.out.WriteString(text[loc[1]:])
			t.mu.Unlock()
			return text[:loc[1]], nil
		}
		t.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String(), fmt.Errorf("no prompt within %s", timeout)
}

// typeLines logs in to device with the inventory's credentials, the host key pinned, and types
// lines one by one, each after the previous prompt. At an exec prompt (`>`) it types `enable`
// first.
func typeLines(dir, device string, lines []string) (string, error) {
	d, invPath, err := inventoryEntry(dir, device)
	if err != nil {
		return "", err
	}
	if d.Platform != "eos" && d.Platform != "nxos" {
		return "", fmt.Errorf("device %q is a %s device, not a CLI switch (eos, nxos)", device, d.Platform)
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(d.HostKey))
	if err != nil {
		return "", fmt.Errorf("host_key of %s in %s: %w", device, invPath, err)
	}
	conn, err := ssh.Dial("tcp", d.Address, &ssh.ClientConfig{
		User: d.Username, Auth: []ssh.AuthMethod{ssh.Password(d.Password)},
		HostKeyCallback: ssh.FixedHostKey(key), Timeout: 10 * time.Second,
	})
	if err != nil {
		return "", fmt.Errorf("ssh %s at %s: %w", device, d.Address, err)
	}
	defer func() { _ = conn.Close() }()
	sess, err := conn.NewSession()
	if err != nil {
		return "", err
	}
	t := &terminal{prompt: regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(device) + `(\([^)\n]*\))?[>#] ?$`)}
	sess.Stdout, sess.Stderr = t, t
	if t.stdin, err = sess.StdinPipe(); err != nil {
		return "", err
	}
	if err := sess.RequestPty("vt100", 24, 200, ssh.TerminalModes{ssh.ECHO: 1}); err != nil {
		return "", err
	}
	if err := sess.Shell(); err != nil {
		return "", err
	}
	var transcript strings.Builder
	out, err := t.untilPrompt(10 * time.Second)
	transcript.WriteString(out)
	if err != nil {
		return transcript.String(), err
	}
	if strings.HasSuffix(strings.TrimSpace(out), ">") {
		lines = append([]string{"enable"}, lines...)
	}
	var refused []string
	for _, line := range lines {
		if _, err := fmt.Fprintf(t.stdin, "%s\r", line); err != nil {
			return transcript.String(), err
		}
		out, err := t.untilPrompt(30 * time.Second)
		transcript.WriteString(out)
		if err != nil {
			return transcript.String(), err
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "% ") || strings.HasPrefix(l, "ERROR:") || strings.HasPrefix(l, "Unable to perform the action") {
				refused = append(refused, fmt.Sprintf("%q: %s", line, l))
			}
		}
	}
	transcript.WriteString("\n")
	if len(refused) > 0 {
		return transcript.String(), fmt.Errorf("%s refused %s", device, strings.Join(refused, "; "))
	}
	return transcript.String(), nil
}
