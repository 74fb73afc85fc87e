//go:build unix

package cli

import (
	"os"
	"syscall"
)

// peakKB returns the peak resident set of a finished process, in
// kilobytes (getrusage's unit on Linux).
func peakKB(ps *os.ProcessState) float64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Maxrss)
	}
	return 0
}
