// Package gmon reads and writes gprof profile data files: the GNU tagged
// format (gmon.out as glibc writes it, and gmon.sum) and the two BSD layouts.
//
// The package follows GNU gprof 2.40 closely: a file gprof reads is read the
// same way here, record for record, including its odd corners (version-0
// files, records in any order, empty or inverted histogram ranges, the
// 4.4BSD rate checks). Where gprof crashes, runs out of memory or reads past
// what the input holds, this package returns a *FormatError instead; each
// such place is marked "Divergence" in a comment.
//
// Reading several files into one profile is stateful in gprof: a histogram
// record whose range equals an earlier one is read with the earlier record's
// bin count, and the earlier files decide which compatibility checks fail.
// Profile.AddData reproduces that exactly and is the way to sum files; Read
// parses one file on its own, as if it were the first or only one.
package gmon

import (
	"encoding/binary"
	"fmt"
)

// Target is the layout of the executable a profile belongs to. gmon files
// carry no word size or byte order of their own: both come from the ELF file.
type Target struct {
	Order    binary.ByteOrder // byte order of every multi-byte field
	AddrSize int              // 4 or 8 bytes per address
}

// String describes the target, e.g. "64-bit little-endian".
func (t Target) String() string {
	order := "unknown-endian"
	if t.Order != nil {
		if isBigEndian(t.Order) {
			order = "big-endian"
		} else {
			order = "little-endian"
		}
	}
	return fmt.Sprintf("%d-bit %s", 8*t.AddrSize, order)
}

// check reports whether the target can be used to parse or write a file.
// gprof itself stops with "address size has unexpected value" for widths
// other than 32 and 64 bits.
func (t Target) check() error {
	if t.Order == nil {
		return fmt.Errorf("invalid target: no byte order")
	}
	if t.AddrSize != 4 && t.AddrSize != 8 {
		return fmt.Errorf("invalid target: address size %d (want 4 or 8)", t.AddrSize)
	}
	return nil
}

// isBigEndian tells the two usual byte orders apart by decoding a probe,
// so any binary.ByteOrder implementation (NativeEndian included) works.
func isBigEndian(o binary.ByteOrder) bool {
	return o.Uint16([]byte{0, 1}) == 1
}

// Format selects how data files are parsed (and how gmon.sum is written),
// after gprof's -O option.
type Format int

// The formats -O accepts.
const (
	FormatAuto  Format = iota // GNU if the file starts with "gmon", else BSD
	FormatMagic               // GNU only
	FormatBSD                 // old BSD or 4.4BSD
	FormatBSD44               // 4.4BSD only
	FormatProf                // prof(1) format: recognised, never supported
)

// String returns the -O word for the format ("auto", "magic", "bsd",
// "4.4bsd", "prof").
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatMagic:
		return "magic"
	case FormatBSD:
		return "bsd"
	case FormatBSD44:
		return "4.4bsd"
	case FormatProf:
		return "prof"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat interprets the argument of gprof's -O / --file-format option.
// Like gprof it looks only at the first character: 'a' auto, 'm' magic,
// 'b' BSD, '4' 4.4BSD, 'p' prof, so "bogus" means BSD. Anything else,
// the empty string included, is an error. FormatProf is returned without
// error; it is reading or writing with it that fails, as in gprof.
func ParseFormat(arg string) (Format, error) {
	if arg != "" {
		switch arg[0] {
		case 'a':
			return FormatAuto, nil
		case 'm':
			return FormatMagic, nil
		case 'b':
			return FormatBSD, nil
		case '4':
			return FormatBSD44, nil
		case 'p':
			return FormatProf, nil
		}
	}
	return FormatAuto, fmt.Errorf("unknown file format %q", arg)
}

// HistRecord is one histogram record as stored in a file.
type HistRecord struct {
	LowPC, HighPC uint64   // address range [LowPC, HighPC)
	Rate          uint32   // samples per second (BSD: 4.4BSD profrate, else 0)
	Dimen         [15]byte // unit name, NUL padded, kept raw (BSD: zero)
	Abbrev        byte     // unit letter (BSD: zero)
	// Size is the bin count the record's header gives (hist_size; for a BSD
	// file the count derived from ncnt).
	Size uint32
	// Bins are the sample counters actually read. Their number equals Size
	// except when the record repeats the range of an earlier histogram with
	// a different Size: gprof then reads as many bins as the earlier record
	// had, and so does this package. That can only pass the scale check for
	// ranges narrower than 2 bytes or for records with zero bins.
	Bins []uint16
}

// ArcRecord is one call-graph arc: a caller address, a callee address and
// how often the call happened.
type ArcRecord struct {
	FromPC, SelfPC uint64
	Count          uint64
}

// BBRecord is one basic-block execution count.
type BBRecord struct {
	Addr, Count uint64
}

// File is one data file as read, records in file order.
type File struct {
	Name string
	// Version is the header version of a GNU file (0 or 1), 0 for BSD
	// files. gprof -i prints a different number for BSD files: see
	// Profile.FileVersion.
	Version uint32
	BSD     bool // read as old BSD or 4.4BSD
	BSD44   bool // read as 4.4BSD (BSD is true too)
	// Hists holds the histogram records. A BSD file always has exactly
	// one, even when it has no bins (gprof still sets up a histogram).
	Hists []HistRecord
	Arcs  []ArcRecord
	// BBs holds the basic-block counts of all tag-2 records, in order.
	BBs []BBRecord
	// Record counts as gprof -i reports them: tag-0, tag-1 and tag-2
	// records. A BSD file counts one histogram record if it has any bins,
	// and one call-graph record per arc.
	NumHistRecords, NumArcRecords, NumBBRecords int
	// LastHistHigh and LastHistBins are the high_pc and bin count (for BSD
	// the raw ncnt) of the last histogram header parsed; gprof's gmon.sum
	// carries them in its spare header bytes. HasHistHeader tells whether
	// the file had a histogram header at all.
	LastHistHigh  uint64
	LastHistBins  uint32
	HasHistHeader bool
	// Rate of a BSD file: 4.4BSD's profrate, or 0 for old BSD (the reader's
	// clock rate applies).
	BSDRate uint32
	// IgnoredTail is the number of bytes at the end of a BSD file too few
	// to hold another arc; gprof ignores them silently.
	IgnoredTail int

	// raw is the data the file was parsed from; Profile.Add parses it
	// again in the context of the files added before. A lean read
	// (Profile.AddDataLean) keeps neither the bytes nor the records, so
	// that the caller may release the bytes: lean is set, raw is nil.
	raw  []byte
	lean bool
	// size is the number of bytes parsed.
	size int
}

// RequireHistogram returns a NoHistogramError when f holds no histogram
// record. Where each file is a profile to compare on its own (a rank, a
// run of an experiment, a file of a differential side) such a file is
// refused: summed or compared, its time would silently count as zero.
func (f *File) RequireHistogram() error {
	if f.HasHistHeader {
		return nil
	}
	return NoHistogramError(f.Name, f.size)
}
