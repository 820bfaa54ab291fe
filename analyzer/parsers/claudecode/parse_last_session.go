package claudecode

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// LastSession returns the parser of the last session Claude Code records
// per project in ~/.claude.json (and in the copies it keeps of that file,
// ~/.claude/backups/.claude.json.backup.<epoch ms> and .claude.json.backup):
// projects[<path>].lastSessionId with the session's cost, durations, line
// and token counts and per-model usage, written when an interactive
// session ends. The file outlives the session's transcript (the
// cleanupPeriodDays sweep, a removed project folder), so its rows name a
// session that existed: Spec.Trace.
func LastSession() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/last-session",
		Actions: Actions,
		Trace:   true,
		Agent:   Agent,
		Version: 2,
		Targets: []string{"claude-json", "settings-backups"},
		Names:   []string{".claude.json", ".claude.json.*"},
		Doc:     "Claude Code ~/.claude.json and its backups (.claude/backups/.claude.json.backup.<ms>): projects[<path>].lastSessionId with its cost, duration, lines, tokens and models, one row per project and file, naming sessions whose transcript may be gone (trace)",
	}, parseLastSession)
}

// lastSession holds the last* members of one projects[<path>] entry.
// Numbers are kept as written.
type lastSession struct {
	SessionID     json.RawMessage            `json:"lastSessionId"`
	StartTime     json.RawMessage            `json:"lastStartTime"`
	Cost          json.RawMessage            `json:"lastCost"`
	Duration      json.RawMessage            `json:"lastDuration"`
	APIDuration   json.RawMessage            `json:"lastAPIDuration"`
	LinesAdded    json.RawMessage            `json:"lastLinesAdded"`
	LinesRemoved  json.RawMessage            `json:"lastLinesRemoved"`
	InputTokens   json.RawMessage            `json:"lastTotalInputTokens"`
	OutputTokens  json.RawMessage            `json:"lastTotalOutputTokens"`
	CacheCreation json.RawMessage            `json:"lastTotalCacheCreationInputTokens"`
	CacheRead     json.RawMessage            `json:"lastTotalCacheReadInputTokens"`
	WebSearches   json.RawMessage            `json:"lastTotalWebSearchRequests"`
	ModelUsage    map[string]json.RawMessage `json:"lastModelUsage"`
}

// parseLastSession gives one system row per projects[<path>] entry that
// names a lastSessionId: "last session of project <path> (<file>): cost
// $<lastCost>, duration <lastDuration> ms, api <lastAPIDuration> ms, lines
// +<added> -<removed>, tokens in <n> out <n> cache write <n> read <n>,
// models <names>" (each part only when recorded), record id
// "<session>#last-session <path> in <file path>" (one file's statement:
// the backups repeat it, each a row of its own, so the session lists every
// file naming it), at lastStartTime (epoch ms, when the session started;
// Claude Code 2.1.332 writes it), else at the file's mtime. An entry without lastSessionId names no session and gives no row
// (its settings are the settings parser's); a lastSessionId that is not a
// string is a problem row.
func parseLastSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxClaudeJSON)
	if errors.Is(err, parser.ErrTooLarge) {
		out.Report(0, parser.KindSkippedRecord, fmt.Sprintf("%s over %d bytes: its projects' last sessions not read", in.Base(), maxClaudeJSON))
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return eachProject(ctx, b, func(dec *jsontext.Decoder, project string, lines *parser.LineIndex) bool {
		v, err := dec.ReadValue()
		if err != nil {
			out.Problem(lines.At(dec.InputOffset()), "projects["+project+"] cut short or corrupt after this line, the projects before it read: "+parser.JSONError(err))
			return false
		}
		lastSessionRow(in, project, lines.At(dec.InputOffset()-int64(len(v))), v, out)
		return true
	})
}

// lastSessionRow writes the row of one projects[<path>] value at line n.
func lastSessionRow(in *parser.Input, project string, n int64, v jsontext.Value, out parser.Sink) {
	if v.Kind() != '{' {
		return // a null project entry (claude-code 2.x wrote some): no session
	}
	var l lastSession
	dropped, err := parser.DecodeLenient(v, &l)
	if err != nil {
		out.Problem(n, "projects["+project+"] of an unexpected shape, its last session not read: "+parser.JSONError(err))
		return
	}
	if len(dropped) > 0 {
		out.Problem(n, parser.LenientProblem(dropped))
	}
	if len(l.SessionID) == 0 || string(l.SessionID) == "null" {
		return
	}
	sid, ok := parser.JSONString(l.SessionID)
	if !ok || strings.TrimSpace(sid) == "" {
		out.Problem(n, "projects["+project+"].lastSessionId is not a session id: "+parser.JSONText(l.SessionID))
		return
	}
	var parts []string
	add := func(format string, raws ...json.RawMessage) {
		vals := make([]any, len(raws))
		for i, r := range raws {
			s := parser.JSONText(r)
			if s == "" {
				return
			}
			vals[i] = s
		}
		parts = append(parts, fmt.Sprintf(format, vals...))
	}
	add("cost $%s", l.Cost)
	add("duration %s ms", l.Duration)
	add("api %s ms", l.APIDuration)
	add("lines +%s -%s", l.LinesAdded, l.LinesRemoved)
	add("tokens in %s out %s", l.InputTokens, l.OutputTokens)
	add("cache write %s read %s", l.CacheCreation, l.CacheRead)
	add("web searches %s", l.WebSearches)
	if len(l.ModelUsage) > 0 {
		models := make([]string, 0, len(l.ModelUsage))
		for m := range l.ModelUsage {
			models = append(models, m)
		}
		sort.Strings(models)
		parts = append(parts, "models "+strings.Join(models, ", "))
	}
	text := "last session of project " + project + " (" + in.Base() + ")"
	if len(parts) > 0 {
		text += ": " + strings.Join(parts, ", ")
	}
	e := timeline.Event{SessionID: sid, ProjectPath: project, TurnType: timeline.System, SourceLine: n,
		RecordID: sid + "#last-session " + project + " in " + in.Path, Text: text}
	if e.Time = epochMillis(l.StartTime); e.Time.IsZero() {
		fileTime(in, &e)
	}
	out.Event(e)
}
