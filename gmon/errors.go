package gmon

import "fmt"

// ErrorKind classifies a FormatError, roughly one kind per gprof message.
type ErrorKind int

// The kinds of FormatError. The comment after each gives gprof's wording.
const (
	KindOther        ErrorKind = iota // anything not listed below
	KindTooShort                      // "file too short to be a gmon file"
	KindBadMagic                      // "file `F' has bad magic cookie"
	KindBadVersion                    // "file `F' has unsupported version N"
	KindBadTag                        // "found bad tag N (file corrupted?)"
	KindTruncated                     // "unexpected end of file", "unexpected EOF after reading ..."
	KindNotGmon                       // "file 'F' does not appear to be in gmon.out format" (BSD)
	KindOverlap                       // "overlapping histogram records"
	KindScale                         // "different scales in histogram records"
	KindDimen                         // "dimension unit changed between histogram records"
	KindAbbrev                        // "dimension abbreviation changed between histogram records"
	KindIncompatible                  // "F: incompatible with first gmon file" (BSD)
	KindRate                          // "F: profiling rate incompatible with first gmon file" (4.4BSD)
	KindUnsupported                   // "sorry, file format `prof' is not yet supported", unknown formats
	KindTarget                        // the Target is unusable ("address size has unexpected value")
	KindNoHistogram                   // "gmon.out file is missing histogram" (a flat profile of no histogram)
)

// FormatError reports a data file that cannot be read, or that cannot be
// summed with the files read before it. Offset is the byte offset in the
// file of the record or field at fault, or -1 when no position applies.
type FormatError struct {
	File   string
	Offset int64
	Kind   ErrorKind
	Msg    string
	Err    error // underlying cause, if any (io.ErrUnexpectedEOF for truncation)
}

// Error formats the error as "FILE: offset 0xOFF: MESSAGE".
func (e *FormatError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: offset %#x: %s", e.File, e.Offset, e.Msg)
}

// Unwrap returns the underlying cause.
func (e *FormatError) Unwrap() error { return e.Err }

// ferr builds a FormatError.
func ferr(name string, off int, kind ErrorKind, cause error, format string, args ...any) *FormatError {
	return &FormatError{File: name, Offset: int64(off), Kind: kind, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// NoHistogramError reports that the data file name, of size bytes, holds
// no histogram record (KindNoHistogram). gprof sums such a file with
// others without a word and refuses only a flat profile made of it
// alone; a glibc program always writes a histogram record, even with no
// sample, so the file was most likely cut short after its header.
func NoHistogramError(name string, size int) error {
	return ferr(name, -1, KindNoHistogram, nil,
		"no histogram record in its %d bytes (cut short after its header?), so its time would count as zero", size)
}
