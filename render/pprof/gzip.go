package pprof

import (
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// writeGzip writes data to w as one gzip member (RFC 1952) at flate's
// BestSpeed, byte for byte what compress/gzip's Writer at BestSpeed writes
// with a zero header: no name, no time, XFL 4 ("fastest"), OS 255
// ("unknown").
//
// The framing is written here, around compress/flate, rather than through
// compress/gzip: linking that package gives it an initialisation task that
// the Go runtime runs at every start of egprof, pprof export or not, and
// the kernel maps the 64 KB of code around it; on the smallest profiles
// that was 2 to 3% of the whole run's peak memory (see README, "Speed
// against GNU gprof").
func writeGzip(w io.Writer, data []byte) error {
	header := [10]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255}
	if _, err := w.Write(header[:]); err != nil {
		return fmt.Errorf("writing the gzip header: %w", err)
	}
	fw, err := flate.NewWriter(w, flate.BestSpeed)
	if err != nil {
		return fmt.Errorf("starting the deflate stream: %w", err)
	}
	if _, err := fw.Write(data); err != nil {
		return fmt.Errorf("compressing: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("compressing: %w", err)
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32.ChecksumIEEE(data))
	// ISIZE is the input's length modulo 2^32.
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(data)))
	if _, err := w.Write(trailer[:]); err != nil {
		return fmt.Errorf("writing the gzip trailer: %w", err)
	}
	return nil
}
