package bfd

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAbbrevSharing checks that entries of the same bytes in different
// tables are one abbreviation, and that entries differing in any part, or
// cut short by the end of the section, are not shared.
func TestAbbrevSharing(t *testing.T) {
	const (
		atName, formString, formStrp = 0x03, 0x08, 0x0e
		tagCU, tagSub                = 0x11, 0x2e
	)
	first := []byte{
		1, tagCU, 1, atName, formString, 0, 0,
		2, tagSub, 0, atName, formString, 0, 0,
		3, tagSub, 1, atName, formString, 0, 0, // children differ from 2
		0,
	}
	second := []byte{
		1, tagSub, 0, atName, formString, 0, 0, // first's 2
		2, tagSub, 0, atName, formStrp, 0, 0, // the form differs
		3, tagCU, 1, atName, formString, 0, 0, // first's 1
		0,
	}
	cut := []byte{1, tagSub, 0, atName, formString} // no terminating pair
	data := append(append(append([]byte{}, first...), second...), cut...)
	s := newLines(binary.LittleEndian)
	s.abbrev = section{data: data, ok: true, want: ".debug_abbrev", name: ".debug_abbrev"}

	a := s.readAbbrevs(0)
	b := s.readAbbrevs(uint64(len(first)))
	c := s.readAbbrevs(uint64(len(first) + len(second)))
	require.NotNil(t, a)
	require.NotNil(t, b)
	require.NotNil(t, c)

	assert.Same(t, a.get(2), b.get(1), "the same bytes in two tables")
	assert.Same(t, a.get(1), b.get(3), "the same bytes in two tables")
	assert.NotSame(t, a.get(2), a.get(3), "children flag differs")
	assert.NotSame(t, a.get(2), b.get(2), "form differs")
	assert.Equal(t, uint32(formStrp), b.get(2).attrs[0].form)
	assert.True(t, a.get(1).hasChildren)
	assert.False(t, a.get(2).hasChildren)

	// The cut entry reads as BFD reads it (zeros past the end end its
	// attributes) but is not shared: its bytes are not a whole entry.
	require.NotNil(t, c.get(1))
	assert.NotSame(t, a.get(2), c.get(1))
	assert.Equal(t, a.get(2).tag, c.get(1).tag)
	assert.Equal(t, a.get(2).attrs, c.get(1).attrs)
}
