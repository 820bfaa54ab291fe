//go:build unix

package inputs

import (
	"os"
	"syscall"
)

// ownerOf is the uid owning p (a last link not followed), or -1 when it
// cannot be read.
func ownerOf(p string) int64 {
	fi, err := os.Lstat(p)
	if err != nil {
		return -1
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1
	}
	return int64(st.Uid)
}
