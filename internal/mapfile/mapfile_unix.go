//go:build unix

package mapfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// Region maps size bytes of file from offset off, read-only and private.
// It returns the bytes and the whole mapping, which starts at file offset
// start (the page holding off), or false when the system refuses.
func Region(file *os.File, off, size int64) (data, mapping []byte, start int64, ok bool) {
	page := int64(os.Getpagesize())
	start = off &^ (page - 1)
	if off < 0 || size <= 0 || off-start+size > int64(^uint(0)>>1) {
		return nil, nil, 0, false
	}
	m, err := unix.Mmap(int(file.Fd()), start, int(off-start+size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, 0, false
	}
	return m[off-start:], m, start, true
}

// Unmap releases mappings made by Region.
func Unmap(mappings [][]byte) {
	for _, m := range mappings {
		unix.Munmap(m)
	}
}
