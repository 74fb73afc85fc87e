//go:build unix

package bfd

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapRegion maps size bytes of file from offset off, read-only and
// private. It returns the bytes and the whole mapping, which starts at
// file offset start (the page holding off), or false when the system
// refuses.
func mapRegion(file *os.File, off, size int64) (data, mapping []byte, start int64, ok bool) {
	page := int64(os.Getpagesize())
	start = off &^ (page - 1)
	if size <= 0 || off-start+size > int64(^uint(0)>>1) {
		return nil, nil, 0, false
	}
	m, err := unix.Mmap(int(file.Fd()), start, int(off-start+size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, 0, false
	}
	return m[off-start:], m, start, true
}

// unmapAll releases mappings made by mapRegion.
func unmapAll(maps [][]byte) {
	for _, m := range maps {
		unix.Munmap(m)
	}
}
