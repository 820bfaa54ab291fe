package surface

import (
	"io/fs"
	"syscall"
	"time"
)

// statTimes gives a walked file's access and creation times (Windows keeps
// no inode change time in this structure; zero).
func statTimes(fi fs.FileInfo) (atime, ctime, btime time.Time) {
	d, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return
	}
	return time.Unix(0, d.LastAccessTime.Nanoseconds()).UTC(), time.Time{}, time.Unix(0, d.CreationTime.Nanoseconds()).UTC()
}
