//go:build !unix

package inputs

// ownerOf is -1 where files carry no uid (Windows): the owner rule of the
// link policy then has nothing to compare, and only the place of a
// link's target decides (see treeOwnerRule).
func ownerOf(string) int64 { return -1 }
