package ranks

import (
	"encoding/binary"
	"fmt"
)

// EncodePart returns a summary made by Collect for one process's part of
// a job (CollectOptions.Part), for DecodePart in another process of the
// same job: the input of each rank recorded leanly, then the summary in
// the file format without the summed profile (which travels as the gmon
// package's summing state). It is a transport between processes of one
// egprof build, not a file to keep.
func (s *Summary) EncodePart() []byte {
	out := binary.AppendUvarint(nil, uint64(len(s.Ranks)))
	for i := range s.Ranks {
		ri := &s.Ranks[i]
		if ri.kept == nil {
			out = binary.AppendUvarint(out, 0)
			continue
		}
		out = binary.AppendUvarint(out, ri.kept.input.get(int(ri.row))+1)
	}
	classic := s.Classic
	s.Classic = nil
	out = append(out, s.Encode()...)
	s.Classic = classic
	return out
}

// DecodePart reads a part made by EncodePart from the same inputs, with
// the same candidate regions: ranks recorded leanly there are recorded
// leanly here too, as rows of a store of the part's own, and are read
// again from their gmon files when the analysis needs more of them
// (FillRanks), as the ranks of this process's own part are.
func DecodePart(data []byte, name string, inputs *Inputs, candidates []int32) (*Summary, error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return nil, fmt.Errorf("%s: a malformed part", name)
	}
	data = data[k:]
	lean := &leanRanks{inputOf: make([]uint64, n), inputs: inputs, candidates: candidates}
	for i := range lean.inputOf {
		v, k := binary.Uvarint(data)
		if k <= 0 {
			return nil, fmt.Errorf("%s: a malformed part: rank %d's input", name, i)
		}
		lean.inputOf[i], data = v, data[k:]
	}
	s, err := decodeSummary(data, name, lean)
	if err != nil {
		return nil, err
	}
	if uint64(len(s.Ranks)) != n {
		return nil, fmt.Errorf("%s: a malformed part: %d inputs for %d ranks", name, n, len(s.Ranks))
	}
	return s, nil
}
