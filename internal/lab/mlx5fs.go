package lab

// The emulated filesystem of an mlx5 host: only the parts a QoS tool reads
// or writes (sysfs, debugfs, /dev/null), with the permissions and error
// numbers a real kernel gives a non-root login user and root.

import (
	"path"
	"slices"
	"strings"
)

// errno is a Linux error number; Error gives the C library's strerror text,
// which is what shells and coreutils print (Go's syscall texts are lower case).
type errno int

const (
	ePERM   errno = 1
	eNOENT  errno = 2
	eIO     errno = 5
	eACCES  errno = 13
	eNODEV  errno = 19
	eNOTDIR errno = 20
	eISDIR  errno = 21
	eINVAL  errno = 22
	eEXIST  errno = 17
	eRANGE  errno = 34
	eLOOP   errno = 40
)

func (e errno) Error() string {
	switch e {
	case ePERM:
		return "Operation not permitted"
	case eNOENT:
		return "No such file or directory"
	case eIO:
		return "Input/output error"
	case eACCES:
		return "Permission denied"
	case eNODEV:
		return "No such device"
	case eNOTDIR:
		return "Not a directory"
	case eISDIR:
		return "Is a directory"
	case eINVAL:
		return "Invalid argument"
	case eEXIST:
		return "File exists"
	case eRANGE:
		return "Numerical result out of range"
	case eLOOP:
		return "Too many levels of symbolic links"
	case eOPNOTSUPP:
		return "Operation not supported"
	}
	return "Unknown error"
}

// fsNode is a directory or a file. Every node is owned by root, so a
// non-root user gets the "other" permission bits and root gets everything
// except writing a file without a store method (kernfs refuses that with
// EACCES even to root).
type fsNode struct {
	mode     uint32 // permission bits
	dir      bool
	children map[string]*fsNode
	devNull  bool
	// disk marks a directory of an ordinary filesystem (/etc): files can
	// be created in it by whoever may write it, unlike sysfs and debugfs.
	disk bool
	// regular marks an ordinary file; content is what it holds.
	regular bool
	content string
	// link is the target of a symbolic link (systemctl enable's .wants
	// entries); every other field is unused then.
	link string
	// read renders the file; write stores one write(2) call's bytes. Both
	// run with the host lock held.
	read  func() string
	write func(data string) error
}

// newRegular is an ordinary 0644 file holding content.
func newRegular(content string) *fsNode {
	n := &fsNode{mode: 0o644, regular: true, content: content}
	n.read = func() string { return n.content }
	n.write = func(data string) error { n.content += data; return nil }
	return n
}

func newDir(mode uint32) *fsNode {
	return &fsNode{mode: mode, dir: true, children: map[string]*fsNode{}}
}

// mkdirs returns the directory at rel below n, creating 0755 directories.
func (n *fsNode) mkdirs(rel string) *fsNode {
	cur := n
	for _, part := range strings.Split(strings.Trim(rel, "/"), "/") {
		if part == "" {
			continue
		}
		next, ok := cur.children[part]
		if !ok {
			next = newDir(0o755)
			cur.children[part] = next
		}
		cur = next
	}
	return cur
}

// add places a file at rel below n, creating the directories on the way.
func (n *fsNode) add(rel string, f *fsNode) {
	dir, name := path.Split(strings.Trim(rel, "/"))
	n.mkdirs(dir).children[name] = f
}

func (n *fsNode) names() []string {
	out := make([]string, 0, len(n.children))
	for name := range n.children {
		out = append(out, name)
	}
	slices.Sort(out) // strcmp order, as dash sorts glob results
	return out
}

func (n *fsNode) canRead(root bool) bool  { return root || n.mode&0o004 != 0 }
func (n *fsNode) canWrite(root bool) bool { return root || n.mode&0o002 != 0 }
func (n *fsNode) canExec(root bool) bool  { return root || n.mode&0o001 != 0 }

// fsys is one host's tree. Its methods take the host lock.
type fsys struct {
	h    *Host
	root *fsNode
	cwd  string
}

// abs makes p absolute against the login directory, cleaned lexically (the
// only symbolic links, systemctl's, point at absolute paths).
func (fs *fsys) abs(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = fs.cwd + "/" + p
	}
	return path.Clean(p)
}

// lookup walks to p, checking search permission on every directory on the
// way, as path resolution does.
func (fs *fsys) lookup(p string, root bool) (*fsNode, error) {
	return fs.walk(p, root, true, 0)
}

// lookupLink is lookup that does not follow a symbolic link in the last
// component (lstat, unlink).
func (fs *fsys) lookupLink(p string, root bool) (*fsNode, error) {
	return fs.walk(p, root, false, 0)
}

// walk resolves p; symbolic links on the way are followed (the last one
// only when follow is set), at most 40 deep as Linux does (ELOOP).
func (fs *fsys) walk(p string, root, follow bool, depth int) (*fsNode, error) {
	if depth > 40 {
		return nil, eLOOP
	}
	n := fs.root
	parts := strings.Split(strings.TrimPrefix(fs.abs(p), "/"), "/")
	for i, part := range parts {
		if part == "" {
			continue
		}
		if !n.dir {
			return nil, eNOTDIR
		}
		if !n.canExec(root) {
			return nil, eACCES
		}
		next, ok := n.children[part]
		if !ok {
			return nil, eNOENT
		}
		if next.link != "" && (follow || i < len(parts)-1) {
			var err error
			if next, err = fs.walk(next.link, root, true, depth+1); err != nil {
				return nil, err
			}
		}
		n = next
	}
	return n, nil
}

// stat reports whether p exists and is a directory.
func (fs *fsys) stat(p string, root bool) (isDir bool, err error) {
	fs.h.mu.Lock()
	defer fs.h.mu.Unlock()
	n, err := fs.lookup(p, root)
	if err != nil {
		return false, err
	}
	return n.dir, nil
}

// readFile is open(O_RDONLY) plus read: a directory fails at read time
// with EISDIR, as cat and grep report it.
func (fs *fsys) readFile(p string, root bool) (string, error) {
	fs.h.mu.Lock()
	defer fs.h.mu.Unlock()
	n, err := fs.lookup(p, root)
	switch {
	case err != nil:
		return "", err
	case !n.canRead(root):
		return "", eACCES
	case n.dir:
		return "", eISDIR
	case n.devNull || n.read == nil:
		return "", nil
	}
	return n.read(), nil
}

// readDir lists a directory the user may read.
func (fs *fsys) readDir(p string, root bool) ([]string, error) {
	fs.h.mu.Lock()
	defer fs.h.mu.Unlock()
	n, err := fs.lookup(p, root)
	switch {
	case err != nil:
		return nil, err
	case !n.dir:
		return nil, eNOTDIR
	case !n.canRead(root):
		return nil, eACCES
	}
	return n.names(), nil
}

// openWrite is open(O_WRONLY|O_CREAT|O_TRUNC), or O_APPEND instead of
// O_TRUNC with appendTo: it fails the way the shell's "cannot create" or
// tee's message reports. sysfs and debugfs cannot create files, not even for
// root; a disk directory lets whoever may write it create one.
func (fs *fsys) openWrite(p string, root bool, appendTo ...bool) (*writeHandle, error) {
	fs.h.mu.Lock()
	defer fs.h.mu.Unlock()
	n, err := fs.lookup(p, root)
	if err == eNOENT {
		dir, name := path.Split(fs.abs(p))
		parent, perr := fs.lookup(dir, root)
		switch {
		case perr != nil:
			return nil, perr
		case !parent.dir:
			return nil, eNOTDIR
		case !parent.disk || !parent.canWrite(root):
			return nil, eACCES
		}
		if l, ok := parent.children[name]; ok && l.link != "" {
			return nil, eNOENT // a dangling symbolic link: its target's directory is missing
		}
		n = newRegular("")
		parent.children[name] = n
		return &writeHandle{fs: fs, node: n, path: fs.abs(p)}, nil
	}
	switch {
	case err != nil:
		return nil, err
	case n.dir:
		return nil, eISDIR
	case !n.canWrite(root):
		return nil, eACCES
	case !n.devNull && n.write == nil:
		return nil, eACCES
	}
	if n.regular && (len(appendTo) == 0 || !appendTo[0]) {
		n.content = ""
	}
	return &writeHandle{fs: fs, node: n, path: fs.abs(p)}, nil
}

// remove is unlink(2): a file or a symbolic link (never its target) in a
// disk directory the caller may write.
func (fs *fsys) remove(p string, root bool) error {
	fs.h.mu.Lock()
	defer fs.h.mu.Unlock()
	n, err := fs.lookupLink(p, root)
	if err != nil {
		return err
	}
	dir, name := path.Split(fs.abs(p))
	parent, err := fs.lookup(dir, root)
	switch {
	case err != nil:
		return err
	case n.dir:
		return eISDIR
	case !parent.disk:
		return ePERM // sysfs and debugfs files cannot be unlinked
	case !parent.canWrite(root):
		return eACCES
	}
	delete(parent.children, name)
	return nil
}

// writeHandle is an open file; each write is one write(2), which a sysfs
// store method sees whole.
type writeHandle struct {
	fs   *fsys
	node *fsNode
	path string
}

func (w *writeHandle) write(data string) error {
	if w.node.devNull || data == "" {
		return nil
	}
	w.fs.h.mu.Lock()
	defer w.fs.h.mu.Unlock()
	if f := w.fs.h.failWrites; f != "" && strings.Contains(w.path, f) {
		return eIO // the firmware command behind the file failed
	}
	return w.node.write(data)
}
