package ranks

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/binfmt"
)

// sampleSummary is a small summary with every part filled.
func sampleSummary(t testing.TB) []byte {
	l := testLayout()
	r := rand.New(rand.NewPCG(11, 12))
	return summaryOf(t, l, randomRanks(r, 12, len(l.Cells)), 2).Encode()
}

// reseal fixes the length and checksum of a modified summary, so that the
// decoder's field checks are what sees the damage.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint64(b[12:], uint64(len(b)-binfmt.HeaderSize))
	binary.LittleEndian.PutUint32(b[20:], crc32.Checksum(b[binfmt.HeaderSize:], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

func TestDecodeSummaryErrors(t *testing.T) {
	good := sampleSummary(t)
	mod := func(f func([]byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := []struct {
		name   string
		data   []byte
		offset int
		msg    string
	}{
		{"gmon file", []byte("gmon\x01\x00\x00\x00"), 0, "not an egprof rank summary"},
		{"empty", nil, 0, "not an egprof rank summary"},
		{"short header", []byte("EGPRANKS\x01"), 9, "truncated header"},
		{"future version", mod(func(b []byte) []byte { b[8] = 4; return b }), 8, "format version 4; this egprof reads version 3"},
		{"version 2", mod(func(b []byte) []byte { b[8] = 2; return b }), 8, "a rank summary of format version 2, made by an egprof that kept times in 1/65536ths of a sample: make it again from the gmon files"},
		{"version 1", mod(func(b []byte) []byte { b[8] = 1; return b }), 8, "a rank summary of format version 1, made by an egprof whose regions did not hold the time of the activities they call: make it again from the gmon files"},
		{"truncated", good[:len(good)-10], 12, "truncated or extended"},
		{"extended", append(append([]byte(nil), good...), 0), 12, "truncated or extended"},
		{"corrupt byte", mod(func(b []byte) []byte { b[len(b)-3] ^= 0x40; return b }), 20, "checksum mismatch"},
		{"trailing bytes", mod(func(b []byte) []byte { return reseal(append(b, 7)) }), len(good), "unexpected bytes"},
	}
	for _, tt := range tests {
		_, err := DecodeSummary(tt.data, "node3.sum")
		require.Error(t, err, tt.name)
		var fe *binfmt.FormatError
		require.True(t, errors.As(err, &fe), tt.name)
		assert.Equal(t, "node3.sum", fe.File, tt.name)
		assert.Equal(t, tt.offset, fe.Offset, tt.name)
		assert.Contains(t, err.Error(), tt.msg, tt.name)
		assert.Contains(t, err.Error(), "node3.sum", tt.name)
	}
}

// Damage anywhere in the payload, with the checksum made to match, is
// either caught with an error or yields a summary that is consistent
// enough to analyse; it never panics.
func TestDecodeSummaryDamage(t *testing.T) {
	good := sampleSummary(t)
	r := rand.New(rand.NewPCG(13, 14))
	caught := 0
	for pos := binfmt.HeaderSize; pos < len(good); pos++ {
		for _, v := range []byte{0, 0xff, byte(r.IntN(256))} {
			b := append([]byte(nil), good...)
			b[pos] = v
			s, err := DecodeSummary(reseal(b), "x")
			if err != nil {
				caught++
				continue
			}
			_, err = Analyze(s, AnalyzeOptions{})
			require.NoError(t, err)
		}
	}
	assert.Greater(t, caught, 0)
}

func FuzzDecodeSummary(f *testing.F) {
	f.Add(sampleSummary(f))
	f.Add([]byte("EGPRANKS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= binfmt.HeaderSize && IsSummary(data) {
			data = reseal(append([]byte(nil), data...))
		}
		s, err := DecodeSummary(data, "fuzz")
		if err == nil {
			_, err = Analyze(s, AnalyzeOptions{})
			require.NoError(t, err)
			_ = s.Encode()
		}
	})
}

func TestWriteToRoundTrip(t *testing.T) {
	l := testLayout()
	r := rand.New(rand.NewPCG(15, 16))
	s := summaryOf(t, l, randomRanks(r, 5, len(l.Cells)), 2)
	var buf bytes.Buffer
	n, err := s.WriteTo(&buf)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)
	back, err := DecodeSummary(buf.Bytes(), "job.sum")
	require.NoError(t, err)
	assert.Equal(t, s.Encode(), back.Encode())
}

// saveSummary writes s to path, as the command's --save-summary does.
func saveSummary(t *testing.T, s *Summary, path string) {
	t.Helper()
	var buf bytes.Buffer
	_, err := s.WriteTo(&buf)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}
