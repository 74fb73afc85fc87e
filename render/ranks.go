package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/egprof/egprof/ranks"
)

// RankOptions are the display settings of the rank analysis.
type RankOptions struct {
	Brief bool // -b: no explanations
	// Top is the number of regions listed in the text tables
	// (ranks.DefaultTop when 0); TSV and JSON list every region.
	Top int
	// AfterOther tells that other sections were printed before, so the
	// analysis starts with a form feed like every gprof section after the
	// first.
	AfterOther bool
}

// RankText writes the rank analysis as aligned text tables.
func RankText(w io.Writer, r *ranks.Report, opt RankOptions) error {
	bw := bufio.NewWriter(w)
	top := opt.Top
	if top <= 0 {
		top = ranks.DefaultTop
	}
	para := func(s string) {
		if !opt.Brief {
			bw.WriteString(wrap(s, 78) + "\n")
			bw.WriteString("\n")
		}
	}
	if opt.AfterOther {
		bw.WriteString("\f\n")
	}
	nRegions := len(r.Regions)
	fmt.Fprintf(bw, "MPI rank analysis: %d %s (%s), %s seconds in %d code %s, sampled at %d Hz\n",
		r.P, rankPlural(r.P, "rank", "ranks"), r.RankList, fixed(r.TotalSeconds, 0, 2), nRegions, rankPlural(nRegions, "region", "regions"), r.HZ)
	if r.Time == ranks.TimeInclusive {
		bw.WriteString("A region's time is inclusive: its own and that of everything it calls (--rank-time=inclusive).\n")
	}
	bw.WriteString("A rank that never ran a region counts as zero time in it.\n\n")
	timeText := "Times are self seconds: a region holds its functions' samples, and the " +
		"time of the functions of an activity other than computation that it calls, " +
		"handed up the call graph as gprof hands a callee's time to its callers."
	if r.Time == ranks.TimeInclusive {
		timeText = "A region's time is its function's self time and the time of everything " +
			"it calls, as gprof's call graph shows them (self plus children), each part in " +
			"the activity of the function it was sampled in; shares are of the program's " +
			"time, which inclusive times overlap. The activities' times count every sample once."
	}
	para(timeText + " Seconds are summed over the ranks unless marked per rank. " +
		"Every index is taken over all ranks. The index of dispersion ID (Calzarossa, Massari and " +
		"Tessera) is the distance between the ranks' shares of a time and the equal " +
		"share 1/P: 0 when perfectly balanced, up to sqrt(1-1/P) when one rank does " +
		"everything. The scaled index SID weighs it by the share of the total time, " +
		"so the largest SID marks the imbalance that costs most.")

	// Activities.
	bw.WriteString("Activities, most costly imbalance (SID_A) first:\n\n")
	at := newTextTable("activity", ">seconds", ">share", ">ID_A", ">SID_A", ">regions", "heaviest region", "lightest region")
	var candA []string
	for _, a := range r.Activities {
		if a.Candidate {
			candA = append(candA, a.Name)
		}
	}
	for _, cells := range RankActivityRows(r) {
		at.row(cells...)
	}
	at.write(bw, "")
	bw.WriteString("\n")
	if r.DominantActivity != "" {
		fmt.Fprintf(bw, "Dominant activity: %s. Dominant code region: %s.\n", r.DominantActivity, r.DominantRegion)
	}
	candidateLine(bw, "activities", "SID_A", r, r.CutA, candA)
	para("ID_A averages the indices of an activity over the regions, weighted by " +
		"the regions' time in it; SID_A scales ID_A by the activity's share of the " +
		"total time. The heaviest and lightest regions are those with the most and " +
		"the least time in the activity among the regions that perform it. * marks " +
		"the candidates for tuning by the criterion (--rank-criterion).")

	// Regions and their indices.
	shown := r.Regions[:min(top, len(r.Regions))]
	fmt.Fprintf(bw, "Code regions, most costly imbalance (SID_C) first (%d of %d):\n\n", len(shown), len(r.Regions))
	rt := newTextTable(">SID_C", ">ID_C", ">seconds", ">share", "activity", ">calls", ">ID_calls", "name")
	var cand []string
	for _, g := range r.Regions {
		if g.Candidate {
			cand = append(cand, g.Name)
		}
	}
	for _, g := range shown {
		name := g.Name
		if g.Candidate {
			name += " *"
		}
		rt.row(g.SID.Format(5), g.ID.Format(5), fixed(g.Seconds, 0, 2), rankPct(g.Share), g.Activity,
			strconv.FormatUint(g.Calls, 10), g.CallsID.Format(5), name)
	}
	rt.write(bw, "")
	bw.WriteString("\n")
	candidateLine(bw, "code regions", "SID_C", r, r.Cut, cand)
	para("ID_C averages a region's indices over its activities, weighted by its " +
		"time in each; SID_C scales ID_C by the region's share of the total time. " +
		"The activity column names the activity that holds most of the region's time. " +
		"ID_calls is the same index over the ranks' call counts: 0 when every rank " +
		"made the same number of calls.")

	// Spread per region.
	bw.WriteString("Spread of the ranks' times in these regions (seconds per rank):\n\n")
	st := newTextTable(">mean", ">median", ">min", ">rank", ">max", ">rank", ">idle", ">stdev", ">CV", ">max/mean", ">low15%", ">high15%", "name")
	spread, approx := RankSpreadRows(shown)
	for _, cells := range spread {
		st.row(cells...)
	}
	st.write(bw, "")
	bw.WriteString("\n")
	para("min and max are reached first by the rank shown; idle counts the ranks " +
		"with no time in the region. CV is the standard deviation over the mean " +
		"(population formula); max/mean is how much longer the slowest rank took " +
		"than the average. low15% and high15% are the shares of ranks whose time " +
		"falls in the lowest and highest 15% of the region's range [min, max].")
	if approx {
		if opt.Brief {
			// Elsewhere ~ marks a change within noise: the mark is named
			// even without explanations.
			bw.WriteString("~ median, low15% and high15% approximate (ranks of 256 samples or more)\n\n")
		}
		para("~ marks regions where some ranks took 256 samples or more: their median, low15% " +
			"and high15% are counted from buckets at most 0.8% wide.")
	}

	// The paper's Tables 6 and 7 side by side.
	if len(r.Matrix.Regions) > 0 && len(r.Matrix.Activities) > 0 {
		acts := r.Matrix.Activities
		bw.WriteString("Time of each activity in the top regions (seconds, the paper's Table 6) and its\n" +
			"index of dispersion over the ranks (ID_ij, Table 7):\n\n")
		cols := []string{">t_i"}
		for _, a := range acts {
			cols = append(cols, ">"+a)
		}
		for _, a := range acts {
			cols = append(cols, ">"+a)
		}
		mt := newTextTable(append(cols, ">ID_C", "name")...)
		for _, cells := range RankMatrixRows(r) {
			mt.row(cells...)
		}
		n := len(acts)
		mt.writeGroups(bw, "", []colGroup{{1, n, "t_ij (seconds)"}, {n + 1, 2 * n, "ID_ij"}})
		mt.write(bw, "")
		bw.WriteString("\n")
		para("t_i is the region's time, t_ij its time in each activity. A dash marks an " +
			"activity the region does not perform. ID_C is the region's index over all " +
			"its activities: the ID_ij weighted by the region's time in each.")
	}

	// Clusters of ranks.
	if len(r.ClusterRegions) > 0 {
		fmt.Fprintf(bw, "Clusters of ranks (k-means over their times in the %d most imbalanced regions):\n\n", len(r.ClusterRegions))
	} else {
		bw.WriteString("Clusters of ranks:\n\n")
	}
	ct := newTextTable(">cluster", ">ranks", "members", "what sets it apart")
	for _, cells := range RankClusterRows(r) {
		ct.row(cells...)
	}
	ct.write(bw, "")
	bw.WriteString("\n")
	if len(r.RankClusters) > 1 {
		para(fmt.Sprintf("The number of clusters is the one with the widest mean silhouette (%.2f). "+
			"Next to each cluster are the regions where its ranks' mean time differs most "+
			"from the other ranks', relative to the region's mean time per rank and in "+
			"seconds per rank.", r.RankSilhouette))
	} else {
		para("No grouping of the ranks reaches a mean silhouette of 0.25, so the ranks form one cluster.")
	}
	if r.Truncated > 0 {
		fmt.Fprintf(bw, "Note: %d %s kept only %d heaviest regions; %s time in other regions counts as zero in the clusters and plots.\n\n",
			r.Truncated, rankPlural(r.Truncated, "rank", "ranks"), r.TopK, rankPlural(r.Truncated, "its", "their"))
	}

	// Clusters of regions.
	if len(r.RegionClusters) > 0 {
		bw.WriteString("Clusters of code regions (k-means over their standardised activity times):\n\n")
		cols := []string{">cluster", ">regions", ">seconds", ">share"}
		for _, a := range r.Matrix.Activities {
			cols = append(cols, ">"+a)
		}
		gt := newTextTable(append(cols, "heaviest members")...)
		for _, cells := range RankRegionClusterRows(r) {
			gt.row(cells...)
		}
		gt.write(bw, "")
		bw.WriteString("\n")
		para("Each region is described by its time in each activity, standardised so " +
			"that every activity weighs the same; the activity columns give the mix of " +
			"each cluster's time.")
	}
	return bw.Flush()
}

// RankActivityRows are the cells of the text report's table of
// activities, a row per activity: name (with " *" for a candidate),
// seconds, share, ID_A, SID_A, regions, heaviest and lightest region.
func RankActivityRows(r *ranks.Report) [][]string {
	rows := make([][]string, 0, len(r.Activities))
	for _, a := range r.Activities {
		name := a.Name
		if a.Candidate {
			name += " *"
		}
		rows = append(rows, []string{name, fixed(a.Seconds, 0, 2), rankPct(a.Share), a.ID.Format(5), a.SID.Format(5),
			strconv.Itoa(a.Regions), a.Heaviest, a.Lightest})
	}
	return rows
}

// RankMatrixRows are the cells of the text report's matrix of the top
// regions by the activities (r.Matrix), a row per region: its time t_i,
// its time in each activity t_ij, the index ID_ij of each ("-" for both
// where the region does not perform the activity), ID_C and the name.
func RankMatrixRows(r *ranks.Report) [][]string {
	acts := r.Matrix.Activities
	rows := make([][]string, 0, len(r.Matrix.Regions))
	for i, name := range r.Matrix.Regions {
		var total float64
		secs := make([]string, 0, len(acts))
		ids := make([]string, 0, len(acts))
		for j := range acts {
			v := r.Matrix.Seconds[i][j]
			total += v
			if v == 0 {
				secs = append(secs, "-")
				ids = append(ids, "-")
				continue
			}
			secs = append(secs, fixed(v, 0, 2))
			ids = append(ids, r.Matrix.ID[i][j].Format(5))
		}
		cells := append([]string{fixed(total, 0, 2)}, secs...)
		cells = append(cells, ids...)
		idc := "undefined"
		if i < len(r.Matrix.IDC) {
			idc = r.Matrix.IDC[i].Format(5)
		}
		rows = append(rows, append(cells, idc, name))
	}
	return rows
}

// RankClusterRows are the cells of the text report's clusters of ranks:
// the cluster's number, its size, its ranks (cut when long) and the
// regions that set it apart.
func RankClusterRows(r *ranks.Report) [][]string {
	rows := make([][]string, 0, len(r.RankClusters))
	for k, c := range r.RankClusters {
		var apart []string
		for _, s := range c.Separating {
			apart = append(apart, fmt.Sprintf("%s %+.0f%% (%+.3gs)", s.Region, 100*s.Difference, s.Seconds))
		}
		rows = append(rows, []string{strconv.Itoa(k + 1), strconv.Itoa(c.Size), shortRanks(c), strings.Join(apart, ", ")})
	}
	return rows
}

// RankRegionClusterRows are the cells of the text report's clusters of
// code regions: the cluster's number, its regions, seconds, share, the
// share of each of r.Matrix.Activities in its time, and its heaviest
// members.
func RankRegionClusterRows(r *ranks.Report) [][]string {
	rows := make([][]string, 0, len(r.RegionClusters))
	for k, c := range r.RegionClusters {
		cells := []string{strconv.Itoa(k + 1), strconv.Itoa(c.Size), fixed(c.Seconds, 0, 2), rankPct(c.Share)}
		for _, m := range c.Mix {
			cells = append(cells, rankPct(m))
		}
		members := strings.Join(c.Members, ", ")
		if c.More > 0 {
			members += fmt.Sprintf(" and %d more", c.More)
		}
		rows = append(rows, append(cells, members))
	}
	return rows
}

// RankSpreadRows are the cells of the text report's spread of the ranks'
// times in the regions: mean, median, min and its rank, max and its rank,
// idle ranks, stdev, CV, max/mean, low15%, high15% and the name, marked
// " ~" where the median and shares were counted from buckets (approx then
// tells that a row is marked).
func RankSpreadRows(regions []ranks.RegionRow) (rows [][]string, approx bool) {
	rows = make([][]string, 0, len(regions))
	for _, g := range regions {
		name := g.Name
		if !g.Exact && (g.Low.Defined || g.High.Defined) {
			name += " ~"
			approx = true
		}
		rows = append(rows, []string{fixed(g.Mean, 0, 4), fixed(g.Median, 0, 4), fixed(g.Min, 0, 4), strconv.Itoa(g.MinRank), fixed(g.Max, 0, 4), strconv.Itoa(g.MaxRank),
			strconv.Itoa(g.ZeroRanks), fixed(g.Stdev, 0, 4), g.CV.Format(3), g.MaxOverMean.Format(3),
			rankPctMetric(g.Low), rankPctMetric(g.High), name})
	}
	return rows, approx
}

// RankTSV writes every table of the rank analysis as tab-separated values
// in the framing of TSVTable; an undefined value (a ratio with a zero
// total) is the token n/d. The tables are: summary, activities, regions,
// matrix, rank_clusters and region_clusters.
func RankTSV(w io.Writer, r *ranks.Report) error {
	bw := bufio.NewWriter(w)
	table := func(name string, header []string, rows [][]string) {
		// Errors stay in bw and come back from Flush.
		_ = TSVTable(bw, name, header, rows)
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	m := func(v ranks.Metric) string {
		if !v.Defined {
			return "n/d"
		}
		return g(v.Value)
	}
	table("summary", []string{"executable", "ranks", "rank_list", "hz", "total_seconds", "rank_time", "dominant_activity", "dominant_region",
		"truncated_ranks", "criterion", "cut_sid_c", "cut_sid_a"},
		[][]string{{r.Exe, strconv.Itoa(r.P), r.RankList, strconv.FormatUint(uint64(r.HZ), 10), g(r.TotalSeconds), r.Time, r.DominantActivity,
			r.DominantRegion, strconv.Itoa(r.Truncated), r.Criterion, m(r.Cut), m(r.CutA)}})
	var rows [][]string
	for _, a := range r.Activities {
		rows = append(rows, []string{a.Name, g(a.Seconds), g(a.Share), m(a.ID), m(a.SID), strconv.Itoa(a.Regions), a.Heaviest, a.Lightest,
			strconv.FormatBool(a.Candidate)})
	}
	table("activities", []string{"activity", "seconds", "share", "id_a", "sid_a", "regions", "heaviest_region", "lightest_region", "candidate"}, rows)
	rows = nil
	for _, x := range r.Regions {
		rows = append(rows, []string{x.Name, x.Activity, g(x.Seconds), g(x.Share), m(x.ID), m(x.SID),
			g(x.Mean), g(x.Median), g(x.Min), strconv.Itoa(x.MinRank), g(x.Max), strconv.Itoa(x.MaxRank), strconv.Itoa(x.ZeroRanks),
			g(x.Stdev), m(x.CV), m(x.MaxOverMean), m(x.Low), m(x.High), strconv.FormatBool(x.Exact),
			strconv.FormatUint(x.Calls, 10), g(x.CallsMean), m(x.CallsID), strconv.FormatBool(x.Candidate)})
	}
	table("regions", []string{"region", "activity", "seconds", "share", "id_c", "sid_c",
		"mean", "median", "min", "min_rank", "max", "max_rank", "zero_ranks", "stdev", "cv", "max_over_mean", "low15", "high15", "low_high_exact",
		"calls", "calls_mean", "id_calls", "candidate"}, rows)
	rows = nil
	for i, name := range r.Matrix.Regions {
		for j, a := range r.Matrix.Activities {
			if r.Matrix.Seconds[i][j] > 0 {
				rows = append(rows, []string{name, a, g(r.Matrix.Seconds[i][j]), m(r.Matrix.ID[i][j])})
			}
		}
	}
	table("matrix", []string{"region", "activity", "seconds", "id_ij"}, rows)
	rows = nil
	for k, c := range r.RankClusters {
		var apart []string
		for _, s := range c.Separating {
			apart = append(apart, s.Region+"="+g(s.Difference))
		}
		rows = append(rows, []string{strconv.Itoa(k + 1), strconv.Itoa(c.Size), c.Ranks, strings.Join(apart, ",")})
	}
	table("rank_clusters", []string{"cluster", "size", "ranks", "separating"}, rows)
	rows = nil
	for k, c := range r.RegionClusters {
		mix := make([]string, len(c.Mix))
		for j, v := range c.Mix {
			mix[j] = r.Matrix.Activities[j] + "=" + g(v)
		}
		rows = append(rows, []string{strconv.Itoa(k + 1), strconv.Itoa(c.Size), g(c.Seconds), g(c.Share), strings.Join(mix, ","),
			strings.Join(c.Members, ","), strconv.Itoa(c.More)})
	}
	table("region_clusters", []string{"cluster", "size", "seconds", "share", "activity_mix", "members", "more"}, rows)
	return bw.Flush()
}

// RankJSON writes the rank analysis as one JSON object (see ranks.Report
// for the fields); undefined values are null.
func RankJSON(w io.Writer, r *ranks.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// candidateLine names the candidates for tuning and the criterion that
// picked them, with the cut a scaled index had to reach (a threshold is
// its own cut). Without candidates it says why: nothing is above the
// threshold, or every scaled index is zero (the maximum and a percentile
// pick at least one index above zero otherwise).
func candidateLine(bw *bufio.Writer, what, index string, r *ranks.Report, cut ranks.Metric, names []string) {
	if !cut.Defined {
		return
	}
	threshold := r.CriterionKind == ranks.CriterionThreshold
	if len(names) == 0 {
		if threshold {
			fmt.Fprintf(bw, "No candidates among the %s: no %s is %s.\n\n", what, index, r.Criterion)
		} else {
			fmt.Fprintf(bw, "No candidates among the %s: every %s is 0 (the ranks are balanced).\n\n", what, index)
		}
		return
	}
	const most = 8
	list := strings.Join(names[:min(most, len(names))], ", ")
	if len(names) > most {
		list += fmt.Sprintf(" and %d more", len(names)-most)
	}
	how := index + " " + r.Criterion
	if !threshold {
		how += ", " + cut.Format(5)
	}
	fmt.Fprintf(bw, "Candidates for tuning among the %s (%s): %s.\n\n", what, how, list)
}

// shortRanks writes a cluster's ranks for the text report: as ranges
// when short, as a stride ("0-1020 every 4th") when the ranks are evenly
// spaced, else cut after about 60 characters (TSV and JSON have them all).
func shortRanks(c ranks.RankCluster) string {
	const limit = 60
	if len(c.Ranks) <= limit || c.Size < 3 {
		return c.Ranks
	}
	if c.Spacing > 1 {
		return fmt.Sprintf("%d-%d every %s", c.First, c.Last, ordinal(c.Spacing))
	}
	cut := strings.LastIndexByte(c.Ranks[:limit], ',')
	return c.Ranks[:cut] + ",..."
}

// ordinal spells 2 as "2nd", 4 as "4th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// rankPct formats a fraction as a percentage with one decimal.
func rankPct(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

// RankPercent formats a share as the rank analysis's tables print it
// ("12.5%").
func RankPercent(v float64) string { return rankPct(v) }

// rankPctMetric formats a fraction as a percentage, or "undefined".
func rankPctMetric(m ranks.Metric) string {
	if !m.Defined {
		return "undefined"
	}
	return rankPct(m.Value)
}

// rankPlural picks the singular or plural word.
func rankPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
