package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/ranks"
)

// rankReport analyses a synthetic job of p ranks (rankSummary) with the
// default options.
func rankReport(t *testing.T, p int) *ranks.Report {
	t.Helper()
	rep, err := ranks.Analyze(rankSummary(t, p), ranks.AnalyzeOptions{})
	require.NoError(t, err)
	return rep
}

// rankSummary folds a synthetic job of p ranks over a hand-made layout:
// "solve" is heavier on every fourth rank, "halo" grows with the rank,
// "MPI_Barrier" is balanced, "io_flush" runs on rank 0 only.
func rankSummary(t *testing.T, p int) *ranks.Summary {
	t.Helper()
	acts := ranks.DefaultActivities()
	l := &ranks.Layout{
		Config:     ranks.Config{Regions: "function", Activities: acts},
		Regions:    []string{"solve", "halo", "MPI_Barrier", "io_flush", "main"},
		Activities: []string{acts[0].Name, acts[1].Name, acts[2].Name, acts[3].Name, acts[4].Name, ranks.Computation},
		Cells:      []ranks.Cell{{Region: 0, Activity: 5}, {Region: 1, Activity: 0}, {Region: 2, Activity: 2}, {Region: 3, Activity: 4}, {Region: 4, Activity: 5}},
	}
	s := ranks.NewSummary("prog", l, ranks.DefaultTopK)
	r := rand.New(rand.NewPCG(41, 42))
	for rank := range p {
		tm := make([]uint64, len(l.Cells))
		calls := make([]uint64, len(l.Cells))
		tm[0] = uint64(200+r.IntN(20)) * ranks.FixedOne
		if rank%4 == 0 {
			tm[0] *= 2
		}
		tm[1] = uint64(50+100*rank/p+r.IntN(5)) * ranks.FixedOne
		tm[2] = 30 * ranks.FixedOne
		if rank == 0 {
			tm[3] = 40 * ranks.FixedOne
		}
		calls[4] = 1
		require.NoError(t, s.AddRank(rank, fmt.Sprintf("gmon.rank%d", rank), 100, tm, calls))
	}
	require.NoError(t, s.Normalize())
	return s
}

// The line under each table names the candidates and the criterion; a
// threshold is not printed twice, and a criterion that picks nothing
// says why.
func TestRankCandidateLines(t *testing.T) {
	balanced := func() *ranks.Summary {
		l := &ranks.Layout{Config: ranks.Config{Regions: "function"}, Regions: []string{"a", "b"},
			Activities: []string{ranks.Computation}, Cells: []ranks.Cell{{Region: 0, Activity: 0}, {Region: 1, Activity: 0}}}
		s := ranks.NewSummary("prog", l, ranks.DefaultTopK)
		for rank := range 4 {
			require.NoError(t, s.AddRank(rank, fmt.Sprintf("gmon.rank%d", rank), 100, []uint64{3 * ranks.FixedOne, 5 * ranks.FixedOne}, []uint64{1, 1}))
		}
		require.NoError(t, s.Normalize())
		return s
	}()
	tests := []struct {
		name      string
		s         *ranks.Summary
		criterion string
		want      []string // lines of the report, with %s for the cut of the regions' SID_C
		cut       bool
	}{
		{"maximum", rankSummary(t, 16), "max", []string{"Candidates for tuning among the code regions (SID_C the maximum, %s): solve."}, true},
		{"percentile", rankSummary(t, 16), "p80", []string{"Candidates for tuning among the code regions (SID_C at or above the 80th percentile, %s): solve."}, true},
		{"threshold", rankSummary(t, 16), "0.00001", []string{
			"Candidates for tuning among the activities (SID_A above 1e-05): ",
			"Candidates for tuning among the code regions (SID_C above 1e-05): "}, false},
		{"threshold too high", rankSummary(t, 16), "2", []string{
			"No candidates among the activities: no SID_A is above 2.",
			"No candidates among the code regions: no SID_C is above 2."}, false},
		{"balanced", balanced, "max", []string{
			"No candidates among the activities: every SID_A is 0 (the ranks are balanced).",
			"No candidates among the code regions: every SID_C is 0 (the ranks are balanced)."}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ranks.ParseCriterion(tt.criterion)
			require.NoError(t, err)
			rep, err := ranks.Analyze(tt.s, ranks.AnalyzeOptions{Criterion: c})
			require.NoError(t, err)
			var b bytes.Buffer
			require.NoError(t, RankText(&b, rep, RankOptions{Brief: true}))
			for _, w := range tt.want {
				if tt.cut {
					w = fmt.Sprintf(w, rep.Cut.Format(5))
				}
				assert.Contains(t, b.String(), w)
			}
			assert.NotContains(t, b.String(), "above zero")
		})
	}
}

func TestRankText(t *testing.T) {
	rep := rankReport(t, 256)
	var b bytes.Buffer
	require.NoError(t, RankText(&b, rep, RankOptions{Brief: true, AfterOther: true}))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "\f\nMPI rank analysis: 256 ranks (0-255)"), out)
	for _, want := range []string{
		"Activities, most costly imbalance (SID_A) first:",
		"Code regions, most costly imbalance (SID_C) first (5 of 5):",
		"Spread of the ranks' times",
		"Time of each activity in the top regions (seconds, the paper's Table 6) and its\nindex of dispersion over the ranks (ID_ij, Table 7):",
		"Clusters of ranks",
		"0-252 every 4th",
		"Clusters of code regions",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "NaN")
	assert.Contains(t, out, "undefined", "main has calls but no time")
	assert.Contains(t, out, "counts as zero time", "said even with -b")
	assert.NotContains(t, out, "Times are self seconds", "-b: no explanations")
	// solve's ranks take 400 samples or more: its spread row is counted
	// from buckets, and ~ (elsewhere a change within noise) is named even
	// under -b.
	assert.Contains(t, out, "  solve ~\n")
	assert.Contains(t, out, "\n~ median, low15% and high15% approximate (ranks of 256 samples or more)\n")

	b.Reset()
	require.NoError(t, RankText(&b, rep, RankOptions{Top: 2}))
	out = b.String()
	assert.True(t, strings.HasPrefix(out, "MPI rank analysis"))
	assert.Contains(t, out, "(2 of 5)")
	assert.Contains(t, out, "Times are self seconds")
	assert.Contains(t, out, "~ marks regions where some ranks took 256 samples or more")
	assert.NotContains(t, out, "~ median, low15% and high15% approximate", "the explanation says it")
	for _, line := range strings.Split(out, "\n") {
		assert.LessOrEqual(t, len(line), 200, "%q", line)
	}
}

func TestRankTSVAndJSON(t *testing.T) {
	rep := rankReport(t, 16)
	var b bytes.Buffer
	require.NoError(t, RankTSV(&b, rep))
	var tables []string
	for _, line := range strings.Split(b.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "#table\t"); ok {
			tables = append(tables, name)
		}
	}
	assert.Equal(t, []string{"summary", "activities", "regions", "matrix", "rank_clusters", "region_clusters"}, tables)

	b.Reset()
	require.NoError(t, RankJSON(&b, rep))
	var back ranks.Report
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, rep.Regions, back.Regions)
	assert.Equal(t, rep.Activities, back.Activities)
	assert.Equal(t, rep.P, back.P)
	// Every cluster has a list of separating regions, empty rather than
	// null where none differs by 5% (JSON readers iterate it).
	for _, p := range []int{1, 16} { // one rank: one cluster, nothing separates it
		b.Reset()
		require.NoError(t, RankJSON(&b, rankReport(t, p)))
		var raw struct {
			RankClusters []map[string]json.RawMessage `json:"rank_clusters"`
		}
		require.NoError(t, json.Unmarshal(b.Bytes(), &raw))
		require.NotEmpty(t, raw.RankClusters)
		for _, c := range raw.RankClusters {
			assert.NotEqual(t, "null", string(c["separating"]), "%d ranks", p)
		}
	}
}

func TestShortRanks(t *testing.T) {
	var every4, others, many []int
	for r := range 1024 {
		if r%4 == 0 {
			every4 = append(every4, r)
		} else {
			others = append(others, r)
		}
		if r%3 != 1 {
			many = append(many, r)
		}
	}
	assert.Equal(t, "0-3", shortRanks(clusterOf([]int{0, 1, 2, 3})))
	assert.Equal(t, "0-1020 every 4th", shortRanks(clusterOf(every4)))
	got := shortRanks(clusterOf(others))
	assert.True(t, strings.HasSuffix(got, ",..."), got)
	assert.LessOrEqual(t, len(got), 64)
	assert.Equal(t, "0-1022 every 2nd", shortRanks(clusterOf(evens(1024))))
	_ = many
}

// clusterOf is the cluster of these ascending ranks, as Analyze describes
// one.
func clusterOf(members []int) ranks.RankCluster {
	c := ranks.RankCluster{Ranks: ranks.FormatRanks(members), Size: len(members), First: members[0], Last: members[len(members)-1]}
	if len(members) > 1 {
		c.Spacing = members[1] - members[0]
	}
	for i := 2; i < len(members); i++ {
		if members[i]-members[i-1] != c.Spacing {
			c.Spacing = 0
		}
	}
	return c
}

func evens(n int) []int {
	var out []int
	for i := 0; i < n; i += 2 {
		out = append(out, i)
	}
	return out
}
