//go:build windows

package collect

import (
	"os"
	"syscall"
	"time"
)

func platformTimes(fi os.FileInfo) (atime, ctime, btime time.Time) {
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return time.Unix(0, d.LastAccessTime.Nanoseconds()).UTC(), time.Time{}, time.Unix(0, d.CreationTime.Nanoseconds()).UTC()
	}
	return
}
