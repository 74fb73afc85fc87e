// Package binfmt writes and reads egprof's binary summary files: a fixed header (signature, version, payload length, CRC-32C) and a payload of varints, floats and strings, read back with bounds checks.
package binfmt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// HeaderSize is the size of a file's header: an 8-byte signature, a
// uint32 version, a uint64 payload length and the payload's CRC-32C
// (Castagnoli), little-endian.
const HeaderSize = 24

// Writer appends values to a payload. Unsigned integers are LEB128
// varints (encoding/binary's Uvarint), signed ones zigzag varints, floats
// their IEEE 754 bits as 8 little-endian bytes, strings a varint length
// and the bytes.
type Writer struct{ buf []byte }

// Uint appends v.
func (w *Writer) Uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

// Int appends v.
func (w *Writer) Int(v int64) { w.buf = binary.AppendVarint(w.buf, v) }

// Float appends v.
func (w *Writer) Float(v float64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
}

// String appends s.
func (w *Writer) String(s string) { w.Uint(uint64(len(s))); w.buf = append(w.buf, s...) }

// Raw appends b as it is (a field of fixed length).
func (w *Writer) Raw(b []byte) { w.buf = append(w.buf, b...) }

// Bool appends b as 0 or 1.
func (w *Writer) Bool(b bool) {
	if b {
		w.Uint(1)
	} else {
		w.Uint(0)
	}
}

// File returns the whole file: the header for signature and version,
// then the payload written so far.
func (w *Writer) File(signature string, version uint32) []byte {
	out := make([]byte, HeaderSize, HeaderSize+len(w.buf))
	copy(out, signature)
	binary.LittleEndian.PutUint32(out[8:], version)
	binary.LittleEndian.PutUint64(out[12:], uint64(len(w.buf)))
	binary.LittleEndian.PutUint32(out[20:], crc32.Checksum(w.buf, crc32.MakeTable(crc32.Castagnoli)))
	return append(out, w.buf...)
}

// FormatError reports a file that cannot be read: Offset is the byte
// offset of the faulty field in the file, or -1 when the fault is not in
// one field (fields that disagree with each other).
type FormatError struct {
	File   string
	Offset int
	Msg    string
}

// Error formats the error as "FILE: offset 0xOFF: MESSAGE", or
// "FILE: MESSAGE" without an offset.
func (e *FormatError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: offset %#x: %s", e.File, e.Offset, e.Msg)
}

// HasSignature reports whether data starts with signature.
func HasSignature(data []byte, signature string) bool {
	return bytes.HasPrefix(data, []byte(signature))
}

// Reader reads a payload back. The first problem is remembered (Err) and
// every later read returns a zero value, so that a decoder can read a
// whole record and check once.
type Reader struct {
	name string
	data []byte
	off  int
	err  error
}

// Open checks the header of file data (named name in errors) for the
// signature, the version, the length and the checksum, and returns a
// Reader of its payload; what names the kind of file in errors.
func Open(data []byte, name, signature string, version uint32, what string) (*Reader, error) {
	fail := func(off int, format string, args ...any) error {
		return &FormatError{File: name, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case !HasSignature(data, signature):
		return nil, fail(0, "not %s (no %q signature)", what, signature)
	case len(data) < HeaderSize:
		return nil, fail(len(data), "truncated header: %d bytes, need %d", len(data), HeaderSize)
	case binary.LittleEndian.Uint32(data[8:]) != version:
		return nil, fail(8, "format version %d; this egprof reads version %d", binary.LittleEndian.Uint32(data[8:]), version)
	case binary.LittleEndian.Uint64(data[12:]) != uint64(len(data)-HeaderSize):
		return nil, fail(12, "the header says %d bytes of data, the file has %d (truncated or extended)", binary.LittleEndian.Uint64(data[12:]), len(data)-HeaderSize)
	case crc32.Checksum(data[HeaderSize:], crc32.MakeTable(crc32.Castagnoli)) != binary.LittleEndian.Uint32(data[20:]):
		return nil, fail(20, "checksum mismatch: the file is corrupt")
	}
	return &Reader{name: name, data: data, off: HeaderSize}, nil
}

// Fail records a problem found at the current offset, unless one was
// found before.
func (r *Reader) Fail(format string, args ...any) { r.FailAt(r.off, format, args...) }

// FailAt records a problem of the field at file offset off (from Offset),
// unless one was found before.
func (r *Reader) FailAt(off int, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{File: r.name, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
}

// Offset returns the file offset of the next field, for FailAt.
func (r *Reader) Offset() int { return r.off }

// Remaining returns the number of bytes left to read.
func (r *Reader) Remaining() int { return len(r.data) - r.off }

// Err returns the first problem, or nil.
func (r *Reader) Err() error { return r.err }

// Finish returns the first problem, or reports bytes left unread.
func (r *Reader) Finish() error {
	if r.err == nil && r.off != len(r.data) {
		r.Fail("%d unexpected bytes after the data", len(r.data)-r.off)
	}
	return r.err
}

// Uint reads an unsigned integer; what names it in errors.
func (r *Reader) Uint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.off:])
	if n <= 0 {
		r.Fail("truncated or too large in %s", what)
		return 0
	}
	r.off += n
	return v
}

// Int reads a signed integer.
func (r *Reader) Int(what string) int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.data[r.off:])
	if n <= 0 {
		r.Fail("truncated or too large in %s", what)
		return 0
	}
	r.off += n
	return v
}

// Float reads a float.
func (r *Reader) Float(what string) float64 {
	if r.err != nil {
		return 0
	}
	if len(r.data)-r.off < 8 {
		r.Fail("truncated in %s", what)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.data[r.off:]))
	r.off += 8
	return v
}

// Count reads a number of elements that follow, each at least minBytes
// long, and refuses one the rest of the file cannot hold.
func (r *Reader) Count(what string, minBytes int) int {
	v := r.Uint(what)
	if r.err == nil && v > uint64(len(r.data)-r.off)/uint64(max(minBytes, 1)) {
		r.Fail("%s %d is more than the %d bytes left can hold", what, v, len(r.data)-r.off)
		return 0
	}
	return int(v)
}

// Index reads an index below n.
func (r *Reader) Index(what string, n int) int {
	v := r.Uint(what)
	if r.err == nil && v >= uint64(n) {
		r.Fail("%s %d out of range (there are %d)", what, v, n)
		return 0
	}
	return int(v)
}

// String reads a string.
func (r *Reader) String(what string) string {
	n := r.Count(what+" length", 1)
	if r.err != nil {
		return ""
	}
	s := string(r.data[r.off : r.off+n])
	r.off += n
	return s
}

// Bytes reads n raw bytes (a slice of the file's data).
func (r *Reader) Bytes(what string, n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.data)-r.off < n {
		r.Fail("truncated in %s", what)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

// Bool reads a 0 or 1.
func (r *Reader) Bool(what string) bool {
	v := r.Uint(what)
	if v > 1 {
		r.Fail("%s is %d, not 0 or 1", what, v)
	}
	return v == 1
}
