package parser

import (
	"path"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/tailscale/hujson"
)

// SettingEvent is a system row stamped with the file's modification time
// (TimeFileMTime), or undated (TimeNone) when the mtime is unknown: the
// time of every row read from a settings file, which records no time of
// its own.
func SettingEvent(f *File) timeline.Event {
	e := timeline.Event{TurnType: timeline.System}
	if f.MTime.IsZero() {
		e.TimeBasis = timeline.TimeNone
	} else {
		e.Time, e.TimeBasis = f.MTime.UTC(), timeline.TimeFileMTime
	}
	return e
}

// DisplayFile names a file in a row's "(from <file>, file mtime)": its path
// relative to the home when known, else its base name (never the
// examiner's own path to a copy).
func DisplayFile(f *File) string {
	if f.Rel != "" {
		return f.Rel
	}
	return path.Base(strings.ReplaceAll(f.Path, "\\", "/"))
}

// StandardJSON turns JSON with comments and trailing commas (VS Code and
// Zed settings, JSONC configs) into standard JSON with
// github.com/tailscale/hujson, keeping byte offsets. Input it cannot read
// is returned unchanged, so the caller's decoder reports the error.
//
// hujson is required at an untagged pseudo-version because Tailscale
// publishes it without release tags (every consumer pins a commit). It
// still is the best choice: it implements exactly JWCC (standard JSON plus
// comments and trailing commas, the dialect VS Code, Zed and Cursor
// settings are written in), it is maintained and fuzzed by the company
// that ships it in its own product, it needs nothing at run time but the
// standard library, and Standardize keeps byte offsets, on which the line
// numbers of settings rows rely. Move the pin only to a newer commit of
// its default branch, and review the settings goldens when doing so.
func StandardJSON(b []byte) []byte {
	out, err := hujson.Standardize(append([]byte(nil), b...))
	if err != nil {
		return b
	}
	return out
}
