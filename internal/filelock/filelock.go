// Package filelock serializes processes with advisory whole-file locks
// held on a lock file: flock(2) on Unix, LockFileEx on Windows.
package filelock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Lock is an exclusive lock held on a lock file. It is released by
// Release, or by the system when the process ends, however it ends.
type Lock struct {
	f *os.File
}

// Acquire creates the lock file at path if there is none (it is left in
// place afterwards: removing it would let two processes lock two different
// files of that name) and waits until this process holds the file's
// exclusive lock. Errors are *fs.PathError values carrying the system's
// error number; Unsupported tells those of a file system without locks.
func Acquire(path string) (*Lock, error) {
	// flock on NFS is carried out as a POSIX write lock, which needs a
	// descriptor open for writing; a lock file made by another user may
	// allow only reading, which is enough for a local flock.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if errors.Is(err, fs.ErrPermission) {
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, err
	}
	if err := lock(f); err != nil {
		_ = f.Close()
		return nil, &fs.PathError{Op: lockOp, Path: path, Err: err}
	}
	return &Lock{f: f}, nil
}

// Release gives the lock up and closes the lock file.
func (l *Lock) Release() error {
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("releasing the lock on %s: %w", l.f.Name(), err)
	}
	return nil
}
