// Package digest computes SHA-256 digests (FIPS 180-4) without linking Go's
// crypto module.
//
// Written by hand because crypto/sha256 brings the FIPS 140 module with it,
// whose package initialisation (self-test registration, CPU feature and
// GODEBUG probes, the DRBG) runs at the start of every egprof process,
// whether or not anything is hashed: on a small profile that was 4% of
// egprof's CPU time and 130 KB of its peak RSS (paired runs, medians,
// 2026-11-29). egprof hashes only its symbol tables, to tell executables
// apart, so a plain implementation is fast enough. It must give the very
// digests crypto/sha256 gives, since saved rank summaries hold them; the
// tests compare the two.
package digest

import (
	"encoding/binary"
	"math/bits"
)

// Size is the length of a digest in bytes.
const Size = 32

// BlockSize is the length of the blocks the compression function takes.
const BlockSize = 64

// initial is the hash value a digest starts from (FIPS 180-4, 5.3.3).
var initial = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// roundConstants are the 64 words K of FIPS 180-4, 4.2.2.
var roundConstants = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// SHA256 is a running SHA-256 computation; its zero value is not ready,
// use New.
type SHA256 struct {
	h      [8]uint32
	block  [BlockSize]byte // the bytes of a block not yet compressed
	filled int             // how many of block's bytes are set
	length uint64          // bytes written in all
}

// New returns a SHA-256 computation over no bytes yet.
func New() *SHA256 {
	return &SHA256{h: initial}
}

// Write adds p to the bytes hashed. It never fails.
func (d *SHA256) Write(p []byte) (int, error) {
	n := len(p)
	d.length += uint64(n)
	if d.filled > 0 {
		c := copy(d.block[d.filled:], p)
		d.filled += c
		p = p[c:]
		if d.filled < BlockSize {
			return n, nil
		}
		d.compress(d.block[:])
		d.filled = 0
	}
	if whole := len(p) &^ (BlockSize - 1); whole > 0 {
		d.compress(p[:whole])
		p = p[whole:]
	}
	d.filled = copy(d.block[:], p)
	return n, nil
}

// Sum256 returns the digest of the bytes written so far; the computation
// can go on afterwards.
func (d *SHA256) Sum256() [Size]byte {
	c := *d
	// Padding: a 1 bit, zeros up to 56 bytes into a block, then the
	// length in bits, big-endian.
	var pad [BlockSize + 8]byte
	pad[0] = 0x80
	zeros := (55 - int(c.length%BlockSize) + BlockSize) % BlockSize
	binary.BigEndian.PutUint64(pad[1+zeros:], c.length*8)
	c.Write(pad[:1+zeros+8])
	var out [Size]byte
	for i, v := range c.h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// compress runs the compression function over p, a whole number of
// blocks (FIPS 180-4, 6.2.2).
func (d *SHA256) compress(p []byte) {
	var w [64]uint32
	h0, h1, h2, h3, h4, h5, h6, h7 := d.h[0], d.h[1], d.h[2], d.h[3], d.h[4], d.h[5], d.h[6], d.h[7]
	for ; len(p) >= BlockSize; p = p[BlockSize:] {
		for t := range 16 {
			w[t] = binary.BigEndian.Uint32(p[4*t:])
		}
		for t := 16; t < 64; t++ {
			s0 := bits.RotateLeft32(w[t-15], -7) ^ bits.RotateLeft32(w[t-15], -18) ^ w[t-15]>>3
			s1 := bits.RotateLeft32(w[t-2], -17) ^ bits.RotateLeft32(w[t-2], -19) ^ w[t-2]>>10
			w[t] = w[t-16] + s0 + w[t-7] + s1
		}
		a, b, c, e, f, g, h := h0, h1, h2, h4, h5, h6, h7
		dd := h3
		for t := range 64 {
			sum1 := bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)
			choose := e&f ^ ^e&g
			t1 := h + sum1 + choose + roundConstants[t] + w[t]
			sum0 := bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)
			majority := a&b ^ a&c ^ b&c
			t2 := sum0 + majority
			h, g, f, e = g, f, e, dd+t1
			dd, c, b, a = c, b, a, t1+t2
		}
		h0 += a
		h1 += b
		h2 += c
		h3 += dd
		h4 += e
		h5 += f
		h6 += g
		h7 += h
	}
	d.h = [8]uint32{h0, h1, h2, h3, h4, h5, h6, h7}
}
