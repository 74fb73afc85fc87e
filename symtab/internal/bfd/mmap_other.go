//go:build !unix

package bfd

import "os"

// mapRegion maps nothing here: every section is read.
func mapRegion(file *os.File, off, size int64) (data, mapping []byte, start int64, ok bool) {
	return nil, nil, 0, false
}

// unmapAll has nothing to release here.
func unmapAll(maps [][]byte) {}
