// Package ranks aggregates the per-rank profiles of an MPI job into load-imbalance indices (Calzarossa, Massari and Tessera), statistics, clusters and mergeable summaries.
package ranks
