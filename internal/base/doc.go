// Package base groups the small generic helpers every layer may use: the
// error kinds that map to exit codes and HTTP statuses (errs), regular
// expressions compiled on first use (lazyre), close-match suggestions
// (fuzzy) and the bound on a directory of cache files (keepnewest). Each
// is its own package; this one holds nothing but this comment. Nothing
// here knows about instructions.
package base
