package aider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Aider.
const Agent = "aider"

// File names aider writes in the project directory (or the home).
const (
	chatName  = ".aider.chat.history.md"
	inputName = ".aider.input.history"
	llmName   = ".aider.llm.history"
)

// Parsers returns the aider parsers. Each reads its file both as a home
// target and as a project artifact (catalog target "project").
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "aider/chat-history", Agent: Agent, Version: 2,
			Targets: []string{"chat-history", "project"}, Names: []string{chatName},
			Doc: ".aider.chat.history.md: runs (# aider chat started at, local time), #### prompts, > tool lines with model: and permission decision: rows, replies",
		}, parseChat),
		parser.New(parser.Spec{
			ID: "aider/input-history", Agent: Agent, Version: 2,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "the chat history's rows carry only the run's start time (inherited), so a prompt pairs on its session and text"},
			Targets: []string{"input-history", "project"}, Names: []string{inputName},
			Doc: ".aider.input.history prompt_toolkit history (secondary user rows, local time)",
		}, parseInput),
		parser.New(parser.Spec{
			ID: "aider/llm-history", Agent: Agent, Version: 3,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking},
				Basis: "the chat history's rows carry only the run's start time (inherited), so a message pairs on its session and text"},
			Targets: []string{"llm-history", "project"}, Names: []string{llmName},
			Doc: ".aider.llm.history TO LLM / LLM RESPONSE blocks (secondary: the last user message sent and each reply, local time)",
		}, parseLLM),
	}
}

// sessionID names a run by its start time: aider records no session id.
func sessionID(start time.Time) string {
	if start.IsZero() {
		return ""
	}
	return "aider-" + start.Format("20060102T150405")
}

// projectPath is the directory that holds the history file.
func projectPath(p string) string { return path.Dir(p) }

// decoder turns raw lines into text: UTF-8 as is, anything else as
// Latin-1 (aider writes with --encoding and errors="ignore", so files in
// other encodings exist). The first such line is reported once.
type decoder struct {
	out      parser.Sink
	reported bool
}

func (d *decoder) text(n int64, b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	if !d.reported {
		d.reported = true
		d.out.Problem(n, "not UTF-8: decoded as Latin-1 (first such line)")
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

var startRx = regexp.MustCompile(`^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$`)

// runStarts reads the start times of the runs in the chat history beside
// a file (same directory), sorted, or nil when it was not collected; a
// read error is a problem row on the file being parsed.
func runStarts(ctx context.Context, in *parser.Input, sink parser.Sink) []time.Time {
	related := path.Join(path.Dir(in.Path), chatName)
	rc, err := in.OpenRelated(related)
	if err != nil {
		return nil
	}
	defer rc.Close()
	var out []time.Time
	err = parser.Lines(ctx, rc, nil, func(_ int64, line []byte) error {
		if !bytes.HasPrefix(line, []byte("# aider chat started at ")) {
			return nil
		}
		if m := startRx.FindSubmatch(line); m != nil {
			if t, err := time.Parse("2006-01-02 15:04:05", string(m[1])); err == nil {
				out = append(out, t)
			}
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		sink.Problem(0, fmt.Sprintf("reading %s for run start times: %v (runs after the error are not known)", related, err))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

// runOf returns the session id of the latest run that started at or before
// t, or "" when none did.
func runOf(starts []time.Time, t time.Time) string {
	i := sort.Search(len(starts), func(i int) bool { return starts[i].After(t) })
	if i == 0 {
		return ""
	}
	return sessionID(starts[i-1])
}

var thinkOpenRx = regexp.MustCompile(`^\s*<(thinking-content-[0-9a-f]+|think|thinking|reasoning)>`)

// splitThinking separates a reply's leading reasoning block (aider wraps
// streamed reasoning in <thinking-content-...> tags, and models with a
// reasoning_tag use <think>) from the answer.
func splitThinking(s string) (thinking, answer string) {
	m := thinkOpenRx.FindStringSubmatchIndex(s)
	if m == nil {
		return "", s
	}
	tag := s[m[2]:m[3]]
	rest := s[m[1]:]
	end := strings.Index(rest, "</"+tag+">")
	if end < 0 {
		return strings.TrimSpace(rest), ""
	}
	return strings.TrimSpace(rest[:end]), strings.TrimSpace(rest[end+len(tag)+3:])
}

// readerLines is parser.Lines over a reader that is closed afterwards.
// readLines reads in line by line; out (nil for a pre-scan) hears of NUL
// runs and over-long lines.
func readLines(ctx context.Context, in *parser.Input, out parser.Sink, fn func(n int64, line []byte) error) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.LinesOwnEncoding(ctx, rc, out, fn)
}

var _ io.Reader = (*bytes.Reader)(nil)

func event(t time.Time, sid, proj string, tt timeline.TurnType, text string, line int64) timeline.Event {
	e := timeline.Event{Time: t, SessionID: sid, ProjectPath: proj, TurnType: tt, Text: text, SourceLine: line}
	if t.IsZero() {
		e.TimeBasis = timeline.TimeNone
	} else {
		e.TimeBasis = timeline.TimeLocalAsUTC
	}
	return e
}

type stopErr struct{}

func (stopErr) Error() string { return "stop" }

var errStop error = stopErr{}

func hasPrefixB(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }
func hasSuffixB(b []byte, s string) bool { return len(b) >= len(s) && string(b[len(b)-len(s):]) == s }
