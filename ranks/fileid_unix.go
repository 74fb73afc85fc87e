//go:build unix

package ranks

import (
	"os"
	"syscall"
)

// fileID identifies a file: its device and inode.
type fileID struct{ dev, ino uint64 }

// identity returns the file's device and inode.
func identity(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true //nolint:unconvert // their types differ between systems
}
