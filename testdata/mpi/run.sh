#!/bin/sh
# run.sh OUTDIR [NP]: builds imbalance.c with mpicc -pg into OUTDIR and runs
# it on NP ranks (default 4) with one gmon file per rank, named by rank
# through gmon-by-rank.sh. Needs Open MPI (Debian: openmpi-bin and
# libopenmpi-dev) or another MPI whose mpirun accepts these options.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR [NP]}
np=${2:-4}
mkdir -p "$out"
cd "$out"
rm -f gmon.rank*
# Functions aligned to 16 bytes start on a histogram bin boundary, so no
# bin is shared between two functions and every sample is a whole sample.
mpicc -pg -O0 -g -falign-functions=16 -o imbalance "$here/imbalance.c"
mpirun --allow-run-as-root --oversubscribe -np "$np" sh "$here/gmon-by-rank.sh" ./imbalance
ls gmon.rank*
