package render

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// ImpactData is the impact table for scripts (--impact --format=tsv|json):
// the header facts and every row with both sides' numbers.
type ImpactData struct {
	Plus    SideData    `json:"plus"`
	Minus   SideData    `json:"minus"`
	Scaling string      `json:"scaling"` // how the sides were made comparable ("sum": each side's profiles summed)
	Rows    []ImpactRow `json:"rows"`
}

// SideData describes one side of a differential profile.
type SideData struct {
	Exe           string   `json:"executable"`
	Files         []string `json:"files"`
	SamplePeriod  float64  `json:"sample_period_s"` // seconds per sample (0 without a histogram)
	TotalSeconds  float64  `json:"total_s"`         // scaled as the side is (see ImpactData.Scaling)
	SamplesPerSec uint32   `json:"hz"`
}

// ImpactRow is one function of the impact table. Ratio is '+' self time
// over '-' self time (as perf diff's -c ratio); it is nil (empty in TSV)
// when the '-' self time is zero.
type ImpactRow struct {
	Name         string   `json:"name"`
	Symbol       string   `json:"symbol"`
	PlusPresent  bool     `json:"plus_present"`
	MinusPresent bool     `json:"minus_present"`
	PlusSelf     float64  `json:"plus_self_s"`
	MinusSelf    float64  `json:"minus_self_s"`
	SelfDelta    float64  `json:"self_delta_s"`
	PlusTotal    float64  `json:"plus_total_s"`
	MinusTotal   float64  `json:"minus_total_s"`
	TotalDelta   float64  `json:"total_delta_s"`
	PlusCalls    uint64   `json:"plus_calls"`
	MinusCalls   uint64   `json:"minus_calls"`
	CallsDelta   int64    `json:"calls_delta"`
	Ratio        *float64 `json:"ratio"`
	ImpactPct    float64  `json:"impact_pct"`
	WithinNoise  bool     `json:"within_noise"`
}

// ImpactData returns the impact table's data, rows in the text table's
// order; scaling names how the sides were made comparable.
func (d *DiffText) ImpactData(scaling string) ImpactData {
	p := d.p
	side := func(s Side, hz, total float64) SideData {
		sd := SideData{Exe: s.Exe, Files: s.Files, SamplesPerSec: uint32(hz), TotalSeconds: total}
		if hz > 0 {
			sd.SamplePeriod = 1 / hz
		}
		return sd
	}
	data := ImpactData{
		Plus:    side(d.opt.Plus, p.PlusHZ(), p.PlusTotal()),
		Minus:   side(d.opt.Minus, p.MinusHZ(), p.MinusTotal()),
		Scaling: scaling,
		Rows:    []ImpactRow{},
	}
	total := p.TotalAbsSelfDelta()
	if total <= 0 {
		total = 1
	}
	for _, i := range d.rows() {
		f := &p.Functions[i]
		r := ImpactRow{
			Name: d.fname(i), Symbol: f.Name,
			PlusPresent: f.Plus.Present, MinusPresent: f.Minus.Present,
			PlusSelf: f.Plus.Self, MinusSelf: f.Minus.Self, SelfDelta: f.SelfDelta(),
			PlusTotal: f.Plus.PropSelf + f.Plus.Children, MinusTotal: f.Minus.PropSelf + f.Minus.Children, TotalDelta: f.TotalDelta(),
			PlusCalls: f.Plus.Calls, MinusCalls: f.Minus.Calls, CallsDelta: f.CallsDelta(),
			ImpactPct:   100 * f.SelfDelta() / total,
			WithinNoise: d.noisy(i),
		}
		if f.Minus.Self != 0 {
			ratio := f.Plus.Self / f.Minus.Self
			r.Ratio = &ratio
		}
		data.Rows = append(data.Rows, r)
	}
	return data
}

// WriteImpactJSON writes the impact table's data as indented JSON.
func WriteImpactJSON(w io.Writer, data ImpactData) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(data)
}

// WriteImpactTSV writes the impact table's data as tab-separated values:
// "#" lines with the header facts, then a header row and one row per
// function.
func WriteImpactTSV(w io.Writer, data ImpactData) error {
	bw := bufio.NewWriter(w)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	clean := strings.NewReplacer("\t", " ", "\n", " ")
	for _, s := range []struct {
		sign string
		side SideData
	}{{"plus", data.Plus}, {"minus", data.Minus}} {
		bw.WriteString("#" + s.sign + "\texecutable=" + clean.Replace(s.side.Exe) + "\tfiles=" + strconv.Itoa(len(s.side.Files)) +
			"\tsample_period_s=" + g(s.side.SamplePeriod) + "\ttotal_s=" + g(s.side.TotalSeconds) + "\n")
	}
	bw.WriteString("#scaling\t" + data.Scaling + "\n")
	bw.WriteString(strings.Join([]string{"name", "symbol", "plus_present", "minus_present", "plus_self_s", "minus_self_s", "self_delta_s",
		"plus_total_s", "minus_total_s", "total_delta_s", "plus_calls", "minus_calls", "calls_delta", "ratio", "impact_pct", "within_noise"}, "\t") + "\n")
	for _, r := range data.Rows {
		ratio := ""
		if r.Ratio != nil {
			ratio = g(*r.Ratio)
		}
		row := []string{clean.Replace(r.Name), clean.Replace(r.Symbol), strconv.FormatBool(r.PlusPresent), strconv.FormatBool(r.MinusPresent),
			g(r.PlusSelf), g(r.MinusSelf), g(r.SelfDelta), g(r.PlusTotal), g(r.MinusTotal), g(r.TotalDelta),
			strconv.FormatUint(r.PlusCalls, 10), strconv.FormatUint(r.MinusCalls, 10), strconv.FormatInt(r.CallsDelta, 10),
			ratio, g(r.ImpactPct), strconv.FormatBool(r.WithinNoise)}
		bw.WriteString(strings.Join(row, "\t") + "\n")
	}
	return bw.Flush()
}
