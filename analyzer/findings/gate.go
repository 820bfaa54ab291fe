package findings

import (
	"strings"
	"unsafe"
)

// regexpGate is a literal prefilter for a case-insensitive (?i) regexp
// every match of which holds, for each group, one of the group's
// literals (lower-case ASCII): mayMatch is false only when the regexp
// cannot match, so the regexp runs only on text that passes. Text with a
// byte outside ASCII always passes ((?i) folds ſ onto s and K onto k,
// which an ASCII search would miss). TestGates checks each gate against
// its regexp.
type regexpGate [][]string

func (g regexpGate) mayMatch(s string) bool {
	var buf [1024]byte
	low := buf[:0]
	if len(s) > len(buf) {
		low = make([]byte, 0, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low = append(low, c)
	}
	ls := unsafe.String(unsafe.SliceData(low), len(low))
	for _, group := range g {
		found := false
		for _, lit := range group {
			if strings.Contains(ls, lit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
