// Package serve groups what answers users from a built database: the
// website and JSON API (web), the language server (lsp), the line-by-line
// explanation of listings and PTX (explain) and the load benchmark against
// nginx (loadbench). Each is its own package; this one holds nothing but
// this comment. Nothing under serve imports internal/ingest or the source
// readers (TestServingNeverImportsIngest holds it): what serving needs of
// the build is stored in the database, with its keys in internal/store.
package serve
