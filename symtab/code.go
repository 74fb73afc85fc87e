package symtab

import "os"

// CodeBefore returns, for each of addrs, the n bytes of .text that end just
// before it (nil where they do not all lie in .text), read from the
// mapping of the executable the debug sections use when Load made one,
// else from the executable's file, opened again (the table keeps no code;
// a file of debug information alone has none, and gives only nils). It
// returns nil and the error when the file cannot be opened: the table may
// have been loaded from a name that no longer reads the same.
func (t *Table) CodeBefore(addrs []uint64, n int) ([][]byte, error) {
	off, ok := t.TextFileOffset()
	if !ok || !t.textHasCode {
		return make([][]byte, len(addrs)), nil
	}
	// where is the file offset of the n bytes before a, if they lie in .text.
	where := func(a uint64) (int64, bool) {
		if a < t.TextLow+uint64(n) || a > t.TextEnd+1 {
			return 0, false
		}
		return int64(off + (a - uint64(n) - t.TextLow)), true
	}
	if t.lines != nil && !t.linesElsewhere {
		// A separate debug file's mapping holds none of this file's code.
		if out, all := readCode(addrs, n, where, t.lines.ReadMapped); all {
			return out, nil
		}
	}
	file, err := os.Open(t.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	out, _ := readCode(addrs, n, where, func(pos int64, b []byte) bool {
		_, err := file.ReadAt(b, pos)
		return err == nil
	})
	return out, nil
}

// readCode reads the n bytes before each of addrs that where places in
// the file, with read; all is false when a read failed (its entry stays
// nil, as do those where places nowhere).
func readCode(addrs []uint64, n int, where func(uint64) (int64, bool), read func(int64, []byte) bool) (out [][]byte, all bool) {
	out, all = make([][]byte, len(addrs)), true
	for i, a := range addrs {
		pos, ok := where(a)
		if !ok {
			continue
		}
		b := make([]byte, n)
		if !read(pos, b) {
			all = false
			continue
		}
		out[i] = b
	}
	return out, all
}
