package bfd

import (
	"cmp"
	"slices"
	"strings"
)

// row is one line-table row.
type row struct {
	addr    uint64
	file    int32 // index into lineTable.names, -1 for none
	line    uint32
	opIndex uint8
	end     bool
}

// tableRow is a row of a finished table: what a lookup needs of it. The
// file of an end-of-sequence row is never reported, so such a row has
// endOfSequence instead (a row is 16 bytes instead of 24).
type tableRow struct {
	addr uint64
	file int32
	line uint32
}

// endOfSequence is the file of a tableRow that ends its sequence.
const endOfSequence = -2

// sequence is a sorted, trimmed sequence of rows; its range is
// [low, rows[len-1].addr).
type sequence struct {
	low  uint64
	rows []tableRow
}

// lineTable is a decoded line table. nfiles and use0 are kept to judge file
// numbers of DIEs (BFD builds their names, which may fail).
type lineTable struct {
	names  []string
	seqs   []sequence
	nfiles int
	use0   bool
}

// checkFile records BFD's message for a DW_AT_decl_file or DW_AT_call_file
// naming a file the line table does not have.
func (s *Lines) checkFile(tab *lineTable, n uint64) {
	if !fileNumberOK(tab, n) {
		s.warnf("mangled line number section (bad file number)")
	}
}

// fileNumberOK reports whether BFD takes file number n of a DIE without a
// message: 0 before DWARF 5 (no file), else an entry of the line table.
func fileNumberOK(tab *lineTable, n uint64) bool {
	f := uint32(n)
	if !tab.use0 {
		if f == 0 {
			return true
		}
		f--
	}
	return uint64(f) < uint64(tab.nfiles)
}

// fileEntry is a file of a line table's header.
type fileEntry struct {
	name optString
	dir  uint32
}

// lineNode is a row while a table is being built; rows of a sequence are
// chained from the highest address down through prev. Its fields are a
// row's, laid out in 24 bytes (a single large unit has hundreds of
// thousands of rows).
type lineNode struct {
	addr    uint64
	file    int32
	line    uint32
	prev    int32
	opIndex uint8
	end     bool
}

// buildSeq is a sequence while the table is being built. Most sequences
// arrive in address order and are kept flat: their rows are
// tableBuilder.rows[start:end], already in their final form. A sequence
// that gets a row below its top becomes chained: its rows move to
// tableBuilder.nodes and last is its top node.
type buildSeq struct {
	low        uint64
	last       int32
	start, end int32
	chained    bool
}

// tableBuilder accumulates a line table the way BFD's add_line_info does.
type tableBuilder struct {
	s       *Lines // for messages; may be nil
	compDir optString
	use0    bool // DWARF 5: directory and file entry 0 are real
	dirs    []optString
	files   []fileEntry
	names   []string
	nameIdx map[string]int32
	// fileIdx caches concat's answer for each file number that names an
	// entry (numbers that do not are reported every time); -2 is unknown.
	fileIdx []int32
	// flat allows flat sequences; it needs every op_index to be 0 (one
	// operation per instruction), as a tableRow has none.
	flat  bool
	rows  []tableRow
	nodes []lineNode
	seqs  []buildSeq
	// lclHead is BFD's lcl_head, a node of the chained rows. While the
	// current sequence is flat it is that sequence's first row, and -1
	// stands for it (see chain).
	lclHead int32
}

// concat builds the name of file entry n (concat_filename) and returns its
// index in the table's name list.
func (t *tableBuilder) concat(n uint32) int32 {
	if n < uint32(len(t.fileIdx)) && t.fileIdx[n] != -2 {
		return t.fileIdx[n]
	}
	i := t.intern(t.fileName(n))
	// An entry's name never changes once it exists (DW_LNE_define_file
	// only adds entries), so the answer can be kept for valid numbers.
	k := n
	if !t.use0 {
		k--
	}
	if (t.use0 || n > 0) && uint64(k) < uint64(len(t.files)) && n < 1<<16 {
		for uint32(len(t.fileIdx)) <= n {
			t.fileIdx = append(t.fileIdx, -2)
		}
		t.fileIdx[n] = i
	}
	return i
}

// fileName is concat_filename: the name of file entry n joined to its
// directory and the compilation directory, without any cleaning.
func (t *tableBuilder) fileName(n uint32) string {
	const unknown = "<unknown>"
	if !t.use0 {
		if n == 0 {
			return unknown
		}
		n--
	}
	if uint64(n) >= uint64(len(t.files)) {
		if t.s != nil {
			t.s.warnf("mangled line number section (bad file number)")
		}
		return unknown
	}
	fe := t.files[n]
	if !fe.name.ok() {
		return unknown
	}
	name := fe.name.text()
	if strings.HasPrefix(name, "/") {
		return name
	}
	dir := fe.dir
	if !t.use0 {
		dir-- // entry 0 wraps to a value past every directory
	}
	var sub, base optString
	if uint64(dir) < uint64(len(t.dirs)) {
		sub = t.dirs[dir]
	}
	if !sub.ok() || !strings.HasPrefix(sub.text(), "/") {
		base = t.compDir
	}
	if !base.ok() {
		base, sub = sub, optString{}
	}
	if !base.ok() {
		return name
	}
	if sub.ok() {
		return base.text() + "/" + sub.text() + "/" + name
	}
	return base.text() + "/" + name
}

func (t *tableBuilder) intern(name string) int32 {
	if name == "" {
		return -1
	}
	if i, ok := t.nameIdx[name]; ok {
		return i
	}
	// The answers return these names: they are copied out of the
	// sections (see optString.closed).
	name = strings.Clone(name)
	i := int32(len(t.names))
	t.names = append(t.names, name)
	t.nameIdx[name] = i
	return i
}

// sortsAfter reports whether row a belongs above row b in a sequence.
func (t *tableBuilder) sortsAfter(a, b int32) bool {
	x, y := &t.nodes[a], &t.nodes[b]
	return x.addr > y.addr || (x.addr == y.addr && x.opIndex > y.opIndex)
}

// add appends a row to the current sequence, keeping the chain sorted and
// replacing a previous row with the same address, op_index and
// end_sequence flag (add_line_info).
func (t *tableBuilder) add(r row) {
	if t.flat && t.addFlat(r) {
		return
	}
	t.addChained(r)
}

// addAbove adds a row that is not the end of its sequence when it goes
// above the top row of a flat sequence that has not ended, the commonest
// case by far, and reports whether it did; add handles every other case.
func (t *tableBuilder) addAbove(addr uint64, file int32, line uint32) bool {
	if n := len(t.seqs); n > 0 && !t.seqs[n-1].chained {
		if top := t.rows[len(t.rows)-1]; top.addr < addr && top.file != endOfSequence {
			t.rows = append(t.rows, tableRow{addr: addr, file: file, line: line})
			t.seqs[n-1].end++
			return true
		}
	}
	return false
}

// replaceTop replaces the top row of a flat sequence that has not ended
// with a row of the same address that is not the end of its sequence, as
// addFlat would, and reports whether it did. It is the second commonest
// case of an optimised program's line program (several rows at one
// address, one for each inlined call or view), tried where addAbove
// fails: through add, it took 150 of runLineProgram's 890 ms of samples
// on lua (gcc -O2), whose -b run takes 0.98x the CPU with it. It is
// kept apart from addAbove so that both stay small enough to be inlined
// (together they were not).
func (t *tableBuilder) replaceTop(addr uint64, file int32, line uint32) bool {
	if n := len(t.seqs); n > 0 && !t.seqs[n-1].chained {
		if top := &t.rows[len(t.rows)-1]; top.addr == addr && top.file != endOfSequence {
			top.file, top.line = file, line
			return true
		}
	}
	return false
}

// addFlat is add for the cases that keep the current sequence flat: a
// new sequence, a row above the top one, a row replacing the top one. It
// reports false, changing nothing, for a row that goes below the top.
func (t *tableBuilder) addFlat(r row) bool {
	file := r.file
	if r.end {
		file = endOfSequence
	}
	var seq *buildSeq
	if len(t.seqs) > 0 {
		seq = &t.seqs[len(t.seqs)-1]
	}
	if seq != nil && seq.chained {
		// The cases of addChained, in its order: a row replacing the
		// top one stays in the chain; after the end a flat sequence
		// starts.
		top := &t.nodes[seq.last]
		if !top.end || (top.addr == r.addr && top.opIndex == r.opIndex && r.end) {
			return false
		}
		seq = nil
	}
	if seq != nil {
		top := &t.rows[seq.end-1]
		topEnd := top.file == endOfSequence
		switch {
		case top.addr == r.addr && topEnd == r.end:
			*top = tableRow{addr: r.addr, file: file, line: r.line}
			return true
		case topEnd:
			seq = nil
		case r.end || r.addr > top.addr:
			t.rows = append(t.rows, tableRow{addr: r.addr, file: file, line: r.line})
			seq.end++
			return true
		default:
			return false
		}
	}
	n := int32(len(t.rows))
	t.rows = append(t.rows, tableRow{addr: r.addr, file: file, line: r.line})
	t.seqs = append(t.seqs, buildSeq{low: r.addr, last: -1, start: n, end: n + 1})
	t.lclHead = -1
	return true
}

// chain moves the rows of the current sequence, if flat, to the chained
// nodes, bottom first, and points lclHead at its first row.
func (t *tableBuilder) chain() {
	if len(t.seqs) == 0 {
		return
	}
	seq := &t.seqs[len(t.seqs)-1]
	if seq.chained {
		return
	}
	prev := int32(-1)
	for _, r := range t.rows[seq.start:seq.end] {
		info := int32(len(t.nodes))
		t.nodes = append(t.nodes, lineNode{addr: r.addr, file: r.file, line: r.line, prev: prev, end: r.file == endOfSequence})
		if prev < 0 {
			t.lclHead = info
		}
		prev = info
	}
	seq.last, seq.chained = prev, true
	t.rows = t.rows[:seq.start]
}

// addChained is add_line_info on the chained rows.
func (t *tableBuilder) addChained(r row) {
	t.chain()
	info := int32(len(t.nodes))
	// The node is filled field by field: building it whole and copying it
	// in made the processor wait for its own small stores (a third of
	// add's time).
	t.nodes = append(t.nodes, lineNode{})
	n := t.nodes
	nd := &n[info]
	nd.addr, nd.file, nd.line, nd.opIndex, nd.end, nd.prev = r.addr, r.file, r.line, r.opIndex, r.end, -1
	var seq *buildSeq
	if len(t.seqs) > 0 {
		seq = &t.seqs[len(t.seqs)-1]
	}
	switch {
	case seq != nil && n[seq.last].addr == r.addr && n[seq.last].opIndex == r.opIndex && n[seq.last].end == r.end:
		if t.lclHead == seq.last {
			t.lclHead = info
		}
		n[info].prev = n[seq.last].prev
		seq.last = info
	case seq == nil || n[seq.last].end:
		t.seqs = append(t.seqs, buildSeq{low: r.addr, last: info, chained: true})
		t.lclHead = info
	case r.end || t.sortsAfter(info, seq.last):
		n[info].prev = seq.last
		seq.last = info
		if t.lclHead < 0 {
			t.lclHead = info
		}
	case t.lclHead >= 0 && !t.sortsAfter(info, t.lclHead) &&
		(n[t.lclHead].prev < 0 || t.sortsAfter(info, n[t.lclHead].prev)):
		n[info].prev = n[t.lclHead].prev
		n[t.lclHead].prev = info
	default:
		li2 := seq.last
		li1 := n[li2].prev
		for li1 >= 0 {
			if !t.sortsAfter(info, li2) && t.sortsAfter(info, li1) {
				break
			}
			li2 = li1
			li1 = n[li1].prev
		}
		t.lclHead = li2
		n[info].prev = n[li2].prev
		n[li2].prev = info
		if r.addr < seq.low {
			seq.low = r.addr
		}
	}
}

// top returns the address and op_index of a sequence's top row.
func (t *tableBuilder) top(s *buildSeq) (uint64, uint8) {
	if !s.chained {
		return t.rows[s.end-1].addr, 0
	}
	nd := &t.nodes[s.last]
	return nd.addr, nd.opIndex
}

// finish sorts the sequences, drops nested ones and trims overlapping ones
// (sort_line_sequences), and gives each kept sequence its rows: a flat
// sequence's where they are, a chained one's flattened into an array.
func (t *tableBuilder) finish() *lineTable {
	type sortSeq struct {
		low, high uint64
		highOp    uint8
		seq       int32
		idx       int
	}
	k := len(t.seqs)
	arr := make([]sortSeq, k)
	for i := range arr {
		// BFD's list is newest first; the position breaks ties.
		s := &t.seqs[k-1-i]
		high, op := t.top(s)
		arr[i] = sortSeq{low: s.low, high: high, highOp: op, seq: int32(k - 1 - i), idx: i}
	}
	slices.SortFunc(arr, func(a, b sortSeq) int {
		if a.low != b.low {
			return cmp.Compare(a.low, b.low)
		}
		if a.high != b.high {
			return cmp.Compare(b.high, a.high)
		}
		if a.highOp != b.highOp {
			return cmp.Compare(b.highOp, a.highOp)
		}
		return cmp.Compare(a.idx, b.idx)
	})
	kept := arr[:0]
	if k > 0 {
		kept = arr[:1]
		lastHigh := arr[0].high
		for i := 1; i < k; i++ {
			cur := arr[i]
			if cur.low < lastHigh {
				if cur.high <= lastHigh {
					continue // nested
				}
				cur.low = lastHigh
			}
			lastHigh = cur.high
			kept = append(kept, cur)
		}
	}
	tab := &lineTable{names: t.names, seqs: make([]sequence, len(kept)), nfiles: len(t.files), use0: t.use0}
	n := t.nodes
	total := 0
	counts := make([]int, len(kept))
	for i, ks := range kept {
		if s := &t.seqs[ks.seq]; s.chained {
			for e := s.last; e >= 0; e = n[e].prev {
				counts[i]++
			}
			total += counts[i]
		}
	}
	var all []tableRow
	if total > 0 {
		all = make([]tableRow, total)
	}
	for i, ks := range kept {
		s := &t.seqs[ks.seq]
		if !s.chained {
			tab.seqs[i] = sequence{low: ks.low, rows: t.rows[s.start:s.end:s.end]}
			continue
		}
		rows := all[:counts[i]:counts[i]]
		all = all[counts[i]:]
		count := len(rows)
		for e := s.last; e >= 0; e = n[e].prev {
			count--
			r := &n[e]
			file := r.file
			if r.end {
				file = endOfSequence
			}
			rows[count] = tableRow{addr: r.addr, file: file, line: r.line}
		}
		tab.seqs[i] = sequence{low: ks.low, rows: rows}
	}
	return tab
}

// lookup finds the row holding addr with BFD's two binary searches
// (lookup_address_in_line_info_table); end of sequence rows and the last
// row of a sequence never match.
func (tab *lineTable) lookup(addr uint64) (file int32, line uint32, ok bool) {
	var seq *sequence
	low, high := 0, len(tab.seqs)
	for low < high {
		mid := (low + high) / 2
		seq = &tab.seqs[mid]
		if addr < seq.low {
			high = mid
		} else if addr >= seq.rows[len(seq.rows)-1].addr {
			low = mid + 1
		} else {
			break
		}
	}
	if seq == nil || addr < seq.low || addr >= seq.rows[len(seq.rows)-1].addr {
		return -1, 0, false
	}
	rows := seq.rows
	var info *tableRow
	mid := 0
	low, high = 0, len(rows)
	for low < high {
		mid = (low + high) / 2
		info = &rows[mid]
		if addr < info.addr {
			high = mid
		} else if mid+1 < len(rows) && addr >= rows[mid+1].addr {
			low = mid + 1
		} else {
			break
		}
	}
	if info != nil && mid+1 < len(rows) && addr >= info.addr && addr < rows[mid+1].addr && info.file != endOfSequence {
		return info.file, info.line, true
	}
	return -1, 0, false
}

// lineHeader is the part of a line table's header that drives its
// program.
type lineHeader struct {
	minInsn    int
	maxOps     int
	lineBase   int32
	lineRange  int
	opcodeBase int
	lengths    []int // operand counts of the standard opcodes
}

// decodeLineInfo decodes the line table of unit u (decode_line_info). The
// range of every completed sequence is added to the unit as it is met.
func (s *Lines) decodeLineInfo(u *unit) *lineTable {
	if u.lineOffset == 0 && s.lineTable0 != nil {
		return s.lineTable0
	}
	if !s.readable(&s.line, u.lineOffset) {
		return nil
	}
	if len(s.line.data) < 16 {
		s.warnf("line info section is too small (%d)", len(s.line.data))
		return nil
	}
	b := s.cursor(&s.line, int(u.lineOffset), len(s.line.data))
	// Chained rows are built in a buffer shared by all units: finish
	// copies them out.
	t := &tableBuilder{s: s, compDir: u.compDir, nameIdx: map[string]int32{}, lclHead: -1, nodes: s.nodeBuf[:0]}
	h, ok := s.readLineHeader(u, &b, t)
	// The rows of flat sequences become the table's. A row takes at
	// least one byte of the program and usually three or four: reserving
	// for one row in three bytes spares most of the copying of an array
	// grown row by row (a single large unit, such as an amalgamation, has
	// hundreds of thousands of rows). The size is bounded by the
	// section's.
	if ok && h.maxOps == 1 {
		t.flat = true
		t.rows = make([]tableRow, 0, b.remaining()/3+1)
	}
	if !ok || !s.runLineProgram(u, &b, h, t) {
		s.nodeBuf = t.nodes[:0]
		return nil
	}
	tab := t.finish()
	s.nodeBuf = t.nodes[:0]
	if u.lineOffset == 0 {
		s.lineTable0 = tab
	}
	return tab
}

// readLineHeader reads a line table's header up to its program: on return
// b covers the program, and t holds the directories and files.
func (s *Lines) readLineHeader(u *unit, b *buf, t *tableBuilder) (lineHeader, bool) {
	var h lineHeader
	total := b.u32()
	offsetSize := 4
	if total == 0xffffffff {
		total = b.u64()
		offsetSize = 8
	} else if total == 0 && u.addrSize == 8 {
		total = b.u32()
		offsetSize = 8
	}
	if total > uint64(b.remaining()) {
		s.warnf("line info data is bigger (%s) than the space remaining in the section (%s)", hexC(total), hexC(uint64(b.remaining())))
		return h, false
	}
	b.end = b.off + int(total)
	version := b.u16()
	if version < 2 || version > 5 {
		s.warnf("unhandled .debug_line version %d", version)
		return h, false
	}
	need := offsetSize + 5
	if version >= 5 {
		need = offsetSize + 8
	} else if version >= 4 {
		need = offsetSize + 6
	}
	if b.off+need >= b.end {
		s.warnf("ran out of room reading prologue")
		return h, false
	}
	if version >= 5 {
		b.u8() // address size
		if seg := b.u8(); seg != 0 {
			s.warnf("line info unsupported segment selector size %d", seg)
			return h, false
		}
	}
	b.uint(offsetSize) // header length
	h.minInsn = int(b.u8())
	h.maxOps = 1
	if version >= 4 {
		h.maxOps = int(b.u8())
	}
	if h.maxOps == 0 {
		s.warnf("invalid maximum operations per instruction")
		return h, false
	}
	b.u8() // default_is_stmt
	h.lineBase = int32(int8(b.u8()))
	h.lineRange = int(b.u8())
	h.opcodeBase = int(b.u8())
	if b.off+h.opcodeBase-1 >= b.end {
		s.warnf("ran out of room reading opcodes")
		return h, false
	}
	h.lengths = make([]int, max(h.opcodeBase, 1))
	h.lengths[0] = 1
	for i := 1; i < h.opcodeBase; i++ {
		h.lengths[i] = int(b.u8())
	}

	if version >= 5 {
		if !s.readEntryFormats(u, b, func(name optString, dir uint32) { t.dirs = append(t.dirs, name) }) {
			return h, false
		}
		if !s.readEntryFormats(u, b, func(name optString, dir uint32) {
			t.files = append(t.files, fileEntry{name: name, dir: dir})
		}) {
			return h, false
		}
		t.use0 = true
		return h, true
	}
	for {
		d := b.cstring()
		if !d.ok() {
			break
		}
		t.dirs = append(t.dirs, d)
	}
	for {
		f := b.cstring()
		if !f.ok() {
			break
		}
		dir := uint32(b.uleb())
		b.uleb()
		b.uleb()
		t.files = append(t.files, fileEntry{name: f, dir: dir})
	}
	return h, true
}

// runLineProgram runs a line number program into t; false means BFD gave
// up on the table.
func (s *Lines) runLineProgram(u *unit, b *buf, h lineHeader, t *tableBuilder) bool {
	minInsn, maxOps, lineRange, opcodeBase := h.minInsn, h.maxOps, h.lineRange, h.opcodeBase
	for !b.atEnd() {
		var address uint64
		var opIndex int
		file := int32(-1)
		line := uint32(1)
		endSeq := false
		lowPC, highPC := ^uint64(0), uint64(0)
		if len(t.files) > 0 {
			if t.use0 {
				file = t.concat(0)
			} else {
				file = t.concat(1)
			}
		}
		// Each row is added where it is made (three places) rather than
		// by a closure, which would keep the registers in memory.
		for !endSeq && !b.atEnd() {
			if maxOps == 1 && lineRange != 0 {
				// Special opcodes, most of a program, are decoded from
				// copies of the cursor kept in registers (the cursor's
				// fields are otherwise read and written in memory at
				// every byte). A cursor that has failed is at its end.
				// The standard opcodes compilers emit between them
				// (copy, line and column changes, is_stmt) are
				// decoded here too when their operand is one byte;
				// anything else goes to the switch below, from the
				// opcode on.
				data, off, end := b.data, b.off, b.end
			fast:
				for off < end {
					op := int(data[off])
					if op >= opcodeBase {
						off++
						adj := op - opcodeBase
						q := adj / lineRange
						address += uint64(q * minInsn)
						line += uint32(h.lineBase + int32(adj-q*lineRange))
					} else {
						var arg byte
						if off+1 < end {
							arg = data[off+1]
						}
						switch {
						case op == 1: // DW_LNS_copy
							off++
						case op == 6 || op == 7: // DW_LNS_negate_stmt, DW_LNS_set_basic_block
							off++
							continue
						case op == 5 && off+1 < end && arg < 0x80: // DW_LNS_set_column
							off += 2
							continue
						case op == 3 && off+1 < end && arg < 0x80: // DW_LNS_advance_line
							v := int32(arg)
							if arg&0x40 != 0 {
								v -= 0x80
							}
							line += uint32(v)
							off += 2
							continue
						case op == 2 && off+1 < end && arg < 0x80: // DW_LNS_advance_pc
							address += uint64(minInsn) * uint64(arg)
							off += 2
							continue
						default:
							break fast
						}
					}
					if !t.addAbove(address, file, line) && !t.replaceTop(address, file, line) {
						t.add(row{addr: address, file: file, line: line})
					}
					lowPC, highPC = min(lowPC, address), max(highPC, address)
				}
				b.off = off
				if off >= end {
					break
				}
			}
			op := int(b.u8())
			if op >= opcodeBase {
				adj := op - opcodeBase
				if lineRange == 0 {
					return false
				}
				q := adj / lineRange // one division for both parts
				if maxOps == 1 {
					address += uint64(q * minInsn)
				} else {
					address += uint64((opIndex + q) / maxOps * minInsn)
					opIndex = (opIndex + q) % maxOps
				}
				line += uint32(h.lineBase + int32(adj-q*lineRange))
				t.add(row{addr: address, file: file, line: line, opIndex: uint8(opIndex)})
				lowPC, highPC = min(lowPC, address), max(highPC, address)
				continue
			}
			switch op {
			case 0: // extended opcode
				exLen := uint32(b.uleb())
				switch b.u8() {
				case 1: // DW_LNE_end_sequence
					endSeq = true
					t.add(row{addr: address, file: file, line: line, opIndex: uint8(opIndex), end: true})
					lowPC, highPC = min(lowPC, address), max(highPC, address)
					s.arangeAdd(u, &u.arange, lowPC, highPC)
				case 2: // DW_LNE_set_address
					address = u.readAddress(b)
					opIndex = 0
				case 3: // DW_LNE_define_file
					name := b.cstring()
					dir := uint32(b.uleb())
					b.uleb()
					b.uleb()
					t.files = append(t.files, fileEntry{name: name, dir: dir})
				case 4: // DW_LNE_set_discriminator
					b.uleb()
				case 0x80: // DW_LNE_HP_source_file_correlation
					b.skip(min(uint64(exLen-1), uint64(b.remaining())))
				default:
					s.warnf("mangled line number section")
					return false
				}
			case 1: // DW_LNS_copy
				t.add(row{addr: address, file: file, line: line, opIndex: uint8(opIndex)})
				lowPC, highPC = min(lowPC, address), max(highPC, address)
			case 2: // DW_LNS_advance_pc
				adv := b.uleb()
				if maxOps == 1 {
					address += uint64(minInsn) * adv
				} else {
					// BFD assigns rather than adds here.
					address = (uint64(opIndex) + adv) / uint64(maxOps) * uint64(minInsn)
					opIndex = int((uint64(opIndex) + adv) % uint64(maxOps))
				}
			case 3: // DW_LNS_advance_line
				line += uint32(b.sleb())
			case 4: // DW_LNS_set_file
				file = t.concat(uint32(b.uleb()))
			case 5: // DW_LNS_set_column
				b.uleb()
			case 6, 7: // DW_LNS_negate_stmt, DW_LNS_set_basic_block
			case 8: // DW_LNS_const_add_pc
				if lineRange == 0 {
					return false
				}
				adj := (255 - opcodeBase) / lineRange
				if maxOps == 1 {
					address += uint64(minInsn * adj)
				} else {
					address += uint64(minInsn) * uint64((opIndex+adj)/maxOps)
					opIndex = (opIndex + adj) % maxOps
				}
			case 9: // DW_LNS_fixed_advance_pc
				address += b.u16()
				opIndex = 0
			default:
				for i := 0; i < h.lengths[op]; i++ {
					b.uleb()
				}
			}
		}
	}
	return true
}

// readEntryFormats reads a DWARF 5 directory or file name table and calls
// add for every entry (read_formatted_entries). Only the forms BFD stores
// are used: names from DW_FORM_string, line_strp and strx*, directory
// indexes from DW_FORM_data1-8 and udata.
func (s *Lines) readEntryFormats(u *unit, b *buf, add func(name optString, dir uint32)) bool {
	formatCount := int(b.u8())
	formats := *b // a second cursor over the format descriptions
	for i := 0; i < formatCount; i++ {
		b.uleb()
		b.uleb()
	}
	count := b.uleb()
	if formatCount == 0 && count != 0 {
		s.warnf("zero format count")
		return false
	}
	if count > uint64(b.remaining()) {
		s.warnf("data count (%x) larger than buffer size", count)
		return false
	}
	for n := uint64(0); n < count; n++ {
		fp := formats
		var name optString
		var dir uint32
		for i := 0; i < formatCount; i++ {
			content := fp.uleb()
			switch content {
			case lnctPath, lnctDirIndex, lnctTime, lnctSize, lnctMD5:
			default:
				s.warnf("unknown format content type %d", content)
				return false
			}
			form := uint32(fp.uleb())
			var a attr
			if !s.readAttrValue(u, form, 0, b, &a) {
				return false
			}
			switch form {
			case formString, formLineStrp, formStrx, formStrx1, formStrx2, formStrx3, formStrx4:
				if content == lnctPath {
					name = a.str
				}
			case formData1, formData2, formData4, formData8, formUdata:
				if content == lnctDirIndex {
					dir = uint32(a.val)
				}
			}
		}
		add(name, dir)
	}
	return true
}
