// Package mpi is the small part of MPI that egprof uses to reduce the
// files of a job where the job ran: process rank and count, byte messages
// between two processes, a broadcast from process 0, and a binomial-tree
// reduction over those.
//
// Built with the build tag mpi (and cgo), the processes are those of
// MPI_COMM_WORLD, through a minimal C layer over the system's MPI (Open MPI
// or MPICH; scripts/build-mpi.sh finds the compiler and linker flags with
// pkg-config or the MPI compiler wrapper). The layer is written here
// because no Go binding of MPI is served by the module proxy egprof builds
// from, and egprof needs only point-to-point byte messages, a broadcast
// and an abort. Without the tag the package is pure Go and a program is
// always one process.
package mpi
