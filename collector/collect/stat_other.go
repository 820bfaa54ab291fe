//go:build !linux && !darwin

package collect

import (
	"os"
	"time"
)

func statTimes(path string) (fileMeta, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileMeta{}, err
	}
	m := fileMeta{mode: uint32(fi.Mode().Perm()), size: fi.Size(), mtime: fi.ModTime().UTC(), uid: -1, gid: -1}
	m.atime, m.ctime, m.btime = platformTimes(fi)
	return m, nil
}

var _ = time.Time{}

const openFlags = os.O_RDONLY

const noatime = 0
