//go:build !windows

package collect

// profileListHomes is Windows only (the registry's ProfileList).
func profileListHomes() []string { return nil }
