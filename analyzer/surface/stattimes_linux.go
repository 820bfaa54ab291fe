package surface

import (
	"io/fs"
	"syscall"
	"time"
)

// statTimes gives a walked file's access and inode change times (Linux
// stat has no birth time; zero).
func statTimes(fi fs.FileInfo) (atime, ctime, btime time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	return time.Unix(st.Atim.Unix()).UTC(), time.Unix(st.Ctim.Unix()).UTC(), time.Time{}
}
