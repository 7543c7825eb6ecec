package ssh

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// HostKeyError is a host key the client refused. It is never retried.
type HostKeyError struct {
	// Presented is the refused key's type and SHA256 fingerprint, "ssh-ed25519 SHA256:...".
	Presented string
	Reason    string // the full explanation, naming Presented
}

func (e *HostKeyError) Error() string { return e.Reason }

// fingerprint renders a key as "TYPE SHA256:...".
func fingerprint(k gossh.PublicKey) string {
	return k.Type() + " " + gossh.FingerprintSHA256(k)
}

// hostKeyCallback applies the client's host key policy (see HostKeyCallback).
func (c *Client) hostKeyCallback() (gossh.HostKeyCallback, []string, error) {
	return HostKeyCallback(c.cfg.HostKey, c.cfg.KnownHostsFile, c.cfg.Address, c.cfg.Insecure)
}

// HostKeyCallback verifies the host key of address: against the pinned hostKey (authorized_keys
// form), else against the knownHostsFile ("" means ~/.ssh/known_hosts); insecure alone skips it.
// A refused key fails with *HostKeyError naming its SHA256 fingerprint. The algorithms returned
// make the host present a key of a type we can verify, when the host has several. It is exported
// so the CLI transport, which dials its own SSH connections, applies the same policy.
func HostKeyCallback(hostKey, knownHostsFile, address string, insecure bool) (gossh.HostKeyCallback, []string, error) {
	if insecure {
		return gossh.InsecureIgnoreHostKey(), nil, nil // #nosec G106 -- only by the user's explicit `insecure = true`, warned at plan time.
	}
	if hostKey != "" {
		pinned, _, _, _, err := gossh.ParseAuthorizedKey([]byte(hostKey))
		if err != nil {
			return nil, nil, &configError{fmt.Sprintf(`host_key is not a public key in authorized_keys form ("ssh-ed25519 AAAA..."): %v`, err)}
		}
		want := pinned.Marshal()
		cb := func(_ string, _ net.Addr, key gossh.PublicKey) error {
			if bytes.Equal(key.Marshal(), want) {
				return nil
			}
			return &HostKeyError{Presented: fingerprint(key), Reason: fmt.Sprintf(
				"host key mismatch: the host presented %s, which is not the pinned host_key (%s)",
				fingerprint(key), fingerprint(pinned))}
		}
		return cb, hostKeyAlgorithms([]string{pinned.Type()}), nil
	}
	path, err := knownHostsPath(knownHostsFile)
	if err != nil {
		return nil, nil, err
	}
	db, err := knownhosts.New(path)
	if err != nil {
		return nil, nil, &configError{fmt.Sprintf(
			"known_hosts_file %s cannot be read (%v): create it with ssh-keyscan, or pin host_key", path, err)}
	}
	cb := func(host string, remote net.Addr, key gossh.PublicKey) error {
		err := db(host, remote, key)
		var keyErr *knownhosts.KeyError
		var revoked *knownhosts.RevokedError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &revoked):
			return &HostKeyError{Presented: fingerprint(key), Reason: fmt.Sprintf(
				"host key revoked: the host presented %s, which %s:%d marks @revoked",
				fingerprint(key), revoked.Revoked.Filename, revoked.Revoked.Line)}
		case errors.As(err, &keyErr) && len(keyErr.Want) == 0:
			return &HostKeyError{Presented: fingerprint(key), Reason: fmt.Sprintf(
				"unknown host: the host presented %s, which is not in known_hosts_file %s: add it with ssh-keyscan, or pin host_key",
				fingerprint(key), path)}
		case errors.As(err, &keyErr):
			known := make([]string, len(keyErr.Want))
			for i, w := range keyErr.Want {
				known[i] = fmt.Sprintf("%s (line %d)", fingerprint(w.Key), w.Line)
			}
			return &HostKeyError{Presented: fingerprint(key), Reason: fmt.Sprintf(
				"host key mismatch: the host presented %s, but known_hosts_file %s has %s for this host: if the host key changed on purpose, replace that line (ssh-keyscan)",
				fingerprint(key), path, strings.Join(known, ", "))}
		}
		return err
	}
	return cb, hostKeyAlgorithms(knownTypes(db, address)), nil
}

func knownHostsPath(p string) (string, error) {
	if p != "" && p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", &configError{fmt.Sprintf("known_hosts_file: no home directory to find it in (%v): set known_hosts_file or host_key", err)}
	}
	if p == "" {
		return filepath.Join(home, ".ssh", "known_hosts"), nil
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

// knownTypes lists the key types known_hosts holds for address, by asking the callback about
// a key that cannot match: the mismatch error lists the keys it has.
func knownTypes(db gossh.HostKeyCallback, address string) []string {
	probe, err := gossh.NewPublicKey(ed25519.PublicKey(make([]byte, ed25519.PublicKeySize)))
	if err != nil {
		return nil
	}
	var keyErr *knownhosts.KeyError
	if !errors.As(db(address, &net.TCPAddr{}, probe), &keyErr) {
		return nil
	}
	types := make([]string, 0, len(keyErr.Want))
	for _, w := range keyErr.Want {
		types = append(types, w.Key.Type())
	}
	return types
}

// hostKeyAlgorithms turns key types into the host key algorithms to offer, strongest first;
// nil (the library's defaults) when there are none.
func hostKeyAlgorithms(types []string) []string {
	rank := map[string]int{gossh.KeyAlgoED25519: 0, gossh.KeyAlgoECDSA256: 1, gossh.KeyAlgoECDSA384: 2,
		gossh.KeyAlgoECDSA521: 3, gossh.KeyAlgoRSA: 4}
	seen := map[string]bool{}
	var uniq []string
	for _, t := range types {
		if !seen[t] {
			seen[t] = true
			uniq = append(uniq, t)
		}
	}
	sort.SliceStable(uniq, func(i, j int) bool {
		ri, iok := rank[uniq[i]]
		rj, jok := rank[uniq[j]]
		if iok != jok {
			return iok
		}
		return ri < rj
	})
	var algos []string
	for _, t := range uniq {
		if t == gossh.KeyAlgoRSA {
			algos = append(algos, gossh.KeyAlgoRSASHA512, gossh.KeyAlgoRSASHA256, gossh.KeyAlgoRSA)
			continue
		}
		algos = append(algos, t)
	}
	return algos
}
