package analyze

import "testing"

// TestSecondaryMemLimit: the default budget is not a byte (which spilled a
// run file per secondary row).
func TestSecondaryMemLimit(t *testing.T) {
	for in, want := range map[int64]int64{0: 4 << 20, 64 << 20: 16 << 20, 1024: 1 << 20, 400 << 20: 100 << 20} {
		if got := secondaryMemLimit(in); got != want {
			t.Errorf("secondaryMemLimit(%d) = %d, want %d", in, got, want)
		}
	}
}
