package fuzzy

import (
	"reflect"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"v_max_f32", "v_max_f32", 0},
		{"v_max_f23", "v_max_f32", 1}, // transposition
		{"v_max_f3", "v_max_f32", 1},
		{"v_mux_f32", "v_max_f32", 1},
		{"s_add_u32", "v_max_f32", 5},
		{"ñb", "nb", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"v_max_f32", "v_max_f16", "v_min_f32", "v_max_i32", "s_max_i32", "v_fma_f32"}
	got := Closest("v_max_f23", names, 3)
	want := []string{"v_max_f32", "v_max_f16", "v_max_i32"} // both two edits away: alphabetical
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Closest = %v, want %v", got, want)
	}
	if got := Closest("zzzzzzzzzz", names, 3); len(got) != 0 {
		t.Errorf("Closest(nonsense) = %v, want none", got)
	}
}

func FuzzDistance(f *testing.F) {
	f.Add("v_max_f32", "v_max_f23")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Distance(a, b)
		if d < 0 || d > max(len([]rune(a)), len([]rune(b))) {
			t.Fatalf("Distance(%q,%q) = %d out of range", a, b, d)
		}
		if (d == 0) != (a == b) && string([]rune(a)) == a && string([]rune(b)) == b {
			t.Fatalf("Distance(%q,%q) = %d", a, b, d)
		}
	})
}
