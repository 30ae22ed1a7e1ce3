package amdmanual

import "testing"

func TestContinuesSentence(t *testing.T) {
	for _, tc := range []struct {
		prev, next string
		want       bool
	}{
		{"Add two inputs and store the result", "into a vector register.", true},
		{"Add two inputs.", "then more", false},
		{"Add two inputs", "The next sentence.", false},
		{"Table:", "value", false},
		{"", "x", false},
	} {
		if got := continuesSentence(tc.prev, tc.next); got != tc.want {
			t.Errorf("continuesSentence(%q, %q) = %v", tc.prev, tc.next, got)
		}
	}
}
