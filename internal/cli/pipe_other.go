//go:build !linux

package cli

import "io"

// widenPipe is Linux's pipe sizing; elsewhere a pipe keeps its size.
func widenPipe(w io.Writer) {}
