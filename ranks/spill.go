package ranks

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Spill is storage that Collect may keep the ranks' rows in instead of
// memory (CollectOptions.Spill), so that its memory does not grow with the
// number of ranks: rows are written at their places, by several
// goroutines at once, and read back in order. The command gives an
// unlinked temporary file; this package opens none.
type Spill interface {
	io.ReaderAt
	io.WriterAt
}

// rowTable holds a summary's ranks (all of them, recorded leanly) as rows
// of a Spill, in rank order from offset base. A row is the rank number (8
// bytes), its input's position (4), its total time (8), its flags (1:
// rowTruncated, rowFilled), its time in each candidate region, then in
// each region filled in afterwards (8 bytes each), little-endian.
type rowTable struct {
	st      Spill
	base    int64
	n       int     // rows
	inputs  *Inputs // Collect's, for the labels
	regions []int32 // the candidate regions, ascending
	// extra are the regions FillRanks filled in (none of regions),
	// ascending; a row holds their times only when rowFilled.
	extra []int32
	// pos is each input's row (its rank's place in rank order), while
	// the ranks are collected.
	pos []int32
}

// The fixed part of a row, its flags, and the rows read at once.
const (
	rowHead      = 8 + 4 + 8 + 1
	rowTruncated = 1
	rowFilled    = 2
	windowRows   = 256
)

// newRowTable returns a table for the ranks of inputs, or nil when they
// cannot all be rows: a summary among them (its ranks are records), or
// one rank number given twice (the in-memory path reports it).
func newRowTable(st Spill, inputs *Inputs) *rowTable {
	if inputs.Len() == 0 {
		return nil
	}
	order := make([]int32, inputs.Len())
	for i := range order {
		if inputs.IsSummary(i) {
			return nil
		}
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(inputs.Rank(int(a)), inputs.Rank(int(b))) })
	pos := make([]int32, inputs.Len())
	for p, i := range order {
		if p > 0 && inputs.Rank(int(i)) == inputs.Rank(int(order[p-1])) {
			return nil
		}
		pos[i] = int32(p)
	}
	return &rowTable{st: st, inputs: inputs, pos: pos}
}

// size is the bytes of a row.
func (t *rowTable) size() int { return rowHead + 8*(len(t.regions)+len(t.extra)) }

// end is the offset just past the table.
func (t *rowTable) end() int64 { return t.base + int64(t.n)*int64(t.size()) }

// row returns *buf sized for one row of t with nValues values, its head
// filled in and its values zero.
func row(buf *[]byte, nValues, rank, input int, total uint64, flags byte) []byte {
	n := rowHead + 8*nValues
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	clear(b)
	binary.LittleEndian.PutUint64(b, uint64(rank))
	binary.LittleEndian.PutUint32(b[8:], uint32(input))
	binary.LittleEndian.PutUint64(b[12:], total)
	b[20] = flags
	return b
}

// putValue sets value j of row b.
func putValue(b []byte, j int, v uint64) { binary.LittleEndian.PutUint64(b[rowHead+8*j:], v) }

// value returns value j of row b.
func value(b []byte, j int) uint64 { return binary.LittleEndian.Uint64(b[rowHead+8*j:]) }

// write stores rows b (whole rows of t) from row p on.
func (t *rowTable) write(b []byte, p int) error {
	if _, err := t.st.WriteAt(b, t.base+int64(p)*int64(t.size())); err != nil {
		return fmt.Errorf("writing the row of rank %d to the spill store: %w", rankOf(b), err)
	}
	return nil
}

// rankOf is the rank number of row b.
func rankOf(b []byte) int { return int(binary.LittleEndian.Uint64(b)) }

// read fills b with whole rows of t from row p on.
func (t *rowTable) read(b []byte, p int) error {
	if err := readAtFull(t.st, b, t.base+int64(p)*int64(t.size())); err != nil {
		return fmt.Errorf("reading the rows of ranks at %d to %d back from the spill store: %w", p, p+len(b)/t.size()-1, err)
	}
	return nil
}

// readAtFull fills b from r at off: io.ReaderAt may report io.EOF with
// the last bytes of a file, which is no failure when b is full.
func readAtFull(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) && errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// writeRank stores the row of the rank read from inputs[input], with its
// time in each region of t.regions given by regionTime.
func (t *rowTable) writeRank(buf *[]byte, rank, input int, total uint64, truncated bool, regionTime func(r int32) uint64) error {
	flags := byte(0)
	if truncated {
		flags = rowTruncated
	}
	b := row(buf, len(t.regions), rank, input, total, flags)
	for j, r := range t.regions {
		putValue(b, j, regionTime(r))
	}
	return t.write(b, int(t.pos[input]))
}

// rankReader reads a summary's ranks by position: from its Ranks, or, for
// a summary whose ranks are rows of a table, through a window of rows read
// at once, each row seen as a lean RankInfo of the window's own store.
type rankReader struct {
	s     *Summary
	lo, n int // the window holds the rows [lo, lo+n)
	infos []RankInfo
	more  []rankMore
	store *keptStore
	buf   []byte
}

// reader returns a reader of s's ranks.
func (s *Summary) reader() *rankReader { return &rankReader{s: s} }

// at returns the rank at position p (0 <= p < P), valid until the next
// call.
func (r *rankReader) at(p int) (*RankInfo, error) {
	t := r.s.rows
	if t == nil {
		return &r.s.Ranks[p], nil
	}
	if p < r.lo || p >= r.lo+r.n {
		if err := r.load(t, p); err != nil {
			return nil, err
		}
	}
	return &r.infos[p-r.lo], nil
}

// wideColumn is a column of windowRows values, 8 bytes each.
func wideColumn() column {
	return column{width: 8, chunks: [][]byte{make([]byte, 8*windowRows)}}
}

// load reads the window of rows from p on.
func (r *rankReader) load(t *rowTable, p int) error {
	size := t.size()
	n := min(windowRows, t.n-p)
	r.n = 0
	if cap(r.buf) < n*size {
		r.buf = make([]byte, windowRows*size)
	}
	buf := r.buf[:n*size]
	if err := t.read(buf, p); err != nil {
		return err
	}
	k := r.store
	if k == nil || len(k.values) != len(t.regions) {
		k = &keptStore{inputs: t.inputs, regions: t.regions, hasRegions: true, input: wideColumn(), total: wideColumn(),
			values: make([]column, len(t.regions))}
		for j := range k.values {
			k.values[j] = wideColumn()
		}
		r.store, r.infos, r.more = k, make([]RankInfo, windowRows), make([]rankMore, windowRows)
	}
	k.regions, k.n = t.regions, n
	for i := range n {
		b := buf[i*size : (i+1)*size]
		k.input.put(i, uint64(binary.LittleEndian.Uint32(b[8:])))
		k.total.put(i, binary.LittleEndian.Uint64(b[12:]))
		for j := range t.regions {
			k.values[j].put(i, value(b, j))
		}
		ri := RankInfo{Rank: rankOf(b), Truncated: b[20]&rowTruncated != 0, kept: k, row: int32(i)}
		if b[20]&rowFilled != 0 {
			m := &r.more[i]
			m.top = m.top[:0]
			for j, reg := range t.extra {
				m.top = append(m.top, RegionValue{reg, value(b, len(t.regions)+j)})
			}
			ri.more = m
		}
		r.infos[i] = ri
	}
	r.lo, r.n = p, n
	return nil
}

// unspill brings a summary's ranks back into memory, as the lean records
// Collect makes without a Spill (and FillRanks completes), for what needs
// them there: saving, merging with another summary, a second FillRanks.
func (s *Summary) unspill() error {
	t := s.rows
	if t == nil {
		return nil
	}
	rd := s.reader()
	k := &keptStore{inputs: t.inputs}
	k.setRegions(t.regions)
	out := make([]RankInfo, 0, t.n)
	for p := range t.n {
		src, err := rd.at(p)
		if err != nil {
			return err
		}
		ri := RankInfo{Rank: src.Rank, Truncated: src.Truncated, kept: k}
		ri.row = k.add(int(src.kept.input.get(int(src.row))), src.Total())
		for j := range t.regions {
			k.values[j].set(int(ri.row), k.n, src.kept.values[j].get(int(src.row)))
		}
		for _, rv := range src.Top() {
			ri.set(int(rv.Region), rv.Value)
		}
		out = append(out, ri)
	}
	s.Ranks, s.rows, s.spilled = out, nil, 0
	return nil
}

// rowCopier writes a table's rows again into another with more extra
// regions, in order, a window at a time.
type rowCopier struct {
	from, to *rowTable
	next     int    // the next row to copy
	in       []byte // rows of from, [inLo, inLo+inN)
	inLo     int
	inN      int
	out      []byte // rows of to not yet written, from outLo on
	outLo    int
	buf      []byte
}

// copyTo copies the rows before p as they are (their extra regions not
// filled in).
func (c *rowCopier) copyTo(p int) error {
	for c.next < p {
		b, err := c.fromRow(c.next)
		if err != nil {
			return err
		}
		if err := c.put(b); err != nil {
			return err
		}
	}
	return nil
}

// fill copies row p with its time in the regions (to.extra) given by
// regionTime.
func (c *rowCopier) fill(p int, regionTime func(r int32) uint64) error {
	if err := c.copyTo(p); err != nil {
		return err
	}
	old, err := c.fromRow(p)
	if err != nil {
		return err
	}
	b := row(&c.buf, len(c.to.regions)+len(c.to.extra), 0, 0, 0, 0)
	copy(b, old)
	b[20] |= rowFilled
	for j, r := range c.to.extra {
		putValue(b, len(c.to.regions)+j, regionTime(r))
	}
	return c.put(b)
}

// fromRow returns row p of from, reading a window of rows when needed.
func (c *rowCopier) fromRow(p int) ([]byte, error) {
	size := c.from.size()
	if p < c.inLo || p >= c.inLo+c.inN {
		n := min(windowRows, c.from.n-p)
		if cap(c.in) < n*size {
			c.in = make([]byte, windowRows*size)
		}
		c.in, c.inN = c.in[:n*size], 0
		if err := c.from.read(c.in, p); err != nil {
			return nil, err
		}
		c.inLo, c.inN = p, n
	}
	i := p - c.inLo
	return c.in[i*size : (i+1)*size], nil
}

// put appends the next row of to, b with zeros for the values it lacks,
// writing a window of rows when it is full.
func (c *rowCopier) put(b []byte) error {
	if len(c.out) == 0 {
		c.outLo = c.next
	}
	c.out = append(c.out, b...)
	for range c.to.size() - len(b) {
		c.out = append(c.out, 0)
	}
	c.next++
	if len(c.out) >= windowRows*c.to.size() {
		return c.flush()
	}
	return nil
}

// flush writes the rows put and not yet written.
func (c *rowCopier) flush() error {
	if len(c.out) == 0 {
		return nil
	}
	err := c.to.write(c.out, c.outLo)
	c.out = c.out[:0]
	return err
}

// pointTable holds the points of the clustering of ranks in a Spill (see
// rankPoints), after the rows: each rank's time in the regions clustered,
// 8 bytes each, read back a window at a time.
type pointTable struct {
	st     Spill
	base   int64
	n, dim int
	buf    []byte // the points [lo, lo+inBuf)
	lo     int
	inBuf  int
}

// pointWindow is the number of points read at once.
const pointWindow = 4 * windowRows

// write stores points b (whole points) from point p on.
func (pt *pointTable) write(b []byte, p int) error {
	if _, err := pt.st.WriteAt(b, pt.base+int64(p)*int64(8*pt.dim)); err != nil {
		return fmt.Errorf("writing the ranks' points to cluster to the spill store: %w", err)
	}
	return nil
}

// at returns point p's values.
func (pt *pointTable) at(p int) ([]byte, error) {
	size := 8 * pt.dim
	if p < pt.lo || p >= pt.lo+pt.inBuf {
		n := min(pointWindow, pt.n-p)
		if cap(pt.buf) < n*size {
			pt.buf = make([]byte, pointWindow*size)
		}
		pt.buf, pt.inBuf = pt.buf[:n*size], 0
		if err := readAtFull(pt.st, pt.buf, pt.base+int64(p)*int64(size)); err != nil {
			return nil, fmt.Errorf("reading the ranks' points to cluster back from the spill store: %w", err)
		}
		pt.lo, pt.inBuf = p, n
	}
	i := p - pt.lo
	return pt.buf[i*size : (i+1)*size], nil
}
