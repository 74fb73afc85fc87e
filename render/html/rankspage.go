package html

import (
	"fmt"
	"strconv"

	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render"
)

// ranksJSON is the rank analysis of an MPI job's summed profile: the code
// regions with their indices, each row [SID_C, ID_C, seconds, share,
// activity, calls, ID_calls, name, candidate (1 or 0)] as render.RankText
// prints them, and the seconds each rank spent in the most imbalanced
// regions (Series: [region][rank], rounded to the 4 decimals the text's
// spread table prints). The activities, the matrix of the top regions by
// the activities and the clusters are the text report's cells
// (render.RankActivityRows and the like).
type ranksJSON struct {
	Summary  string   `json:"summary"`
	Dominant string   `json:"dominant,omitempty"`
	Regions  [][]any  `json:"regions"`
	Series   seriesJS `json:"series"`
	Note     string   `json:"note,omitempty"`

	Activities [][]string `json:"activities"`
	// MatrixActs are the matrix's columns (activities), MatrixRows its
	// rows: t_i, t_ij for each activity, ID_ij for each, ID_C, name.
	MatrixActs []string   `json:"matrixActs"`
	MatrixRows [][]string `json:"matrixRows"`
	// RankClusters are rows [cluster, ranks, members, what sets it
	// apart]; ClusterNote says how they were chosen.
	RankClusters [][]string `json:"rankClusters"`
	ClusterNote  string     `json:"clusterNote"`
	// RegionClusters are rows [cluster, regions, seconds, share, the
	// share of each of MatrixActs, heaviest members].
	RegionClusters [][]string `json:"regionClusters"`
	// Spread are rows [mean, median, min, rank, max, rank, idle, stdev,
	// CV, max/mean, low15%, high15%, name] of the regions the text report
	// lists (Top); Approx tells that a name is marked ~.
	Spread [][]string `json:"spread"`
	Approx bool       `json:"approx,omitempty"`
}

type seriesJS struct {
	Regions []string    `json:"regions"`
	Ranks   []int       `json:"ranks"`
	Seconds [][]float64 `json:"seconds"`
	Mean    []string    `json:"mean"`
}

// rankAnalysis formats the rank analysis's regions and series; the spread
// table lists the top regions as the text report does (top, or
// ranks.DefaultTop when 0).
func rankAnalysis(r *ranks.Report, top int) *ranksJSON {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	out := &ranksJSON{
		Summary: fmt.Sprintf("%d %s (%s), %s seconds in %d code %s, sampled at %d Hz", r.P, plural(r.P, "rank", "ranks"), r.RankList,
			secs(r.TotalSeconds), len(r.Regions), plural(len(r.Regions), "region", "regions"), r.HZ),
		Regions: [][]any{},
	}
	if r.DominantActivity != "" {
		out.Dominant = "Dominant activity: " + r.DominantActivity + ". Dominant code region: " + r.DominantRegion + "."
	}
	out.Activities = nonNil(render.RankActivityRows(r))
	out.MatrixActs = append([]string{}, r.Matrix.Activities...)
	out.MatrixRows = nonNil(render.RankMatrixRows(r))
	out.RankClusters = nonNil(render.RankClusterRows(r))
	out.RegionClusters = nonNil(render.RankRegionClusterRows(r))
	if top <= 0 {
		top = ranks.DefaultTop
	}
	spread, approx := render.RankSpreadRows(r.Regions[:min(top, len(r.Regions))])
	out.Spread, out.Approx = nonNil(spread), approx
	switch {
	case len(r.RankClusters) > 1:
		out.ClusterNote = fmt.Sprintf("k-means over the ranks' times in the %d most imbalanced regions; the number of clusters is the one with the widest mean silhouette (%.2f). "+
			"Next to each cluster are the regions where its ranks' mean time differs most from the other ranks', relative to the region's mean time per rank and in seconds per rank.",
			len(r.ClusterRegions), r.RankSilhouette)
	default:
		out.ClusterNote = "No grouping of the ranks reaches a mean silhouette of 0.25, so the ranks form one cluster."
	}
	if r.Truncated > 0 {
		out.Note = fmt.Sprintf("%d ranks kept only their %d heaviest regions: their time in the others counts as zero.", r.Truncated, r.TopK)
	}
	for _, g := range r.Regions {
		out.Regions = append(out.Regions, []any{g.SID.Format(5), g.ID.Format(5), secs(g.Seconds), render.RankPercent(g.Share), g.Activity,
			strconv.FormatUint(g.Calls, 10), g.CallsID.Format(5), g.Name, boolByte(g.Candidate)})
	}
	s := r.Series
	out.Series = seriesJS{Regions: s.Regions, Ranks: s.Ranks, Seconds: make([][]float64, len(s.Seconds)), Mean: make([]string, len(s.Mean))}
	if out.Series.Regions == nil {
		out.Series.Regions = []string{}
	}
	if out.Series.Ranks == nil {
		out.Series.Ranks = []int{}
	}
	for i, row := range s.Seconds {
		out.Series.Seconds[i] = make([]float64, len(row))
		for k, v := range row {
			out.Series.Seconds[i][k], _ = strconv.ParseFloat(render.Fixed(v, 4), 64)
		}
	}
	for i, v := range s.Mean {
		out.Series.Mean[i] = render.Fixed(v, 4)
	}
	return out
}

// nonNil is rows, or an empty list instead of nil (the page's script
// reads lists, not null).
func nonNil(rows [][]string) [][]string {
	if rows == nil {
		return [][]string{}
	}
	return rows
}
