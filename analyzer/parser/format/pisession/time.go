package pisession

import (
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"
)

// MsTime reads epoch milliseconds.
func MsTime(v json.Number) (time.Time, bool) {
	if v == "" {
		return time.Time{}, false
	}
	f, err := v.Float64()
	if err != nil || f <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(f)).UTC(), true
}

// HomeOf returns the home directory of a path under .pi/ or .little-coder/.
func HomeOf(p string) string {
	for _, m := range []string{"/.pi/", "/.little-coder/"} {
		if i := strings.LastIndex(p, m); i >= 0 {
			return p[:i]
		}
	}
	return ""
}
