package surface

import (
	"io/fs"
	"syscall"
	"time"
)

// statTimes gives a walked file's access, inode change and birth times.
func statTimes(fi fs.FileInfo) (atime, ctime, btime time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	return time.Unix(st.Atimespec.Unix()).UTC(), time.Unix(st.Ctimespec.Unix()).UTC(), time.Unix(st.Birthtimespec.Unix()).UTC()
}
