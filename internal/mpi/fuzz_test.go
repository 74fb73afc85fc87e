package mpi

import (
	"bytes"
	"testing"
)

// FuzzUnwrap feeds arbitrary messages to Reduce's envelope reader: it
// never panics, and what it accepts wraps back to the same bytes.
func FuzzUnwrap(f *testing.F) {
	f.Add(wrap([]byte("part"), nil))
	f.Add(wrap(nil, &PartError{Input: 300, Msg: "gmon.rank3: bad"}))
	f.Add([]byte{})
	f.Add([]byte{9})
	f.Fuzz(func(t *testing.T, msg []byte) {
		data, perr, err := unwrap(msg)
		if err != nil {
			return
		}
		again := wrap(data, perr)
		if perr != nil {
			// The varint may have had redundant bytes; compare meaning.
			_, p2, err := unwrap(again)
			if err != nil || *p2 != *perr {
				t.Fatalf("failure %+v wraps to %x, read back as %+v, %v", perr, again, p2, err)
			}
			return
		}
		if !bytes.Equal(again, msg) {
			t.Fatalf("part %x wraps to %x", msg, again)
		}
	})
}
