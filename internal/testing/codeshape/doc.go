// Package codeshape holds tests of the code's shape rather than its
// behaviour: no function of the program (cmd/ and internal/, tests aside)
// grows past maxLines, so a step that grows gets a name of its own; every
// folder says what it owns; internal/ keeps its twelve domains.
package codeshape
