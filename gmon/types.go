// Package gmon reads and writes gprof profile data files: the GNU tagged
// format (gmon.out as glibc writes it, and gmon.sum) and the two BSD layouts.
package gmon

import "encoding/binary"

// Target is the layout of the executable a profile belongs to. gmon files
// carry no word size or byte order of their own: both come from the ELF file.
type Target struct {
	Order    binary.ByteOrder // byte order of every multi-byte field
	AddrSize int              // 4 or 8 bytes per address
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

// HistRecord is one histogram record as stored in a file.
type HistRecord struct {
	LowPC, HighPC uint64   // address range [LowPC, HighPC)
	Rate          uint32   // samples per second
	Dimen         [15]byte // unit name, NUL padded, kept raw
	Abbrev        byte     // unit letter
	Bins          []uint16 // sample counters
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
	Name    string
	Version uint32 // header version; 0 for BSD files
	BSD     bool   // read as old BSD or 4.4BSD
	Hists   []HistRecord
	Arcs    []ArcRecord
	BBs     []BBRecord
	// Record counts as gprof -i reports them.
	NumHistRecords, NumArcRecords, NumBBRecords int
	// LastHistHigh and LastHistBins are the high_pc and bin count (for BSD
	// the raw ncnt) of the last histogram header parsed; gprof's gmon.sum
	// carries them in its spare header bytes.
	LastHistHigh uint64
	LastHistBins uint32
	HasHistHeader bool
	// Rate of a BSD file: 4.4BSD's profrate, or 0 for old BSD (the reader's
	// clock rate applies).
	BSDRate uint32
}
