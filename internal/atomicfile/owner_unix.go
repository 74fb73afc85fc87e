//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// owner is the user and group that own a file, when known.
type owner struct {
	uid, gid int
	known    bool
}

// ownerOf returns the owner of the file described by fi.
func ownerOf(fi fs.FileInfo) owner {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return owner{uid: int(st.Uid), gid: int(st.Gid), known: true}
	}
	return owner{}
}

// apply gives f to the owner, where the process may: only a privileged
// process may give a file away, and a refusal is not an error.
func (o owner) apply(f *os.File) {
	if o.known {
		_ = f.Chown(o.uid, o.gid)
	}
}
