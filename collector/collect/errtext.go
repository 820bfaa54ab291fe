package collect

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// rowError is the text of err for a manifest row's error: the cause once,
// without the path the operating system put in it. A row names its path
// already (and, under --root, the walked path holds the examiner's mount
// point: "open /mnt/img/home/alice/.claude/x: permission denied" on the
// row of /home/alice/.claude/x said the path twice), so every
// *fs.PathError, *os.LinkError and *os.SyscallError in err's chain is
// written "op: cause" ("open: permission denied").
func rowError(err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	for e := err; e != nil; e = errors.Unwrap(e) {
		var full, short string
		switch x := e.(type) {
		case *fs.PathError:
			full, short = x.Error(), x.Op+": "+x.Err.Error()
		case *os.LinkError:
			full, short = x.Error(), x.Op+": "+x.Err.Error()
		default:
			continue
		}
		msg = strings.Replace(msg, full, short, 1)
	}
	return msg
}
