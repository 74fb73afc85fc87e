//go:build !unix

package cli

import "os"

// peakKB returns 0: the peak resident set of a process is measured on
// Unix only.
func peakKB(*os.ProcessState) float64 { return 0 }
