package ranks

import (
	"bytes"
	"testing"
)

// FuzzDecodePart feeds arbitrary bytes to the reader of a job's parts: it
// never panics, and a part it accepts encodes back to the same bytes.
func FuzzDecodePart(f *testing.F) {
	inputs := []Input{{Name: "gmon.rank0", Rank: 0}, {Name: "gmon.rank1", Rank: 1}}
	f.Add(NewSummary("prog", &Layout{}, 0).EncodePart())
	f.Add([]byte{3, 'a', 'b', 'c'})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodePart(data, "fuzz", InputsOf(inputs...), []int32{0, 2})
		if err != nil {
			return
		}
		if again := s.EncodePart(); !bytes.Equal(again, data) {
			t.Fatalf("a part encodes back to other bytes")
		}
	})
}
