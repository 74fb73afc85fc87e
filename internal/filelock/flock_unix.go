//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// lockOp names the system call in Acquire's errors.
const lockOp = "flock"

// lock waits for f's exclusive lock.
func lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// unlock gives f's lock up.
func unlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// Unsupported reports whether err says that the file system cannot lock
// files: ENOLCK (NFS without a lock manager, or a full lock table),
// EOPNOTSUPP or ENOSYS (file systems with no locks at all).
func Unsupported(err error) bool {
	return errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS)
}
