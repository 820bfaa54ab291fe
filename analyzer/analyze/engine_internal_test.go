package analyze

import (
	"runtime/debug"
	"testing"
)

// TestSecondaryMemLimit: the default budget is not a byte (which spilled a
// run file per secondary row).
func TestSecondaryMemLimit(t *testing.T) {
	for in, want := range map[int64]int64{0: 2 << 20, 64 << 20: 16 << 20, 1024: 1 << 20, 400 << 20: 100 << 20} {
		if got := secondaryMemLimit(in); got != want {
			t.Errorf("secondaryMemLimit(%d) = %d, want %d", in, got, want)
		}
	}
}

// TestSecondaryMemLimitFromTarget: with no budget given, the correlator's
// sorters take a quarter of the main sorter's, which follows the soft
// memory target (a 24th of it, 8 MiB at least).
func TestSecondaryMemLimitFromTarget(t *testing.T) {
	prev := debug.SetMemoryLimit(1200 << 20)
	defer debug.SetMemoryLimit(prev)
	if got, want := secondaryMemLimit(0), int64(1200<<20/24/4); got != want {
		t.Errorf("secondaryMemLimit(0) under a 1200 MiB target = %d, want %d", got, want)
	}
	debug.SetMemoryLimit(192 << 20)
	if got, want := secondaryMemLimit(0), int64(2<<20); got != want {
		t.Errorf("secondaryMemLimit(0) under 192 MiB = %d, want %d", got, want)
	}
	if got, want := secondaryMemLimit(64<<20), int64(16<<20); got != want {
		t.Errorf("secondaryMemLimit(64 MiB) = %d, want %d (a given budget wins)", got, want)
	}
}
