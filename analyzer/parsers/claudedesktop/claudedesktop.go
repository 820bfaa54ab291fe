package claudedesktop

import (
	"bytes"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of the Claude desktop app.
const Agent = "claude-desktop"

// Catalog target IDs of claude-desktop (catalog/agents_a_c.go).
var (
	sessionTargets  = []string{"sessions", "local-sessions", "msix-sessions"}
	recordTargets   = []string{"session-records", "session-files", "local-sessions", "msix-sessions"}
	appStateTargets = []string{"app-state", "local-app-state", "msix-app-state"}
)

// Parsers returns the Claude desktop app parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		Transcript(),
		Audit(),
		SessionRecord(),
		RemoteSessionSpaces(),
		AppState(),
	}
}

// filtered is a spec parser with one more cheap condition on the path.
type filtered struct {
	parser.Parser
	spec parser.Spec
	ok   func(p string) bool
}

func (f *filtered) Match(file *parser.File) bool {
	return f.Parser.Match(file) && f.ok(slash(file.Path))
}

// Spec returns the parser's spec.
func (f *filtered) Spec() parser.Spec { return f.spec }

func newFiltered(s parser.Spec, fn parser.ParseFunc, ok func(string) bool) parser.Parser {
	return &filtered{Parser: parser.New(s, fn), spec: s, ok: ok}
}

func slash(p string) string { return strings.ReplaceAll(p, `\`, "/") }

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func baseOf(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// storeKind says which store a path is under: "cowork" for
// local-agent-mode-sessions, "code" for claude-code-sessions, "" otherwise.
func storeKind(p string) string {
	switch {
	case strings.Contains(p, "/local-agent-mode-sessions/"):
		return "cowork"
	case strings.Contains(p, "/claude-code-sessions/"):
		return "code"
	}
	return ""
}

// sessionDir returns the session directory holding a transcript
// (<session dir>/.claude/projects/<slug>/...), or "".
func sessionDir(p string) string {
	if i := strings.Index(p, "/.claude/projects/"); i > 0 {
		return p[:i]
	}
	return ""
}

// record is a decoded session record local_<uuid>.json.
type record map[string]json.RawMessage

// readRecord decodes a whole-file JSON object from r.
func readRecord(r io.Reader) (record, error) {
	var m record
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// relatedRecord opens the session record beside a session directory
// (<dir>.json), or nil.
func relatedRecord(in *parser.Input, dir string) record {
	if dir == "" {
		return nil
	}
	rc, err := in.OpenRelated(dir + ".json")
	if err != nil {
		return nil
	}
	defer rc.Close()
	m, err := readRecord(rc)
	if err != nil {
		return nil
	}
	return m
}

func (r record) str(k string) string { return parser.StringValue(r[k]) }

// folders returns userSelectedFolders.
func (r record) folders() []string {
	var out []string
	var list []json.RawMessage
	if json.Unmarshal(r["userSelectedFolders"], &list) != nil {
		return nil
	}
	for _, x := range list {
		if s := parser.StringValue(x); s != "" {
			out = append(out, s)
		} else {
			var o map[string]json.RawMessage
			if json.Unmarshal(x, &o) == nil {
				if s := parser.StringValue(o["path"]); s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// project is the session's host project: userSelectedFolders[0], else a cwd
// that is not a Cowork VM guest path (/sessions/<name>), else originCwd.
func (r record) project() string {
	if f := r.folders(); len(f) > 0 {
		return f[0]
	}
	for _, k := range []string{"cwd", "originCwd"} {
		if s := r.str(k); s != "" && !strings.HasPrefix(s, "/sessions/") {
			return s
		}
	}
	return ""
}

// rawTime reads epoch milliseconds (above 1e12), epoch seconds or RFC 3339
// text; zero when absent or unreadable.
func rawTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}
	}
	s := strings.Trim(string(raw), `"`)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return time.Time{}
		}
		if f > 1e12 {
			return time.UnixMilli(int64(f)).UTC()
		}
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC()
	}
	return time.Time{}
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// fileTime stamps a settings row with the file's modification time.
func fileTime(in *parser.Input, e *timeline.Event) {
	if in.MTime.IsZero() {
		e.TimeBasis = timeline.TimeNone
		return
	}
	e.Time, e.TimeBasis = in.MTime.UTC(), timeline.TimeFileMTime
}
