package analyze

import "testing"

// TestPresence: an agent with only folder rows is "present, nothing kept";
// with files, "files kept"; with rows but nothing copied, "present,
// nothing collected".
func TestPresence(t *testing.T) {
	for _, tc := range []struct {
		st    map[string]int
		files int
		want  string
	}{
		{map[string]int{"folder": 2}, 0, "present, nothing kept"},
		{map[string]int{"folder": 2, "collected": 1}, 1, "files kept"},
		{map[string]int{"folder": 1, "symlink": 1}, 0, "present, nothing collected"},
		{map[string]int{"error_read": 1}, 0, "present, nothing collected"},
	} {
		if got := presence(tc.st, tc.files); got != tc.want {
			t.Errorf("presence(%v, %d) = %q, want %q", tc.st, tc.files, got, tc.want)
		}
	}
}
