// Command loadbench compares `gpuisa serve` with nginx serving `gpuisa
// export` of the same database on loopback, with wrk: see package
// internal/serve/loadbench. Run it from the repository root:
//
//	go run ./cmd/loadbench --db gpuisa.db
package main

import (
	"os"

	"github.com/gpuisa/gpuisa/internal/serve/loadbench"
)

func main() { os.Exit(loadbench.Main(os.Args[1:], os.Stdout, os.Stderr)) }
