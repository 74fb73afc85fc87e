package progen

import "context"

// BenchFiles returns the synthetic benchmark profile (BenchFuncs functions,
// BenchArcs arcs), building it on first use into DefaultBenchDir. Building
// needs gcc.
func BenchFiles(ctx context.Context) (SyntheticFiles, error) {
	return SyntheticProfile(BenchSeed, BenchFuncs, BenchArcs).Build(ctx, DefaultBenchDir())
}
