package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// sumInChunks hashes data written in pieces of the given sizes, cycling
// through them.
func sumInChunks(data []byte, sizes []int) [Size]byte {
	d := New()
	for i := 0; len(data) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(data))
		d.Write(data[:n])
		data = data[n:]
	}
	return d.Sum256()
}

func TestPublishedVectors(t *testing.T) {
	// FIPS 180-4's examples, as published with the standard (NIST's
	// "SHA256.pdf" example values).
	tests := []struct {
		name, input, digest string
	}{
		{"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"one block", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"two blocks", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sumInChunks([]byte(tc.input), []int{1 << 20})
			require.Equal(t, tc.digest, hex.EncodeToString(got[:]))
		})
	}
}

// TestAgainstCryptoSHA256 compares every length from 0 to 300 bytes, and
// a few long inputs, written whole and in uneven pieces, with Go's
// crypto/sha256: the digests are stored in saved summaries, so they must
// not differ.
func TestAgainstCryptoSHA256(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lengths := make([]int, 0, 310)
	for n := range 301 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 4096, 65535, 65536+55, 1<<20+1)
	chunkings := [][]int{{1 << 30}, {1}, {7, 64, 3}, {63, 65}, {55, 1, 8}}
	for _, n := range lengths {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		want := sha256.Sum256(data)
		for _, sizes := range chunkings {
			require.Equal(t, want, sumInChunks(data, sizes), "length %d written in pieces of %v", n, sizes)
		}
	}
}

func TestSumDoesNotEndTheComputation(t *testing.T) {
	d := New()
	d.Write([]byte("abc"))
	first := d.Sum256()
	d.Write([]byte("def"))
	require.Equal(t, sha256.Sum256([]byte("abc")), first)
	require.Equal(t, sha256.Sum256([]byte("abcdef")), d.Sum256())
}

func FuzzAgainstCryptoSHA256(f *testing.F) {
	f.Add([]byte("abc"), uint8(1))
	f.Add(make([]byte, 119), uint8(64))
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		got := sumInChunks(data, []int{int(piece) + 1})
		if want := sha256.Sum256(data); got != want {
			t.Fatalf("digest of %d bytes in pieces of %d: got %x, crypto/sha256 gives %x", len(data), int(piece)+1, got, want)
		}
	})
}
