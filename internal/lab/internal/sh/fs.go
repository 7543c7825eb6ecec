package sh

// The emulated filesystem of an mlx5 host: only the parts a QoS tool reads
// or writes (sysfs, debugfs, /dev/null), with the permissions and error
// numbers a real kernel gives a non-root login user and root.

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// Errno is a Linux error number; Error gives the C library's strerror text,
// which is what shells and coreutils print (Go's syscall texts are lower case).
type Errno int

const (
	EPERM   Errno = 1
	ENOENT  Errno = 2
	EIO     Errno = 5
	EACCES  Errno = 13
	ENODEV  Errno = 19
	ENOTDIR Errno = 20
	EISDIR  Errno = 21
	EINVAL  Errno = 22
	EEXIST  Errno = 17
	ENOSPC  Errno = 28
	ERANGE  Errno = 34
	ELOOP   Errno = 40
)

// EOPNOTSUPP is what dcbnl answers for an attribute the driver does not implement.
const EOPNOTSUPP Errno = 95

func (e Errno) Error() string {
	switch e {
	case EPERM:
		return "Operation not permitted"
	case ENOENT:
		return "No such file or directory"
	case EIO:
		return "Input/output error"
	case EACCES:
		return "Permission denied"
	case ENODEV:
		return "No such device"
	case ENOTDIR:
		return "Not a directory"
	case EISDIR:
		return "Is a directory"
	case EINVAL:
		return "Invalid argument"
	case EEXIST:
		return "File exists"
	case ENOSPC:
		return "No space left on device"
	case ERANGE:
		return "Numerical result out of range"
	case ELOOP:
		return "Too many levels of symbolic links"
	case EOPNOTSUPP:
		return "Operation not supported"
	}
	return "Unknown error"
}

// Node is a directory or a file. Every node is owned by root, so a
// non-root user gets the "other" permission bits and root gets everything
// except writing a file without a store method (kernfs refuses that with
// EACCES even to root); a file the login user created (in /tmp) is the
// user's, who gets the owner bits.
type Node struct {
	Mode     uint32 // permission bits
	UserOwns bool   // created by the login user
	Dir      bool
	Children map[string]*Node
	DevNull  bool
	// disk marks a directory of an ordinary filesystem (/etc): files can
	// be created in it by whoever may write it, unlike sysfs and debugfs.
	Disk bool
	// Regular marks an ordinary file; content is what it holds.
	Regular bool
	Content string
	// link is the target of a symbolic link (systemctl enable's .wants
	// entries); every other field is unused then.
	Link string
	// read renders the file; write stores one write(2) call's bytes. Both
	// run with the host lock held.
	Read  func() string
	Write func(data string) error
}

// newRegular is an ordinary 0644 file holding content.
func newRegular(content string) *Node {
	n := &Node{Mode: 0o644, Regular: true, Content: content}
	n.Read = func() string { return n.Content }
	n.Write = func(data string) error { n.Content += data; return nil }
	return n
}

func NewDir(mode uint32) *Node {
	return &Node{Mode: mode, Dir: true, Children: map[string]*Node{}}
}

// Mkdirs returns the directory at rel below n, creating 0755 directories.
func (n *Node) Mkdirs(rel string) *Node {
	cur := n
	for _, part := range strings.Split(strings.Trim(rel, "/"), "/") {
		if part == "" {
			continue
		}
		next, ok := cur.Children[part]
		if !ok {
			next = NewDir(0o755)
			cur.Children[part] = next
		}
		cur = next
	}
	return cur
}

// Add places a file at rel below n, creating the directories on the way.
func (n *Node) Add(rel string, f *Node) {
	dir, name := path.Split(strings.Trim(rel, "/"))
	n.Mkdirs(dir).Children[name] = f
}

func (n *Node) Names() []string {
	out := make([]string, 0, len(n.Children))
	for name := range n.Children {
		out = append(out, name)
	}
	slices.Sort(out) // strcmp order, as dash sorts glob results
	return out
}

func (n *Node) canRead(root bool) bool { return root || n.Mode&0o004 != 0 }
func (n *Node) canWrite(root bool) bool {
	return root || n.Mode&0o002 != 0 || n.UserOwns && n.Mode&0o200 != 0
}
func (n *Node) canExec(root bool) bool { return root || n.Mode&0o001 != 0 }

// FS is one host's tree. Its methods take the host lock, Mu.
type FS struct {
	Mu   *sync.Mutex
	Root *Node
	Cwd  string
	// FailWrites fails every write to a path containing it with EIO, unless "" (guarded by mu).
	FailWrites *string
}

// abs makes p absolute against the login directory, cleaned lexically (the
// only symbolic links, systemctl's, point at absolute paths).
func (fs *FS) abs(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = fs.Cwd + "/" + p
	}
	return path.Clean(p)
}

// Lookup walks to p, checking search permission on every directory on the
// way, as path resolution does.
func (fs *FS) Lookup(p string, root bool) (*Node, error) {
	return fs.walk(p, root, true, 0)
}

// LookupLink is lookup that does not follow a symbolic link in the last
// component (lstat, unlink).
func (fs *FS) LookupLink(p string, root bool) (*Node, error) {
	return fs.walk(p, root, false, 0)
}

// walk resolves p; symbolic links on the way are followed (the last one
// only when follow is set), at most 40 deep as Linux does (ELOOP).
func (fs *FS) walk(p string, root, follow bool, depth int) (*Node, error) {
	if depth > 40 {
		return nil, ELOOP
	}
	n := fs.Root
	parts := strings.Split(strings.TrimPrefix(fs.abs(p), "/"), "/")
	for i, part := range parts {
		if part == "" {
			continue
		}
		if !n.Dir {
			return nil, ENOTDIR
		}
		if !n.canExec(root) {
			return nil, EACCES
		}
		next, ok := n.Children[part]
		if !ok {
			return nil, ENOENT
		}
		if next.Link != "" && (follow || i < len(parts)-1) {
			var err error
			if next, err = fs.walk(next.Link, root, true, depth+1); err != nil {
				return nil, err
			}
		}
		n = next
	}
	return n, nil
}

// stat reports whether p exists and is a directory.
func (fs *FS) stat(p string, root bool) (isDir bool, err error) {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	n, err := fs.Lookup(p, root)
	if err != nil {
		return false, err
	}
	return n.Dir, nil
}

// ReadFile is open(O_RDONLY) plus read: a directory fails at read time
// with EISDIR, as cat and grep report it.
func (fs *FS) ReadFile(p string, root bool) (string, error) {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	n, err := fs.Lookup(p, root)
	switch {
	case err != nil:
		return "", err
	case !n.canRead(root):
		return "", EACCES
	case n.Dir:
		return "", EISDIR
	case n.DevNull || n.Read == nil:
		return "", nil
	}
	return n.Read(), nil
}

// ReadDir lists a directory the user may read.
func (fs *FS) ReadDir(p string, root bool) ([]string, error) {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	n, err := fs.Lookup(p, root)
	switch {
	case err != nil:
		return nil, err
	case !n.Dir:
		return nil, ENOTDIR
	case !n.canRead(root):
		return nil, EACCES
	}
	return n.Names(), nil
}

// openWrite is open(O_WRONLY|O_CREAT|O_TRUNC), or O_APPEND instead of
// O_TRUNC with appendTo: it fails the way the shell's "cannot create" or
// tee's message reports. sysfs and debugfs cannot create files, not even for
// root; a disk directory lets whoever may write it create one.
func (fs *FS) openWrite(p string, root bool, appendTo ...bool) (*writeHandle, error) {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	n, err := fs.Lookup(p, root)
	if err == ENOENT {
		dir, name := path.Split(fs.abs(p))
		parent, perr := fs.Lookup(dir, root)
		switch {
		case perr != nil:
			return nil, perr
		case !parent.Dir:
			return nil, ENOTDIR
		case !parent.Disk || !parent.canWrite(root):
			return nil, EACCES
		}
		if l, ok := parent.Children[name]; ok && l.Link != "" {
			return nil, ENOENT // a dangling symbolic link: its target's directory is missing
		}
		n = newRegular("")
		n.UserOwns = !root
		parent.Children[name] = n
		return &writeHandle{fs: fs, node: n, path: fs.abs(p)}, nil
	}
	switch {
	case err != nil:
		return nil, err
	case n.Dir:
		return nil, EISDIR
	case !n.canWrite(root):
		return nil, EACCES
	case !n.DevNull && n.Write == nil:
		return nil, EACCES
	}
	if n.Regular && (len(appendTo) == 0 || !appendTo[0]) {
		n.Content = ""
	}
	return &writeHandle{fs: fs, node: n, path: fs.abs(p)}, nil
}

// Remove is unlink(2): a file or a symbolic link (never its target) in a
// disk directory the caller may write.
func (fs *FS) Remove(p string, root bool) error {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	n, err := fs.LookupLink(p, root)
	if err != nil {
		return err
	}
	dir, name := path.Split(fs.abs(p))
	parent, err := fs.Lookup(dir, root)
	switch {
	case err != nil:
		return err
	case n.Dir:
		return EISDIR
	case !parent.Disk:
		return EPERM // sysfs and debugfs files cannot be unlinked
	case !parent.canWrite(root):
		return EACCES
	}
	delete(parent.Children, name)
	return nil
}

// writeHandle is an open file; each write is one write(2), which a sysfs
// store method sees whole.
type writeHandle struct {
	fs   *FS
	node *Node
	path string
}

func (w *writeHandle) write(data string) error {
	if w.node.DevNull || data == "" {
		return nil
	}
	w.fs.Mu.Lock()
	defer w.fs.Mu.Unlock()
	if f := *w.fs.FailWrites; f != "" && strings.Contains(w.path, f) {
		return EIO // the firmware command behind the file failed
	}
	return w.node.Write(data)
}
