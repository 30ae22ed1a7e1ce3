// Command gpuisa is a cross-vendor GPU instruction-set reference: every AMD
// GPU instruction (RDNA 1-4, CDNA 1-5, Vega) and every NVIDIA PTX
// instruction, built from the vendors' own documents into one SQLite
// database and served as web pages, a JSON API and this command line.
//
// Usage:
//
//	gpuisa build [--sources DIR] [--out FILE]   build the database
//	gpuisa serve [--addr :8080] [--db FILE]     serve the website and JSON API
//	gpuisa archs                                list the families
//	gpuisa list ARCH [--json]                   list a family's instructions
//	gpuisa show ARCH MNEMONIC [--json]          one instruction
//	gpuisa search QUERY [--arch ARCH] [--json]  ranked search
//	gpuisa ptx check 'INSTR' | FILE.ptx         check PTX against the documented forms
//
// Every command that reads the database takes --db FILE (default $GPUISA_DB,
// else ./gpuisa.db). Unknown architectures or mnemonics exit with status 2
// and a one-line error with close-match suggestions. Run `gpuisa help
// COMMAND` for each command's manual.
package main

import (
	"os"

	"github.com/gpuisa/gpuisa/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
