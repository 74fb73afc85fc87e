package wire

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/internal/binfmt"
	"github.com/egprof/egprof/ranks"
)

// fill sets every carried field reachable from v to a value of its own
// (*next counts them), with two elements in every slice, so that a field
// the messages lost or mixed up shows.
func fill(v reflect.Value, next *int) {
	*next++
	n := *next
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(n%2 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-int64(n % 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(n % 200))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n) + 0.25)
	case reflect.String:
		v.SetString("s" + string(rune('a'+n%26)) + " é")
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), next)
		fill(v.Index(1), next)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), next)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), next)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if carriedField(v.Type().Field(i)) {
				fill(v.Field(i), next)
			}
		}
	}
}

// Every field of a request and a reply, each set to a value of its own,
// comes back as it went.
func TestEveryFieldSurvives(t *testing.T) {
	for _, r := range []struct {
		name      string
		writeRead func(v any) (any, error)
		v         any
		minFields int
	}{
		{"ranks", writeReadRequest, &Request{Ranks: &ranks.Report{}}, 50},
		{"experiment", writeReadRequest, &Request{Experiment: &experiment.Result{}}, 50},
		{"reply", writeReadReply, &Reply{}, 10},
	} {
		t.Run(r.name, func(t *testing.T) {
			v := reflect.ValueOf(r.v).Elem()
			next := 0
			for i := 0; i < v.NumField(); i++ {
				if f := v.Field(i); f.Kind() != reflect.Pointer || !f.IsNil() {
					fill(f, &next)
				}
			}
			require.Greater(t, next, r.minFields, "the fill reached too few fields")
			back, err := r.writeRead(r.v)
			require.NoError(t, err)
			assert.Equal(t, r.v, back)
		})
	}
}

func writeReadRequest(v any) (any, error) {
	var buf bytes.Buffer
	if err := WriteRequest(&buf, v.(*Request)); err != nil {
		return nil, err
	}
	return ReadRequest(&buf)
}

func writeReadReply(v any) (any, error) {
	var buf bytes.Buffer
	if err := WriteReply(&buf, v.(*Reply)); err != nil {
		return nil, err
	}
	return ReadReply(&buf)
}

// sample is a type with every kind the messages carry.
type sample struct {
	B     bool
	I     int
	I8    int8
	U16   uint16
	F32   float32
	F     float64
	S     string
	Bytes []byte
	Nil   []int
	Empty []int
	Arr   [2]int32
	P     *inner
	NilP  *int
	skip  int
	Fn    func()
}

// inner is a struct sample points to.
type inner struct {
	F   float64
	Nil []int
}

// Values at the edges of their types come back bit for bit: NaN and the
// infinities, extreme integers, nil and empty slices told apart; fields
// the messages skip come back zero.
func TestEdgeValues(t *testing.T) {
	in := &sample{B: true, I: math.MinInt64, I8: -128, U16: math.MaxUint16,
		F32: float32(math.Inf(-1)), F: math.NaN(), S: "a\x00b", Bytes: []byte{0, 255},
		Empty: []int{}, Arr: [2]int32{math.MaxInt32, -1},
		P: &inner{F: math.Inf(1), Nil: []int{1 << 62}}, skip: 7, Fn: func() {}}
	data, err := marshal("TESTSIG\x00", in)
	require.NoError(t, err)
	var out sample
	require.NoError(t, unmarshal(data, "test", "TESTSIG\x00", &out))
	assert.True(t, math.IsNaN(out.F))
	assert.True(t, math.IsInf(float64(out.F32), -1))
	assert.True(t, math.IsInf(out.P.F, 1))
	assert.Nil(t, out.Nil)
	assert.NotNil(t, out.Empty)
	assert.Zero(t, out.skip)
	assert.Nil(t, out.Fn)
	want := *in
	want.F, want.skip, want.Fn = 0, 0, nil
	out.F = 0
	assert.Equal(t, want, out)
}

// A list whose elements fill the message to its last byte is read back:
// its length is written plus one, which must not count against the bytes
// its elements need (a fuzzed reply with one empty skipped line was
// refused once written again).
func TestListsEndingTheMessage(t *testing.T) {
	tests := []struct {
		name  string
		reply Reply
	}{
		{"one empty line", Reply{Skipped: []string{""}}},
		{"two empty lines", Reply{Skipped: []string{"", ""}}},
		{"one short line", Reply{Skipped: []string{"a"}}},
		{"a chart of no bytes", Reply{Charts: []Chart{{Name: "a.svg", SVG: []byte{}}}, Skipped: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := marshal(replySignature, &tt.reply)
			require.NoError(t, err)
			back, err := ReadReply(bytes.NewReader(data))
			require.NoError(t, err)
			assert.Equal(t, tt.reply, *back)
		})
	}
}

// Types the messages cannot carry are refused when writing, with the
// type named.
func TestTypesRefused(t *testing.T) {
	type empty struct{ hidden int }
	type self struct{ Next *self }
	for _, v := range []any{
		&struct{ M map[string]int }{},
		&struct{ X any }{},
		&struct{ E empty }{},
		&struct{ A [0]int }{},
		&self{},
		&struct{ C complex128 }{},
	} {
		_, err := marshal("TESTSIG\x00", v)
		assert.ErrorIs(t, err, errCarried, "%T", v)
	}
}

// Damaged messages are refused with what is wrong, never misread.
func TestDamagedMessages(t *testing.T) {
	good, err := marshal(requestSignature, &Request{Ranks: &ranks.Report{Exe: "prog", P: 4}})
	require.NoError(t, err)
	var r Request
	require.NoError(t, unmarshal(good, "m", requestSignature, &r))

	otherLayout, err := marshal(requestSignature, &struct{ A, B int }{1, 2})
	require.NoError(t, err)
	type small struct{ I int8 }
	digest, err := layoutDigest(reflect.TypeFor[small]())
	require.NoError(t, err)
	var w binfmt.Writer
	w.Raw(digest[:])
	w.Int(300)
	overflow := w.File("TESTSIG\x00", codecVersion)
	for _, c := range []struct {
		name, sig, want string
		data            []byte
		into            any
	}{
		{"truncated", requestSignature, "truncated or extended", good[:len(good)-1], &Request{}},
		{"corrupt", requestSignature, "checksum", append(append([]byte{}, good[:len(good)-1]...), good[len(good)-1]^1), &Request{}},
		{"other message", replySignature, "signature", good, &Reply{}},
		{"other build", requestSignature, "another build", otherLayout, &Request{}},
		{"overflow", "TESTSIG\x00", "300 overflows int8", overflow, &small{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.ErrorContains(t, unmarshal(c.data, "m", c.sig, c.into), c.want)
		})
	}
}

// payload is the part of message data after the header and the layout
// digest, the part a fuzzer should vary (the checksum would refuse
// nearly every change elsewhere).
func payload(data []byte) []byte { return data[binfmt.HeaderSize+8:] }

// message wraps p as the payload of a valid message of v's type: right
// header, checksum and layout digest.
func message(t *testing.T, signature string, v any, p []byte) []byte {
	digest, err := layoutDigest(reflect.TypeOf(v).Elem())
	require.NoError(t, err)
	var w binfmt.Writer
	w.Raw(digest[:])
	w.Raw(p)
	return w.File(signature, codecVersion)
}

// roundTrip reads payload p, wrapped as a message of signature for type
// T, with read, and checks that what read accepts is written and read
// back the same (byte for byte from the second writing on: the first may
// spell a varint more briefly than p did).
func roundTrip[T any](t *testing.T, signature string, p []byte, read func(io.Reader) (*T, error)) {
	v, err := read(bytes.NewReader(message(t, signature, new(T), p)))
	if err != nil {
		return
	}
	data, err := marshal(signature, v)
	require.NoError(t, err)
	back, err := read(bytes.NewReader(data))
	require.NoError(t, err)
	again, err := marshal(signature, back)
	require.NoError(t, err)
	assert.Equal(t, data, again)
}

// FuzzReadRequest: no payload makes the reader panic or allocate beyond
// what its size allows, and whatever it accepts survives being written
// and read again.
func FuzzReadRequest(f *testing.F) {
	for _, r := range []*Request{
		{Ranks: &ranks.Report{Exe: "prog", P: 4, TotalSeconds: math.NaN(), Activities: []ranks.ActivityRow{{Name: "mpi"}}}},
		{Experiment: &experiment.Result{Config: experiment.Config{ProcsDim: "p", Top: 3}}},
	} {
		data, err := marshal(requestSignature, r)
		require.NoError(f, err)
		f.Add(payload(data))
	}
	f.Fuzz(func(t *testing.T, p []byte) { roundTrip(t, requestSignature, p, ReadRequest) })
}

// FuzzReadReply is FuzzReadRequest for replies.
func FuzzReadReply(f *testing.F) {
	data, err := marshal(replySignature, &Reply{Charts: []Chart{{Name: "a.svg", SVG: []byte("<svg/>")}}, Skipped: []string{"b"}})
	require.NoError(f, err)
	f.Add(payload(data))
	f.Fuzz(func(t *testing.T, p []byte) { roundTrip(t, replySignature, p, ReadReply) })
}
