// Package sem owns the executable semantics of AMD's pseudocode: it lexes
// and parses the text each ISA guide gives for an instruction (parse.go,
// ast.go), checks what the evaluator can run (check.go: a Library per
// family), and evaluates it on exact-width values (value.go, types.go) with
// IEEE soft-float under the MODE register's rounding and denormal settings
// (float.go), a wave's registers and state — EXEC, SCC, VCC, MODE, TRAPSTS
// (wave.go) — and the guides' built-in functions (builtins.go). Run and
// Evaluate (run.go, request.go) are what `gpuisa eval`, /api/v1/eval and the
// pages' "Try it" call; corpus.go draws the special values the oracles
// compare on (internal/oracle/semoracle checks the results against LLVM's
// constant folding). matrix.go runs the matrix operations (MFMA, WMMA) over
// whole matrices, as their formula states them.
//
// The text is evaluated as written, read as AMD means it (a zero literal
// written with its sign compares sign-exactly: signedZeroCompare): where a
// guide's pseudocode is wrong, the evaluator is wrong the same way, and
// the oracle's tolerated table says so.
package sem
