//go:build darwin

package collect

import (
	"os"
	"syscall"
	"time"
)

func statTimes(path string) (fileMeta, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileMeta{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	m := fileMeta{mode: uint32(fi.Mode().Perm()), size: fi.Size(), mtime: fi.ModTime().UTC(), uid: -1, gid: -1}
	if ok {
		m.mode = uint32(st.Mode)
		m.uid, m.gid = int64(st.Uid), int64(st.Gid)
		m.atime = time.Unix(st.Atimespec.Unix()).UTC()
		m.ctime = time.Unix(st.Ctimespec.Unix()).UTC()
		m.btime = time.Unix(st.Birthtimespec.Unix()).UTC()
	}
	return m, nil
}

const openFlags = syscall.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

const noatime = 0

// dirOpen opens the folders on the way to a file (openUnder).
const dirOpen = syscall.O_RDONLY
