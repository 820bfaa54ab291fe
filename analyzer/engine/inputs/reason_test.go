package inputs

import (
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

// TestReasonOfDropsThePath: why a path of a tree read in place could not
// be read is said once, without the path the operating system put in the
// error (the examiner's: the tree's folder joined in front), since the
// problem row names the evidence path in source_file.
func TestReasonOfDropsThePath(t *testing.T) {
	pe := func(op string, errno syscall.Errno) error {
		return &fs.PathError{Op: op, Path: "/mnt/case/img/home/alice/.claude/sessions", Err: errno}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{pe("open", syscall.EACCES), "permission denied (this account cannot read it)"},
		{pe("open", syscall.ENOENT), "no such file or folder"},
		{pe("read", syscall.EIO), "read: input/output error"},
		{fmt.Errorf("listing: %w", pe("readdirent", syscall.EIO)), "listing: readdirent: input/output error"},
		{syscall.EIO, "input/output error"},
	} {
		if got := reasonOf(c.err); got != c.want {
			t.Errorf("reasonOf(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
