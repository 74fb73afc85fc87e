#!/bin/sh
# Launcher wrapper: each MPI rank writes its profile to gmon.rankR.PID
# (R from Open MPI, MPICH/Hydra or Slurm). Use: mpirun -np 4 ./gmon-by-rank.sh ./prog
GMON_OUT_PREFIX=gmon.rank${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-0}}} exec "$@"
