package gmon

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzMode picks the target (low two bits) and the format (next two bits)
// from the fuzzer's mode byte.
func fuzzMode(mode byte) (Target, Format) {
	targets := [4]Target{le64, le32, be64, be32}
	formats := [4]Format{FormatAuto, FormatMagic, FormatBSD, FormatBSD44}
	return targets[mode&3], formats[(mode>>2)&3]
}

// fuzzSeeds are the seed inputs, also checked in under testdata/fuzz.
func fuzzSeeds(t testing.TB) map[string]struct {
	data []byte
	mode byte
} {
	type seed = struct {
		data []byte
		mode byte
	}
	small := func(tg Target) []byte {
		return newTB(tg).gnu(1).hist(0x1000, 0x1040, zeroBins(16, 2, 7)).
			arc(0x1010, 0x1020, 3).arc(0x1030, 0x1020, 1).bb(BBRecord{0x1010, 4}).bytes()
	}
	zw := newTB(le64).gnu(1).hist(0x1000, 0x1000, []uint16{5}).
		histN(0x1000, 0x1000, 11, 100, "seconds", 's', []uint16{5}).arc(0x10, 0x20, 9).bytes()
	return map[string]seed{
		"gnu-le64-doc":       {doc17(), 0},
		"gnu-le64":           {small(le64), 0},
		"gnu-le32":           {small(le32), 1},
		"gnu-be64":           {small(be64), 2},
		"gnu-be32-magic":     {small(be32), 3 | 1<<2},
		"gnu-v0-bb":          {append(newTB(le64).gnu(0).hist(0, 8, zeroBins(2)).bytes(), v0BB(t, 1, "f.c", []BBRecord{{4, 5}})[20:]...), 0},
		"gnu-two-hists":      {newTB(le64).gnu(1).hist(0, 64, zeroBins(16, 1, 1)).hist(64, 128, zeroBins(16, 0, 3)).bytes(), 0},
		"gnu-zero-width":     {zw, 0},
		"bsd-old-le64":       {newTB(le64).bsd(0x1000, 0x1040, zeroBins(16, 3, 9), -1).bsdArc(0x1010, 0x1020, 5).u8(1).bytes(), 0},
		"bsd-44-le32":        {newTB(le32).bsd(0x1000, 0x1040, zeroBins(16, 3, 9), 1000).bsdArc(0x1010, 0x1020, 5).bytes(), 1 | 3<<2},
		"bsd-old-be64-b":     {newTB(be64).bsd(0x1000, 0x1040, zeroBins(16), -1).bsdArc(0x1010, 0x1020, 5).bytes(), 2 | 2<<2},
		"truncated-bins":     {small(le64)[:40+20], 0},
		"truncated-arc":      {small(le64)[:len(small(le64))-25], 0},
		"huge-hist-size":     {newTB(le64).gnu(1).histN(0, 8, 0xffffffff, 100, "seconds", 's', nil).zeros(8).bytes(), 0},
		"bsd-ncnt-too-small": {newTB(le64).addr(0).addr(8).u32(3).u32(0).bytes(), 0},
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s.data, s.mode)
	}
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		tg, format := fuzzMode(mode)
		const name = "fuzz.out"
		file, err := Read(data, name, tg, format)
		if err != nil {
			checkFuzzError(t, err, name)
			// Summing must fail the same way.
			if _, err2 := NewProfile(tg, format).AddData(data, name); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("AddData gave %v, Read gave %v", err2, err)
			}
			return
		}

		// Read and AddData on a fresh profile read the same records.
		p := NewProfile(tg, format)
		file2, err := p.AddData(data, name)
		if err != nil {
			t.Fatalf("Read succeeded but AddData failed: %v", err)
		}
		if fmt.Sprint(*file) != fmt.Sprint(*file2) {
			t.Fatalf("Read and AddData differ:\n%+v\n%+v", file, file2)
		}
		// A lean read sums the same, and keeps nothing that refers to the
		// bytes (the command unmaps them): they are overwritten before
		// the sums are compared.
		lean := NewProfile(tg, format)
		leanData := bytes.Clone(data)
		leanFile, err := lean.AddDataLean(leanData, name)
		if err != nil {
			t.Fatalf("AddData succeeded but AddDataLean failed: %v", err)
		}
		for i := range leanData {
			leanData[i] = 0xff
		}
		if fmt.Sprint(lean.Hists, lean.Arcs, lean.BBs) != fmt.Sprint(p.Hists, p.Arcs, p.BBs) {
			t.Fatalf("AddDataLean and AddData sum differently")
		}
		if leanFile.NumHistRecords != file2.NumHistRecords || leanFile.NumArcRecords != file2.NumArcRecords ||
			leanFile.NumBBRecords != file2.NumBBRecords || leanFile.HasHistHeader != file2.HasHistHeader {
			t.Fatalf("AddDataLean counts %+v, AddData %+v", leanFile, file2)
		}

		if file.NumArcRecords != len(file.Arcs) || file.NumHistRecords > len(file.Hists) {
			t.Fatalf("record counts %d/%d do not match records %d/%d",
				file.NumHistRecords, file.NumArcRecords, len(file.Hists), len(file.Arcs))
		}

		// Every bin read lands in exactly one histogram.
		var fileTotal, profTotal int64
		for _, h := range file.Hists {
			for _, v := range h.Bins {
				fileTotal += int64(v)
			}
		}
		for _, h := range p.Hists {
			for _, v := range h.Bins {
				profTotal += v
			}
		}
		if fileTotal != profTotal {
			t.Fatalf("bin totals: file %d, profile %d", fileTotal, profTotal)
		}
		var fileCalls, profCalls uint64
		for _, a := range file.Arcs {
			fileCalls += a.Count
		}
		for _, a := range p.Arcs {
			profCalls += a.Count
		}
		if fileCalls != profCalls {
			t.Fatalf("arc totals: file %d, profile %d", fileCalls, profCalls)
		}

		checkGNURoundTrip(t, p)
		if len(p.Hists) > 0 && p.Hists[0].LowPC <= p.Hists[0].HighPC {
			checkBSDRoundTrip(t, p)
		}

		// Summing the file with itself must not panic; errors name it.
		if _, err := p.AddData(data, name); err != nil {
			checkFuzzError(t, err, name)
		}
		if err := p.Add(file); err != nil {
			checkFuzzError(t, err, name)
		}
	})
}

func checkFuzzError(t *testing.T, err error, name string) {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is %T, not *FormatError", err, err)
	}
	if fe.File != name || !strings.HasPrefix(err.Error(), name+": ") {
		t.Fatalf("error %q does not name the file", err)
	}
}

// mask cuts v to the width of a target's address fields.
func mask(v uint64, ptr int) uint64 {
	if ptr == 4 {
		return uint64(uint32(v))
	}
	return v
}

// checkGNURoundTrip writes p as a GNU gmon.sum and reads it back.
func checkGNURoundTrip(t *testing.T, p *Profile) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSum(&buf, p, p.Arcs, FormatAuto); err != nil {
		t.Fatalf("WriteSum: %v", err)
	}
	spare := p.Spare()
	if !bytes.Equal(buf.Bytes()[8:20], spare[:]) {
		t.Fatalf("spare bytes %x, want %x", buf.Bytes()[8:20], spare)
	}
	q := NewProfile(p.Target, FormatMagic)
	back, err := q.AddData(buf.Bytes(), "gmon.sum")
	if err != nil {
		t.Fatalf("reading our gmon.sum back: %v", err)
	}
	if len(back.Hists) != len(p.Hists) {
		t.Fatalf("%d histograms written, %d read back", len(p.Hists), len(back.Hists))
	}
	for i, h := range back.Hists {
		want := p.Hists[i]
		if h.LowPC != want.LowPC || h.HighPC != want.HighPC || len(h.Bins) != len(want.Bins) {
			t.Fatalf("histogram %d: [%#x,%#x)x%d read back as [%#x,%#x)x%d", i,
				want.LowPC, want.HighPC, len(want.Bins), h.LowPC, h.HighPC, len(h.Bins))
		}
		for j, v := range h.Bins {
			if v != uint16(want.Bins[j]) {
				t.Fatalf("histogram %d bin %d: %d read back, sum was %d", i, j, v, want.Bins[j])
			}
		}
		if h.Rate != p.Rate || h.Dimen != p.Dimen || h.Abbrev != p.Abbrev {
			t.Fatalf("histogram %d: rate/units not the first record's", i)
		}
	}
	if len(back.Arcs) != len(p.Arcs) {
		t.Fatalf("%d arcs written, %d read back", len(p.Arcs), len(back.Arcs))
	}
	for i, a := range back.Arcs {
		if a != (ArcRecord{p.Arcs[i].FromPC, p.Arcs[i].SelfPC, uint64(uint32(p.Arcs[i].Count))}) {
			t.Fatalf("arc %d: %+v read back as %+v", i, p.Arcs[i], a)
		}
	}
	if p.HasBB != (back.NumBBRecords == 1) {
		t.Fatalf("HasBB %v but %d BB records read back", p.HasBB, back.NumBBRecords)
	}
	if p.HasBB {
		if len(back.BBs) != len(p.BBs) {
			t.Fatalf("%d blocks written, %d read back", len(p.BBs), len(back.BBs))
		}
		ptr := p.Target.AddrSize
		for i, b := range back.BBs {
			if b != (BBRecord{mask(p.BBs[i].Addr, ptr), mask(p.BBs[i].Count, ptr)}) {
				t.Fatalf("block %d: %+v read back as %+v", i, p.BBs[i], b)
			}
		}
	}
}

// checkBSDRoundTrip writes p's first histogram and arcs as BSD and reads
// them back.
func checkBSDRoundTrip(t *testing.T, p *Profile) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSum(&buf, p, p.Arcs, FormatBSD); err != nil {
		t.Fatalf("WriteSum BSD: %v", err)
	}
	back, err := Read(buf.Bytes(), "bsd.sum", p.Target, FormatBSD)
	if minLen := max(gnuHeaderSize, 2*p.Target.AddrSize+8); buf.Len() < minLen {
		// gprof writes old BSD files too short for it to read back (one
		// bin and no arcs on 64-bit); so do we.
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Kind != KindTooShort {
			t.Fatalf("%d-byte BSD file: got %v, want a too-short error", buf.Len(), err)
		}
		return
	}
	if err != nil {
		t.Fatalf("reading our BSD file back: %v", err)
	}
	h, want := back.Hists[0], p.Hists[0]
	if h.LowPC != want.LowPC || h.HighPC != want.HighPC || len(h.Bins) != len(want.Bins) {
		t.Fatalf("BSD histogram read back as [%#x,%#x)x%d", h.LowPC, h.HighPC, len(h.Bins))
	}
	for j, v := range h.Bins {
		if v != uint16(want.Bins[j]) {
			t.Fatalf("BSD bin %d: %d read back, sum was %d", j, v, want.Bins[j])
		}
	}
	if len(back.Arcs) != len(p.Arcs) {
		t.Fatalf("%d BSD arcs written, %d read back", len(p.Arcs), len(back.Arcs))
	}
	for i, a := range back.Arcs {
		if a.Count != mask(p.Arcs[i].Count, p.Target.AddrSize) {
			t.Fatalf("BSD arc %d count %d read back as %d", i, p.Arcs[i].Count, a.Count)
		}
	}
}

// TestFuzzSeedsCheckedIn makes sure the corpus under testdata/fuzz holds
// the current seeds. Run with GMON_WRITE_FUZZ_SEEDS=1 to rewrite them.
func TestFuzzSeedsCheckedIn(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzRead")
	for name, s := range fuzzSeeds(t) {
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nbyte(%q)\n", s.data, s.mode)
		path := filepath.Join(dir, name)
		if os.Getenv("GMON_WRITE_FUZZ_SEEDS") == "1" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("seed %s missing (run with GMON_WRITE_FUZZ_SEEDS=1): %v", name, err)
		}
		if string(got) != want {
			t.Fatalf("seed %s out of date (run with GMON_WRITE_FUZZ_SEEDS=1)", name)
		}
	}
}
