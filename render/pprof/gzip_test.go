package pprof

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteGzipMatchesCompressGzip checks the hand-written framing against
// the standard library's gzip writer: the same bytes, and a stream its
// reader accepts (header, CRC-32 and length checked) giving the input back.
func TestWriteGzipMatchesCompressGzip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 300_000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"one byte", []byte{0}},
		{"text", []byte("main\nfoo\nbar\nmain\nfoo\nbar\n")},
		{"repetitive, several blocks", bytes.Repeat([]byte("egprof "), 100_000)},
		{"incompressible", random},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ours bytes.Buffer
			require.NoError(t, writeGzip(&ours, tc.data))

			var theirs bytes.Buffer
			zw, err := gzip.NewWriterLevel(&theirs, gzip.BestSpeed)
			require.NoError(t, err)
			_, err = zw.Write(tc.data)
			require.NoError(t, err)
			require.NoError(t, zw.Close())
			assert.True(t, bytes.Equal(theirs.Bytes(), ours.Bytes()), "same bytes as compress/gzip")

			zr, err := gzip.NewReader(&ours)
			require.NoError(t, err)
			back, err := io.ReadAll(zr)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(tc.data, back), "reads back")
		})
	}
}

// failAfter accepts n bytes and then fails.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

// TestWriteGzipReportsWriteErrors checks that a failing writer's error
// comes back, wherever in the stream it fails.
func TestWriteGzipReportsWriteErrors(t *testing.T) {
	data := bytes.Repeat([]byte("abc"), 1000)
	var whole bytes.Buffer
	require.NoError(t, writeGzip(&whole, data))
	for _, n := range []int{0, 5, 10, 11, whole.Len() - 8, whole.Len() - 1} {
		err := writeGzip(&failAfter{n: n}, data)
		assert.ErrorIs(t, err, errFull, "failing after %d of %d bytes", n, whole.Len())
	}
	assert.NoError(t, writeGzip(&failAfter{n: whole.Len()}, data))
}
