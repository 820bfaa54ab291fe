//go:build unix

package inputs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// OpenIn opens rel inside the tree at root by the evidence rule: each
// folder on the way is opened with openat(O_NOFOLLOW|O_DIRECTORY) from the
// one before, so no component can be a link, even one swapped in while
// the analyzer runs; the last is checked with fstatat before it is opened
// (a device is never opened), opened O_NOFOLLOW|O_NONBLOCK, and checked
// again with fstat. root itself is the examiner's input and may be a link.
func OpenIn(root, rel string) (*os.File, error) {
	var d DirCache
	defer d.Close()
	return d.OpenIn(root, rel)
}

// maxCachedDirs bounds the folders a DirCache holds open; past it a
// folder is opened for one file and closed again.
const maxCachedDirs = 1024

// DirCache opens the files of one tree by the evidence rule (OpenIn),
// keeping each folder it opened on the way (by the rule: every component
// opened O_NOFOLLOW|O_DIRECTORY from the one before), so a folder of many
// files is opened once and each file is one fstatat and one openat from
// it. A folder held open is the folder that was checked: one swapped for
// a link later is never followed. Safe for concurrent use; close it when
// its files are all opened (the files opened stay open).
type DirCache struct {
	mu  sync.Mutex
	fds map[string]int // folder ('/' separated under root, "" the root) -> fd
}

func (d *DirCache) OpenIn(root, rel string) (*os.File, error) {
	comps, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	dfd, owned, err := d.folder(root, rel, comps)
	if err != nil {
		return nil, err
	}
	if owned {
		defer unix.Close(dfd)
	}
	c := comps[len(comps)-1]
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, c, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: filepath.Join(root, rel), Err: err}
	}
	if m := modeOf(uint32(st.Mode)); !m.IsRegular() {
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

// folder returns an fd of the folder holding rel's last component,
// opened by the rule from the deepest folder on the way already held;
// owned says the caller closes it (the cache was full). A refusal names
// rel exactly as a walk from the root would.
func (d *DirCache) folder(root, rel string, comps []string) (dfd int, owned bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fds == nil {
		d.fds = map[string]int{}
	}
	start := -1
	for j := len(comps) - 1; j >= 0; j-- {
		if fd, ok := d.fds[strings.Join(comps[:j], "/")]; ok {
			start, dfd = j, fd
			break
		}
	}
	if start < 0 {
		fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return 0, false, &fs.PathError{Op: "open", Path: root, Err: err}
		}
		start, dfd, owned = 0, fd, !d.hold("", fd)
	}
	for i := start; i < len(comps)-1; i++ {
		c := comps[i]
		var st unix.Stat_t
		if err := unix.Fstatat(dfd, c, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			d.drop(dfd, owned)
			return 0, false, &fs.PathError{Op: "stat", Path: filepath.Join(root, rel), Err: err}
		}
		if m := modeOf(uint32(st.Mode)); !m.IsDir() {
			d.drop(dfd, owned)
			return 0, false, linkOnTheWay(rel, comps, i, m)
		}
		nfd, err := unix.Openat(dfd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		d.drop(dfd, owned)
		if err != nil {
			if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
				return 0, false, linkOnTheWay(rel, comps, i, fs.ModeSymlink)
			}
			return 0, false, &fs.PathError{Op: "open", Path: filepath.Join(root, rel), Err: err}
		}
		dfd, owned = nfd, !d.hold(strings.Join(comps[:i+1], "/"), nfd)
	}
	return dfd, owned, nil
}

// hold keeps fd as the folder key unless the cache is full.
func (d *DirCache) hold(key string, fd int) bool {
	if len(d.fds) >= maxCachedDirs {
		return false
	}
	d.fds[key] = fd
	return true
}

// drop closes fd if the cache does not hold it.
func (d *DirCache) drop(fd int, owned bool) {
	if owned {
		unix.Close(fd)
	}
}

// close closes the folders held.
func (d *DirCache) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, fd := range d.fds {
		unix.Close(fd)
	}
	d.fds = nil
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
