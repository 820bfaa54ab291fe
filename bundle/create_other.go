//go:build !unix

package bundle

// Elsewhere O_EXCL alone refuses whatever is in the way, a link included.
const (
	oNoFollow = 0
	oNonBlock = 0
	oCloExec  = 0
)
