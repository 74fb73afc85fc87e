package pprof

// Profile is a pprof profile as egprof builds it: the parts of
// profile.proto that egprof fills in. Function and location k+1 are
// functions[k] and locations[k]; location k+1 is one line of function k+1.
type Profile struct {
	period, durationNanos int64
	mappings              []mapping
	functions             []function
	locations             []location
	samples               []sample
	// rankLabels says that every sample carries its rank as the numeric
	// label "rank" (in the unit "rank").
	rankLabels bool
	comments   []string
}

// mapping is a profile.proto Mapping; it always has functions.
type mapping struct {
	id, start, limit, offset     uint64
	file, buildID                string
	hasFilenames, hasLineNumbers bool
}

// function is a profile.proto Function (its ID is its index plus one).
type function struct {
	name, systemName, filename string
	startLine                  int64
}

// location is a profile.proto Location (its ID is its index plus one)
// with one line, of the function of the same ID.
type location struct {
	mapping, address uint64
	line             int64
}

// sample is a profile.proto Sample: its stack (location IDs, leaf
// first), its values (samples, cpu, calls) and, when the profile has rank
// labels, its rank.
type sample struct {
	locations []uint64
	values    [3]int64
	rank      int64
}

// The period type, the default sample type and the rank label, as
// profile.proto names them.
const (
	periodType, periodUnit = "cpu", "nanoseconds"
	defaultSampleType      = "cpu"
	rankLabel              = "rank"
)

// Marshal encodes the profile as profile.proto, byte for byte as
// google/pprof's profile.Profile.WriteUncompressed encodes the same
// profile: its fields in the order of their numbers, zero values left
// out, repeated numbers packed when there are more than two, and the
// string table in the order that package fills it (sample types, labels,
// mappings, functions, the period type, comments, the default sample
// type).
func (p *Profile) Marshal() []byte {
	st := newStrings()
	// The sample types, type and unit.
	sampleTypes := [3][2]string{{"samples", "count"}, {"cpu", "nanoseconds"}, {"calls", "count"}}
	var typeX [3][2]int64
	for i, t := range sampleTypes {
		typeX[i] = [2]int64{st.add(t[0]), st.add(t[1])}
	}
	var rankX int64
	if p.rankLabels && len(p.samples) > 0 {
		rankX = st.add(rankLabel)
	}
	mapX := make([][2]int64, len(p.mappings))
	for i, m := range p.mappings {
		mapX[i] = [2]int64{st.add(m.file), st.add(m.buildID)}
	}
	funcX := make([][3]int64, len(p.functions))
	for i, f := range p.functions {
		funcX[i] = [3]int64{st.add(f.name), st.add(f.systemName), st.add(f.filename)}
	}
	periodX := [2]int64{st.add(periodType), st.add(periodUnit)}
	commentX := make([]int64, len(p.comments))
	for i, c := range p.comments {
		commentX[i] = st.add(c)
	}
	defaultX := st.add(defaultSampleType)

	e := &encoder{}
	for _, t := range typeX {
		n := e.begin()
		e.int64Opt(1, t[0])
		e.int64Opt(2, t[1])
		e.end(1, n)
	}
	for i := range p.samples {
		s := &p.samples[i]
		n := e.begin()
		e.uint64s(1, s.locations)
		e.int64s(2, s.values[:])
		if p.rankLabels {
			l := e.begin()
			e.int64Opt(1, rankX)
			e.int64Opt(3, s.rank)
			e.int64Opt(4, rankX)
			e.end(3, l)
		}
		e.end(2, n)
	}
	for i, m := range p.mappings {
		n := e.begin()
		e.uint64Opt(1, m.id)
		e.uint64Opt(2, m.start)
		e.uint64Opt(3, m.limit)
		e.uint64Opt(4, m.offset)
		e.int64Opt(5, mapX[i][0])
		e.int64Opt(6, mapX[i][1])
		e.boolOpt(7, true)
		e.boolOpt(8, m.hasFilenames)
		e.boolOpt(9, m.hasLineNumbers)
		e.end(3, n)
	}
	for i, l := range p.locations {
		n := e.begin()
		e.uint64Opt(1, uint64(i+1))
		e.uint64Opt(2, l.mapping)
		e.uint64Opt(3, l.address)
		ln := e.begin()
		e.uint64Opt(1, uint64(i+1))
		e.int64Opt(2, l.line)
		e.end(4, ln)
		e.end(4, n)
	}
	for i, f := range p.functions {
		n := e.begin()
		e.uint64Opt(1, uint64(i+1))
		e.int64Opt(2, funcX[i][0])
		e.int64Opt(3, funcX[i][1])
		e.int64Opt(4, funcX[i][2])
		e.int64Opt(5, f.startLine)
		e.end(5, n)
	}
	for _, s := range st.table {
		e.string(6, s)
	}
	e.int64Opt(10, p.durationNanos)
	n := e.begin()
	e.int64Opt(1, periodX[0])
	e.int64Opt(2, periodX[1])
	e.end(11, n)
	e.int64Opt(12, p.period)
	e.int64s(13, commentX)
	e.uint64(14, uint64(defaultX))
	return e.b
}

// stringTable is profile.proto's string table being filled: each string
// once, "" first.
type stringTable struct {
	index map[string]int64
	table []string
}

// newStrings returns a string table holding "".
func newStrings() *stringTable {
	return &stringTable{index: map[string]int64{"": 0}, table: []string{""}}
}

// add returns the index of s in the table, adding it if it is new.
func (t *stringTable) add(s string) int64 {
	if i, ok := t.index[s]; ok {
		return i
	}
	i := int64(len(t.table))
	t.index[s] = i
	t.table = append(t.table, s)
	return i
}

// encoder appends protocol buffer fields to b.
type encoder struct {
	b []byte
}

// varint appends x as a varint.
func (e *encoder) varint(x uint64) {
	for x >= 0x80 {
		e.b = append(e.b, byte(x)|0x80)
		x >>= 7
	}
	e.b = append(e.b, byte(x))
}

// uint64 appends field tag as a varint.
func (e *encoder) uint64(tag int, x uint64) {
	e.varint(uint64(tag) << 3)
	e.varint(x)
}

// uint64Opt appends field tag unless x is zero.
func (e *encoder) uint64Opt(tag int, x uint64) {
	if x != 0 {
		e.uint64(tag, x)
	}
}

// int64Opt appends field tag unless x is zero (a negative x takes ten
// bytes, as protobuf's int64 does).
func (e *encoder) int64Opt(tag int, x int64) {
	e.uint64Opt(tag, uint64(x))
}

// boolOpt appends field tag as 1 when x is true.
func (e *encoder) boolOpt(tag int, x bool) {
	if x {
		e.uint64(tag, 1)
	}
}

// string appends field tag as a string, even an empty one.
func (e *encoder) string(tag int, s string) {
	e.varint(uint64(tag)<<3 | 2)
	e.varint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// uint64s appends the repeated field tag: packed when there are more than
// two values, one field each otherwise.
func (e *encoder) uint64s(tag int, xs []uint64) {
	if len(xs) <= 2 {
		for _, x := range xs {
			e.uint64(tag, x)
		}
		return
	}
	n := e.begin()
	for _, x := range xs {
		e.varint(x)
	}
	e.end(tag, n)
}

// int64s is uint64s for int64 values.
func (e *encoder) int64s(tag int, xs []int64) {
	if len(xs) <= 2 {
		for _, x := range xs {
			e.uint64(tag, uint64(x))
		}
		return
	}
	n := e.begin()
	for _, x := range xs {
		e.varint(uint64(x))
	}
	e.end(tag, n)
}

// begin starts a length-delimited field (a message or a packed list):
// its content follows, then end.
func (e *encoder) begin() int {
	return len(e.b)
}

// end makes what was appended since begin returned start the content of
// the length-delimited field tag, putting its key and length before it.
func (e *encoder) end(tag, start int) {
	size := len(e.b) - start
	var head [20]byte
	h := head[:0]
	for _, x := range [2]uint64{uint64(tag)<<3 | 2, uint64(size)} {
		for x >= 0x80 {
			h = append(h, byte(x)|0x80)
			x >>= 7
		}
		h = append(h, byte(x))
	}
	e.b = append(e.b, h...)
	copy(e.b[start+len(h):], e.b[start:start+size])
	copy(e.b[start:], h)
}
