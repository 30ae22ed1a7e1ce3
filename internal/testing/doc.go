// Package testing groups what tests share: finding the upstream sources
// and tools or skipping loudly without them (testenv), the browser tests and
// the real database they run on (webtest), and tests of the code's shape
// (codeshape). Each is its own package; this one holds nothing but this
// comment.
package testing
