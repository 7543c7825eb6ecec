// Package sh is the POSIX shell of the lab's NIC hosts: dash's sh subset (lex.go, parse.go,
// expand.go, exec.go) with the programs every host has (coreutils, grep, pgrep, sudo, flock,
// rm: cmds.go and beside it) over an emulated tree (fs.go), with dash's and the programs'
// messages and exit statuses. It knows nothing of mlx5: a host gives it a System, its tree,
// login user and own programs (mlnx_qos, dcb, systemctl, ...), and the state sudo, pgrep and
// flock read.
package sh

// System is the machine a shell runs on.
type System struct {
	FS   *FS
	User string // the login user; sudo makes root
	// programs are the machine's own programs by directory, /usr/bin and /usr/sbin, besides the
	// shell's (shPrograms); a name in both is the machine's.
	Programs func() (bin, sbin map[string]Program)
	// SudoPassword says whether sudo wants a password (no NOPASSWD rule for the login user).
	SudoPassword func() bool
	// Processes are the running processes pgrep sees.
	Processes func() []Process
	Locks     Locks // flock's locks
	Jobs      Jobs  // background processes (jobs.go)
}

// shPrograms are the programs of /usr/bin every machine has, the shell's builtins that are
// programs too included: coreutils, grep, procps, dash, sudo, util-linux.
func shPrograms() map[string]Program {
	return map[string]Program{
		"echo": cmdEcho, "cat": cmdCat, "tee": cmdTee, "ls": cmdLs, "grep": cmdGrep,
		"pgrep": cmdPgrep, "true": cmdTrue, "false": cmdFalse, "sh": cmdSh, "sudo": cmdSudo,
		"pwd": cmdPwd, "flock": cmdFlock, "rm": cmdRm, "kill": cmdKill,
	}
}

// commands are the programs of the machine by directory: /usr/bin and /usr/sbin (/usr/sbin is
// on a login user's PATH on Ubuntu and RHEL alike, and before /usr/bin).
func (s *System) commands() (bin, sbin map[string]Program) {
	bin = shPrograms()
	own, sbin := s.Programs()
	for name, c := range own {
		bin[name] = c
	}
	return bin, sbin
}

// Process is a running process as pgrep sees it.
type Process struct {
	PID  int
	Name string
}
