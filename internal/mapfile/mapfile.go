// Package mapfile maps input files into memory, read-only, and turns a
// fault on such a mapping (the file was cut short while mapped) into an
// error instead of a crash.
//
// A mapped file costs a page fault for each 64 KB or so that is read (the
// kernel maps the page cache's neighbouring pages with each fault), where
// reading it into a fresh buffer costs one for each 4 KB written, plus the
// copy: on a profile of half a megabyte, 9 faults instead of 130.
package mapfile

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"unsafe"
)

// FaultAddress returns the address of the memory fault p reports, if p is
// the runtime's panic for one (see debug.SetPanicOnFault).
func FaultAddress(p any) (uintptr, bool) {
	e, ok := p.(interface {
		runtime.Error
		Addr() uintptr
	})
	if !ok {
		return 0, false
	}
	return e.Addr(), true
}

// Offset returns the offset in mapping of address at, if at lies in it.
func Offset(mapping []byte, at uintptr) (int64, bool) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(mapping)))
	if at >= start && at-start < uintptr(len(mapping)) {
		return int64(at - start), true
	}
	return 0, false
}

// Whole is a file's bytes, mapped when the system allows it and read
// otherwise.
type Whole struct {
	// Data holds the file's bytes; mapped, they are read-only.
	Data   []byte
	mapped bool
}

// Open returns the bytes of the regular file f, mapped. It reports false
// where it cannot map them (an empty file, a file that is not regular, a
// system without mappings); the caller then reads the file.
func Open(f *os.File) (Whole, bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() <= 0 {
		return Whole{}, false
	}
	data, _, _, ok := Region(f, 0, st.Size())
	if !ok {
		return Whole{}, false
	}
	return Whole{Data: data, mapped: true}, true
}

// Close releases the mapping. Data must not be used after.
func (w *Whole) Close() {
	if w.mapped {
		Unmap([][]byte{w.Data})
	}
	w.Data, w.mapped = nil, false
}

// ErrCutShort is the error Guard returns when the file was cut short
// while its mapped bytes were read.
var ErrCutShort = errors.New("the file was cut short while egprof read it")

// Guard runs fn, which reads w.Data on the calling goroutine alone. A
// fault reading a byte of w.Data that the file no longer holds ends fn and
// is returned as an error wrapping ErrCutShort that gives the byte's
// offset; a fault anywhere else goes on as the panic it is.
func (w *Whole) Guard(fn func() error) (err error) {
	if !w.mapped {
		return fn()
	}
	defer func(wasPanicking bool) {
		debug.SetPanicOnFault(wasPanicking)
		p := recover()
		if p == nil {
			return
		}
		at, isFault := FaultAddress(p)
		off, inside := Offset(w.Data, at)
		if !isFault || !inside {
			panic(p)
		}
		err = fmt.Errorf("byte %#x could not be read: %w", off, ErrCutShort)
	}(debug.SetPanicOnFault(true))
	return fn()
}
