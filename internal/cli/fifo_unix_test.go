//go:build unix

package cli

import "golang.org/x/sys/unix"

// makeFIFO makes a named pipe at path.
func makeFIFO(path string) error { return unix.Mkfifo(path, 0o644) }
