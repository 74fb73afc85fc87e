package ranks

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// EncodePart returns a summary made by Collect for one process's part of
// a job (CollectOptions.Part), for DecodePart in another process of the
// same job: the summary in the file format, without the summed profile
// (which travels as the gmon package's summing state), then the input of
// each rank recorded leanly. It is a transport between processes of one
// egprof build, not a file to keep.
func (s *Summary) EncodePart() []byte {
	classic := s.Classic
	s.Classic = nil
	body := s.Encode()
	s.Classic = classic
	out := binary.AppendUvarint(nil, uint64(len(body)))
	out = append(out, body...)
	for i := range s.Ranks {
		ri := &s.Ranks[i]
		if ri.kept == nil {
			out = binary.AppendUvarint(out, 0)
			continue
		}
		out = binary.AppendUvarint(out, ri.kept.input.get(int(ri.row))+1)
	}
	return out
}

// DecodePart reads a part made by EncodePart from the same inputs, with
// the same candidate regions: ranks recorded leanly there are recorded
// leanly here too, as rows of a store of the part's own, and are read
// again from their gmon files when the analysis needs more of them
// (FillRanks), as the ranks of this process's own part are.
func DecodePart(data []byte, name string, inputs []Input, candidates []int32) (*Summary, error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return nil, fmt.Errorf("%s: a malformed part", name)
	}
	s, err := DecodeSummary(data[k:k+int(n)], name)
	if err != nil {
		return nil, err
	}
	rest := data[k+int(n):]
	var store *keptStore
	for i := range s.Ranks {
		in, k := binary.Uvarint(rest)
		if k <= 0 || in > uint64(len(inputs)) {
			return nil, fmt.Errorf("%s: a malformed part: rank %d's input", name, i)
		}
		rest = rest[k:]
		ri := &s.Ranks[i]
		if in == 0 {
			ri.more.source = "" // read from its gmon file in this run
			continue
		}
		input := int(in - 1)
		if inputs[input].Name != ri.more.label || inputs[input].Rank != ri.Rank {
			return nil, fmt.Errorf("%s: rank %d is not input %d's", name, ri.Rank, input)
		}
		if store == nil {
			store = &keptStore{inputs: inputs}
			store.setRegions(candidates)
		}
		row := store.add(input, ri.more.total)
		for _, rv := range ri.more.top {
			j, ok := slices.BinarySearch(candidates, rv.Region)
			if !ok {
				return nil, fmt.Errorf("%s: rank %d holds region %d, not a candidate", name, ri.Rank, rv.Region)
			}
			store.values[j].set(int(row), store.n, rv.Value)
		}
		ri.kept, ri.row, ri.more = store, row, nil
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%s: a malformed part: %d bytes after the ranks", name, len(rest))
	}
	return s, nil
}
