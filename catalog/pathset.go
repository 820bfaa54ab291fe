package catalog

import "hash/maphash"

// PathSet is a set of paths that costs the same few bytes per path
// whatever its length: a path is kept as a 128-bit hash under a seed
// chosen at random per set, so a tree shaped by an attacker cannot
// arrange a collision, and an accidental one among a billion paths has a
// chance under 10^-20. A walk over 100,000 files holds about 4 MB, where
// the paths themselves took ten times that.
type PathSet struct {
	seed maphash.Seed
	m    map[[2]uint64]struct{}
}

// NewPathSet returns an empty set.
func NewPathSet() *PathSet {
	return &PathSet{seed: maphash.MakeSeed(), m: map[[2]uint64]struct{}{}}
}

func (s *PathSet) key(p string) [2]uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	h.WriteString(p)
	a := h.Sum64()
	h.WriteByte(0)
	return [2]uint64{a, h.Sum64()}
}

// Has reports whether p is in the set.
func (s *PathSet) Has(p string) bool { _, ok := s.m[s.key(p)]; return ok }

// Add adds p and reports whether it was new.
func (s *PathSet) Add(p string) bool {
	k := s.key(p)
	if _, ok := s.m[k]; ok {
		return false
	}
	s.m[k] = struct{}{}
	return true
}

// Len is the number of paths in the set.
func (s *PathSet) Len() int { return len(s.m) }
