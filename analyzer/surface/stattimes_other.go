//go:build !linux && !darwin && !windows

package surface

import (
	"io/fs"
	"time"
)

// statTimes: this platform's walk gives the modification time only.
func statTimes(fs.FileInfo) (atime, ctime, btime time.Time) { return }
