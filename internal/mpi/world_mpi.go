//go:build mpi && cgo

package mpi

/*
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

// MPI_COMM_WORLD and the predefined datatypes are macros over addresses in
// Open MPI, so they are reached through these small functions.
static int egp_init(void) {
	int provided = 0;
	int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
	if (rc != MPI_SUCCESS) return -1;
	if (provided < MPI_THREAD_FUNNELED) return -2;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	return 0;
}
static int egp_rank(void) { int r = -1; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
static int egp_size(void) { int n = 0; MPI_Comm_size(MPI_COMM_WORLD, &n); return n; }
static int egp_send(void *buf, int n, int to) {
	return MPI_Send(buf, n, MPI_BYTE, to, 0, MPI_COMM_WORLD);
}
static int egp_recv(void *buf, int n, int from) {
	return MPI_Recv(buf, n, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
static int egp_bcast(void *buf, int n) {
	return MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static int egp_finalize(void) { return MPI_Finalize(); }
static void egp_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
static void egp_error_string(int code, char *out, int cap) {
	int n = 0;
	if (MPI_Error_string(code, out, &n) != MPI_SUCCESS || n >= cap) n = 0;
	out[n] = 0;
}
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"unsafe"
)

// Built is true when the package drives a real MPI library.
const Built = true

// MPI is called from the main thread only (MPI_THREAD_FUNNELED): the main
// goroutine is locked to it from the start.
func init() { runtime.LockOSThread() }

// chunk bounds one MPI call's count, an int.
const chunk = 1 << 30

// world is MPI_COMM_WORLD.
type world struct{ rank, size int }

// Init starts MPI when the process was launched by an MPI launcher and
// returns its world; otherwise it returns Single.
func Init() (Comm, error) {
	if !Launched() {
		return Single{}, nil
	}
	switch C.egp_init() {
	case 0:
	case -2:
		return nil, fmt.Errorf("mpi: the MPI library does not allow calls from the main thread of a threaded program (MPI_THREAD_FUNNELED)")
	default:
		return nil, fmt.Errorf("mpi: MPI_Init_thread failed")
	}
	return &world{rank: int(C.egp_rank()), size: int(C.egp_size())}, nil
}

func (w *world) Rank() int { return w.rank }
func (w *world) Size() int { return w.size }

// check turns an MPI return code into an error.
func check(what string, rc C.int) error {
	if rc == 0 {
		return nil
	}
	var buf [512]C.char
	C.egp_error_string(rc, &buf[0], C.int(len(buf)))
	return fmt.Errorf("mpi: %s: %s", what, C.GoString(&buf[0]))
}

// pointer returns the address of p's bytes for C.
func pointer(p []byte) unsafe.Pointer {
	if len(p) == 0 {
		return nil
	}
	return unsafe.Pointer(&p[0])
}

// Send sends the length, then the bytes in chunks.
func (w *world) Send(to int, data []byte) error {
	var hdr [8]byte
	binary.LittleEndian.PutUint64(hdr[:], uint64(len(data)))
	if err := check("MPI_Send", C.egp_send(unsafe.Pointer(&hdr[0]), 8, C.int(to))); err != nil {
		return err
	}
	for off := 0; off < len(data); off += chunk {
		part := data[off:min(len(data), off+chunk)]
		if err := check("MPI_Send", C.egp_send(pointer(part), C.int(len(part)), C.int(to))); err != nil {
			return err
		}
	}
	return nil
}

// Recv receives a message sent by Send.
func (w *world) Recv(from int) ([]byte, error) {
	var hdr [8]byte
	if err := check("MPI_Recv", C.egp_recv(unsafe.Pointer(&hdr[0]), 8, C.int(from))); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(hdr[:])
	if n > uint64(^uint(0)>>1) {
		return nil, fmt.Errorf("mpi: message of %d bytes from process %d", n, from)
	}
	data := make([]byte, int(n))
	for off := 0; off < len(data); off += chunk {
		part := data[off:min(len(data), off+chunk)]
		if err := check("MPI_Recv", C.egp_recv(pointer(part), C.int(len(part)), C.int(from))); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// Bcast broadcasts process 0's length, then its bytes in chunks.
func (w *world) Bcast(data []byte) ([]byte, error) {
	var hdr [8]byte
	if w.rank == 0 {
		binary.LittleEndian.PutUint64(hdr[:], uint64(len(data)))
	}
	if err := check("MPI_Bcast", C.egp_bcast(unsafe.Pointer(&hdr[0]), 8)); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(hdr[:])
	if w.rank != 0 {
		if n > uint64(^uint(0)>>1) {
			return nil, fmt.Errorf("mpi: broadcast of %d bytes", n)
		}
		data = make([]byte, int(n))
	}
	for off := 0; off < len(data); off += chunk {
		part := data[off:min(len(data), off+chunk)]
		if err := check("MPI_Bcast", C.egp_bcast(pointer(part), C.int(len(part)))); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// Close finalizes MPI.
func (w *world) Close() error { return check("MPI_Finalize", C.egp_finalize()) }

// Abort ends every process of the world with code.
func Abort(code int) { C.egp_abort(C.int(code)) }
