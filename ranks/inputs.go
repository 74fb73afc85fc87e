package ranks

import "iter"

// Input is one file of a rank aggregation: a rank's gmon file or a
// summary. It is a view of one of Inputs.
type Input struct {
	Name string
	// Data, when not nil, is the file's content (standard input);
	// otherwise the file is read from Name.
	Data []byte
	// Rank is the rank number of a gmon file; summaries carry their own.
	Rank int
	// Summary is set for a summary file (see Sniff).
	Summary bool
}

// Inputs are the files of a rank aggregation, in command-line order. They
// are held as columns, and the names are the caller's own slice (the
// command line's words, usually): a job can name hundreds of thousands of
// files, and each costs 9 bytes here besides its name.
type Inputs struct {
	names   []string
	ranks   []int
	summary []bool
	data    map[int][]byte // the content of inputs read from standard input
}

// NewInputs returns inputs with the given names, kept (not copied): gmon
// files of rank 0 until AssignRanks numbers them.
func NewInputs(names []string) *Inputs {
	return &Inputs{names: names, ranks: make([]int, len(names)), summary: make([]bool, len(names))}
}

// InputsOf returns inputs holding a copy of each of list.
func InputsOf(list ...Input) *Inputs {
	s := &Inputs{}
	for _, in := range list {
		s.Append(in)
	}
	return s
}

// Append adds an input after the others.
func (s *Inputs) Append(in Input) {
	s.names = append(s.names, in.Name)
	s.ranks = append(s.ranks, in.Rank)
	s.summary = append(s.summary, in.Summary)
	if in.Data != nil {
		s.SetData(len(s.names)-1, in.Data)
	}
}

// Len is the number of inputs.
func (s *Inputs) Len() int { return len(s.names) }

// At returns input i.
func (s *Inputs) At(i int) Input {
	return Input{Name: s.names[i], Data: s.data[i], Rank: s.ranks[i], Summary: s.summary[i]}
}

// All yields each input with its index, in order.
func (s *Inputs) All() iter.Seq2[int, Input] {
	return func(yield func(int, Input) bool) {
		for i := range s.names {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// Names are the inputs' file names, in order: the slice the inputs hold,
// not to be modified.
func (s *Inputs) Names() []string { return s.names }

// Name is input i's file name.
func (s *Inputs) Name(i int) string { return s.names[i] }

// Rank is input i's rank number (a gmon file's).
func (s *Inputs) Rank(i int) int { return s.ranks[i] }

// IsSummary reports whether input i is a summary.
func (s *Inputs) IsSummary(i int) bool { return s.summary[i] }

// SetRank sets input i's rank number.
func (s *Inputs) SetRank(i, rank int) { s.ranks[i] = rank }

// SetSummary marks input i as a summary, or not.
func (s *Inputs) SetSummary(i int, summary bool) { s.summary[i] = summary }

// SetData gives input i its content (standard input's, read once).
func (s *Inputs) SetData(i int, data []byte) {
	if data == nil {
		data = []byte{}
	}
	if s.data == nil {
		s.data = map[int][]byte{}
	}
	s.data[i] = data
}
