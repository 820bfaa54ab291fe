package bundle

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a byte count as both tools' size flags take it
// (collector --max-file-size, doubleagent --max-line): digits, then
// optionally K, M or G (binary: 1K = 1024), with or without "iB" or "B".
// Negative counts and counts over 2^62 are refused.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "i")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size (such as 65536, 64MiB, 1G)", s)
	}
	return n * mult, nil
}
