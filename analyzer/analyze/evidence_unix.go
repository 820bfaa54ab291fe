//go:build unix

package analyze

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openIn opens rel inside the tree at root by the evidence rule: each
// folder on the way is opened with openat(O_NOFOLLOW|O_DIRECTORY) from the
// one before, so no component can be a link, even one swapped in while
// the analyzer runs; the last is checked with fstatat before it is opened
// (a device is never opened), opened O_NOFOLLOW|O_NONBLOCK, and checked
// again with fstat. root itself is the examiner's input and may be a link.
func openIn(root, rel string) (*os.File, error) {
	comps, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	dfd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	defer func() { unix.Close(dfd) }()
	for i, c := range comps {
		var st unix.Stat_t
		if err := unix.Fstatat(dfd, c, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return nil, &fs.PathError{Op: "stat", Path: filepath.Join(root, rel), Err: err}
		}
		m := modeOf(uint32(st.Mode))
		last := i == len(comps)-1
		if !last {
			if !m.IsDir() {
				return nil, linkOnTheWay(rel, comps, i, m)
			}
			nfd, err := unix.Openat(dfd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
					return nil, linkOnTheWay(rel, comps, i, fs.ModeSymlink)
				}
				return nil, &fs.PathError{Op: "open", Path: filepath.Join(root, rel), Err: err}
			}
			unix.Close(dfd)
			dfd = nfd
			continue
		}
		if !m.IsRegular() {
			return nil, notRegular(rel, m)
		}
		fd, err := unix.Openat(dfd, c, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			if errors.Is(err, unix.ELOOP) {
				return nil, notRegular(rel, fs.ModeSymlink)
			}
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(root, rel), Err: err}
		}
		var fst unix.Stat_t
		if err := unix.Fstat(fd, &fst); err != nil || modeOf(uint32(fst.Mode))&fs.ModeType != 0 || fst.Ino != st.Ino || fst.Dev != st.Dev {
			unix.Close(fd)
			return nil, &unsafePath{rel, "changed while it was opened"}
		}
		return os.NewFile(uintptr(fd), filepath.Join(root, filepath.FromSlash(rel))), nil
	}
	return nil, &unsafePath{rel, "not a path inside the tree"}
}

func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
