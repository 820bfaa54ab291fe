package collect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// TestRowError: a row's error is the cause once, never the path the
// operating system put in it (the row names its path; under --root the
// walked path holds the examiner's mount point).
func TestRowError(t *testing.T) {
	pe := &fs.PathError{Op: "open", Path: "/mnt/img/home/alice/.claude/settings.json", Err: syscall.EACCES}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{pe, "open: permission denied"},
		{fmt.Errorf("read failed: %w", pe), "read failed: open: permission denied"},
		{&os.LinkError{Op: "readlink", Old: "/mnt/img/a", New: "/mnt/img/b", Err: syscall.ENOENT}, "readlink: no such file or directory"},
		{syscall.ENOENT, "no such file or directory"},
		{errors.New("a folder on the way is no longer a folder"), "a folder on the way is no longer a folder"},
	} {
		if got := rowError(c.err); got != c.want {
			t.Errorf("rowError(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
