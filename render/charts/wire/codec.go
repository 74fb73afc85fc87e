package wire

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/egprof/egprof/internal/binfmt"
)

// The messages are binfmt files (header, checksum) whose payload starts
// with a digest of the carried type's layout and continues with the
// value, written field by field in declaration order:
//
//   - booleans as 0 or 1, integers as varints, floats as their IEEE 754
//     bits (so NaNs and infinities survive), strings and byte slices as a
//     length and the bytes;
//   - slices as 0 for nil or the length plus one, then the elements;
//     arrays as their elements; pointers as 0 for nil or 1 and the value;
//   - structs as their exported fields; fields of function or channel
//     type are skipped, as encoding/gob skips them.
//
// Maps, interfaces and types that contain themselves are not carried,
// nor types whose encoding could be empty (a struct without a carried
// field, an empty array): every element of a slice then takes at least a
// byte, which bounds what a reader allocates by the message's size. The
// digest makes egprof and an egprof-charts of another build refuse each
// other's messages instead of misreading them.

// codecVersion is the version of the messages' layout rules.
const codecVersion = 1

// errCarried is wrapped by the errors of types the messages cannot carry.
var errCarried = errors.New("type cannot be carried")

// marshal encodes v (a pointer to a struct) as a message with the given
// signature.
func marshal(signature string, v any) ([]byte, error) {
	rv := reflect.ValueOf(v).Elem()
	digest, err := layoutDigest(rv.Type())
	if err != nil {
		return nil, err
	}
	var w binfmt.Writer
	w.Raw(digest[:])
	encodeValue(&w, rv)
	return w.File(signature, codecVersion), nil
}

// unmarshal decodes a message of the given signature, named name in
// errors, into v (a pointer to a zero struct).
func unmarshal(data []byte, name, signature string, v any) error {
	rv := reflect.ValueOf(v).Elem()
	digest, err := layoutDigest(rv.Type())
	if err != nil {
		return err
	}
	r, err := binfmt.Open(data, name, signature, codecVersion, "an egprof chart message")
	if err != nil {
		return err
	}
	if got := r.Bytes("layout digest", len(digest)); r.Err() == nil && string(got) != string(digest[:]) {
		r.FailAt(binfmt.HeaderSize, "written by another build of egprof (the layouts differ): install egprof and egprof-charts from the same version")
	}
	decodeValue(r, rv)
	return r.Finish()
}

// layoutDigest returns a 64-bit FNV-1a digest of t's description (kinds,
// field names, nesting), or an error for a type the messages cannot
// carry.
func layoutDigest(t reflect.Type) ([8]byte, error) {
	var b strings.Builder
	if err := describe(&b, t, map[reflect.Type]bool{}); err != nil {
		return [8]byte{}, err
	}
	h := uint64(14695981039346656037)
	for i := 0; i < b.Len(); i++ {
		h ^= uint64(b.String()[i])
		h *= 1099511628211
	}
	var d [8]byte
	for i := range d {
		d[i] = byte(h >> (8 * i))
	}
	return d, nil
}

// describe writes t's layout to b; open holds the types being described,
// to refuse a type that contains itself.
func describe(b *strings.Builder, t reflect.Type, open map[reflect.Type]bool) error {
	if open[t] {
		return fmt.Errorf("%v contains itself: %w", t, errCarried)
	}
	open[t] = true
	defer delete(open, t)
	switch k := t.Kind(); k {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		b.WriteString(k.String())
		return nil
	case reflect.Slice, reflect.Pointer:
		b.WriteString(k.String())
		b.WriteByte(' ')
		return describe(b, t.Elem(), open)
	case reflect.Array:
		if t.Len() == 0 {
			return fmt.Errorf("%v is empty: %w", t, errCarried)
		}
		fmt.Fprintf(b, "[%d]", t.Len())
		return describe(b, t.Elem(), open)
	case reflect.Struct:
		b.WriteString("struct{")
		carried := 0
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !carriedField(f) {
				continue
			}
			carried++
			b.WriteString(f.Name)
			b.WriteByte(' ')
			if err := describe(b, f.Type, open); err != nil {
				return err
			}
			b.WriteByte(';')
		}
		if carried == 0 {
			return fmt.Errorf("%v has no exported field: %w", t, errCarried)
		}
		b.WriteByte('}')
		return nil
	}
	return fmt.Errorf("%v: %w", t, errCarried)
}

// carriedField reports whether a struct field is part of the messages.
func carriedField(f reflect.StructField) bool {
	k := f.Type.Kind()
	return f.IsExported() && k != reflect.Func && k != reflect.Chan
}

// encodeValue appends v, of a type describe accepted.
func encodeValue(w *binfmt.Writer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		w.Bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.Int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.Uint(v.Uint())
	case reflect.Float32:
		w.Uint(uint64(math.Float32bits(float32(v.Float()))))
	case reflect.Float64:
		w.Float(v.Float())
	case reflect.String:
		w.String(v.String())
	case reflect.Slice:
		if v.IsNil() {
			w.Uint(0)
			return
		}
		w.Uint(uint64(v.Len()) + 1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			w.Raw(v.Bytes())
			return
		}
		for i := 0; i < v.Len(); i++ {
			encodeValue(w, v.Index(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			encodeValue(w, v.Index(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			w.Uint(0)
			return
		}
		w.Uint(1)
		encodeValue(w, v.Elem())
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if carriedField(t.Field(i)) {
				encodeValue(w, v.Field(i))
			}
		}
	}
}

// decodeValue reads into v (settable, zero), of a type describe accepted;
// a problem is left in r.
func decodeValue(r *binfmt.Reader, v reflect.Value) {
	if r.Err() != nil {
		return
	}
	t := v.Type()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.Bool(t.String()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		off := r.Offset()
		if n := r.Int(t.String()); v.OverflowInt(n) {
			r.FailAt(off, "%d overflows %v", n, t)
		} else {
			v.SetInt(n)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		off := r.Offset()
		if n := r.Uint(t.String()); v.OverflowUint(n) {
			r.FailAt(off, "%d overflows %v", n, t)
		} else {
			v.SetUint(n)
		}
	case reflect.Float32:
		off := r.Offset()
		if n := r.Uint(t.String()); n > math.MaxUint32 {
			r.FailAt(off, "%#x is not the bits of a float32", n)
		} else {
			v.SetFloat(float64(math.Float32frombits(uint32(n))))
		}
	case reflect.Float64:
		v.SetFloat(r.Float(t.String()))
	case reflect.String:
		v.SetString(r.String(t.String()))
	case reflect.Slice:
		// The length is written plus one (0 is a nil slice); every
		// element takes at least a byte.
		off := r.Offset()
		plusOne := r.Uint(t.String() + " length")
		if r.Err() != nil || plusOne == 0 {
			return
		}
		if plusOne-1 > uint64(r.Remaining()) {
			r.FailAt(off, "%v length %d is more than the %d bytes left can hold", t, plusOne-1, r.Remaining())
			return
		}
		n := int(plusOne - 1)
		if t.Elem().Kind() == reflect.Uint8 {
			v.SetBytes(append([]byte{}, r.Bytes(t.String(), n)...))
			return
		}
		v.Set(reflect.MakeSlice(t, n, n))
		for i := 0; i < n && r.Err() == nil; i++ {
			decodeValue(r, v.Index(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			decodeValue(r, v.Index(i))
		}
	case reflect.Pointer:
		if !r.Bool(t.String()) {
			return
		}
		v.Set(reflect.New(t.Elem()))
		decodeValue(r, v.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if carriedField(t.Field(i)) {
				decodeValue(r, v.Field(i))
			}
		}
	}
}
