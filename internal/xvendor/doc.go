// Package xvendor groups the knowledge that spans families and vendors:
// the AMD <-> PTX concept catalogue (concepts), what changed between
// generations and PTX versions (famdiff), the differences between the AMD
// and PTX models found by evaluation (semdiff), and what people call an
// operation (synonyms). Each is its own package; this one holds nothing but
// this comment.
package xvendor
