package symtab

import "os"

// CodeBefore returns, for each of addrs, the n bytes of .text that end just
// before it (nil where they do not all lie in .text), read from the
// executable's file, which it opens again (the table keeps no code; a
// file of debug information alone has none, and gives only nils). It
// returns nil and the error when the file cannot be opened: the table may
// have been loaded from a name that no longer reads the same.
func (t *Table) CodeBefore(addrs []uint64, n int) ([][]byte, error) {
	off, ok := t.TextFileOffset()
	if !ok || !t.textHasCode {
		return make([][]byte, len(addrs)), nil
	}
	out := make([][]byte, len(addrs))
	if t.lines != nil && !t.linesElsewhere {
		// The debug sections' mapping of the whole file, when Load made
		// one, holds the code too.
		fromMapping := true
		for i, a := range addrs {
			if a < t.TextLow+uint64(n) || a > t.TextEnd+1 {
				continue
			}
			b := make([]byte, n)
			if !t.lines.ReadMapped(int64(off+(a-uint64(n)-t.TextLow)), b) {
				fromMapping = false
				break
			}
			out[i] = b
		}
		if fromMapping {
			return out, nil
		}
		clear(out)
	}
	file, err := os.Open(t.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	for i, a := range addrs {
		if a < t.TextLow+uint64(n) || a > t.TextEnd+1 {
			continue
		}
		b := make([]byte, n)
		if _, err := file.ReadAt(b, int64(off+(a-uint64(n)-t.TextLow))); err == nil {
			out[i] = b
		}
	}
	return out, nil
}
