//go:build unix

package bundle

import "syscall"

const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
	oCloExec  = syscall.O_CLOEXEC
)
