// Package oserr words operating-system errors as C's perror and strerror
// do, for messages that must read like GNU gprof's.
package oserr

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// Text is the strerror text of err ("No such file or directory"), without
// the path or operation Go adds; errors that carry no errno keep their own
// text, capitalised.
func Text(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		err = errno
	} else {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
