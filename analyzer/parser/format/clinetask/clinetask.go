package clinetask

import (
	"bytes"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// MaxSmall bounds what is read of a small related file.
const MaxSmall = 64 << 20

// MsTime converts epoch milliseconds (float allowed) to UTC; zero for 0 or
// an implausible value.
func MsTime(ms float64) time.Time {
	if ms <= 0 || math.IsNaN(ms) || math.IsInf(ms, 0) || ms > 1e15 {
		return time.Time{}
	}
	sec := math.Floor(ms / 1000)
	ns := (ms - sec*1000) * 1e6
	return time.Unix(int64(sec), int64(ns)).UTC()
}

// Num decodes a JSON number or a numeric string; anything else is 0.
type Num float64

func (n *Num) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
		*n = Num(f)
		return nil
	}
	var f float64
	if json.Unmarshal(b, &f) == nil {
		*n = Num(f)
	}
	return nil
}

// TaskIDTime reads a task folder name that is an epoch-ms start time
// (Cline's and Roo Code's older ids, "1769064454592"); zero otherwise
// (UUIDs, ULIDs).
func TaskIDTime(id string) time.Time {
	if len(id) < 12 || len(id) > 14 {
		return time.Time{}
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return time.Time{}
	}
	t := MsTime(float64(n))
	if t.Year() < 2015 || t.Year() > 2100 {
		return time.Time{}
	}
	return t
}

// Slash normalises a path to '/' separators.
func Slash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// TaskDir returns the task folder of a file tasks/<id>/<name> and its id.
func TaskDir(p string) (dir, id string) {
	dir = path.Dir(Slash(p))
	return dir, path.Base(dir)
}

// Collected reports whether a file with this original path is in the input.
func Collected(in *parser.Input, orig string) bool {
	return len(in.List(parser.GlobEscape(orig))) > 0
}

// SecretKey reports a settings key whose value must never be printed.
func SecretKey(k string) bool {
	l := strings.ToLower(k)
	for _, w := range []string{"token", "secret", "password", "apikey", "api_key", "credential", "authorization", "bearer", "cookie", "privatekey"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return strings.HasSuffix(l, "key") && !strings.HasSuffix(l, "hotkey")
}
