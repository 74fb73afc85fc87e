//go:build !mpi || !cgo

package mpi

import "os"

// Built is true when the package drives a real MPI library.
const Built = false

// Init returns Single: without the mpi build tag a program is always one
// process.
func Init() (Comm, error) { return Single{}, nil }

// Abort ends the process with code.
func Abort(code int) { os.Exit(code) }
