//go:build !unix

package cli

import "errors"

// makeFIFO reports that this system has no named pipes to make.
func makeFIFO(string) error { return errors.ErrUnsupported }
