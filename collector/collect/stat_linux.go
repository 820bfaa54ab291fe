//go:build linux

package collect

import (
	"time"

	"golang.org/x/sys/unix"
)

// statTimes reads MACB times, owner and mode of path without following a
// final link. Birth time comes from statx where the filesystem records it.
func statTimes(path string) (fileMeta, error) {
	var sx unix.Statx_t
	err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_DONT_SYNC, unix.STATX_BASIC_STATS|unix.STATX_BTIME, &sx)
	if err != nil {
		return fileMeta{}, err
	}
	m := fileMeta{
		uid: int64(sx.Uid), gid: int64(sx.Gid), mode: uint32(sx.Mode), size: int64(sx.Size),
		mtime: tsx(sx.Mtime), atime: tsx(sx.Atime), ctime: tsx(sx.Ctime),
	}
	if sx.Mask&unix.STATX_BTIME != 0 && sx.Btime.Sec != 0 {
		m.btime = tsx(sx.Btime)
	}
	return m, nil
}

func tsx(t unix.StatxTimestamp) time.Time { return time.Unix(t.Sec, int64(t.Nsec)).UTC() }

const openFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

const noatime = unix.O_NOATIME

// dirOpen opens the folders on the way to a file (openUnder): O_PATH
// needs only search permission on them, as a path open does.
const dirOpen = unix.O_PATH
