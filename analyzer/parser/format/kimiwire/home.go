package kimiwire

import (
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// Metadata is kimi.json (src/kimi_cli/metadata.py).
type Metadata struct {
	WorkDirs []WorkDir `json:"work_dirs"`
}

// WorkDir is one work directory kimi.json names.
type WorkDir struct {
	Path          string  `json:"path"`
	Kaos          string  `json:"kaos"`
	LastSessionID *string `json:"last_session_id"`
}

type (
	metadata = Metadata
	workDir  = WorkDir
)

// MD5Dir is the sessions folder name of a work directory.
func MD5Dir(wd WorkDir) string { return md5Dir(wd) }

// SessionParts splits a wire path of Kimi CLI's layout (subagents under
// "subagents").
func SessionParts(p string) (share, md5dir, session, agent string) {
	return sessionParts(p, "subagents")
}

// Epoch reads the wire's float epoch seconds (milliseconds kept).
func Epoch(f float64) time.Time { return epoch(f) }

// MaxWhole bounds the small JSON files read whole.
const MaxWhole = maxWhole

// WorkDirs reads <share>/kimi.json beside a file: sessions folder name ->
// work directory path.
func WorkDirs(in *parser.Input, share string) map[string]string { return workDirs(in, share) }
