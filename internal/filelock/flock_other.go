//go:build !unix && !windows

package filelock

import (
	"errors"
	"os"
)

// lockOp names the operation in Acquire's errors.
const lockOp = "lock"

// lock reports that this system has no file locks egprof knows of.
func lock(*os.File) error { return errors.ErrUnsupported }

// unlock has nothing to give up.
func unlock(*os.File) error { return nil }

// Unsupported reports whether err says that files cannot be locked here.
func Unsupported(err error) bool { return errors.Is(err, errors.ErrUnsupported) }
