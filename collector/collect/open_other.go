//go:build !linux && !darwin

package collect

import "os"

// openUnder opens path (no openat chain here: see open_unix.go).
func openUnder(root, path string, flags int) (*os.File, error) {
	return os.OpenFile(path, flags, 0)
}
