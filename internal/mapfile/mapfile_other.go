//go:build !unix

package mapfile

import "os"

// Region maps nothing here: the caller reads the file.
func Region(file *os.File, off, size int64) (data, mapping []byte, start int64, ok bool) {
	return nil, nil, 0, false
}

// Unmap has nothing to release here.
func Unmap(mappings [][]byte) {}
