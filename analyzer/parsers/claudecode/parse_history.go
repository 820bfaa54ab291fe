package claudecode

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// History returns the parser of the prompt history, .claude/history.jsonl.
func History() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/history",
		Actions: Actions,
		Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User},
			Basis: "history.jsonl stamps a prompt when it is submitted, the transcript's user record at the same moment",
			// 2.1.332: the exit command (alias quit) ends the session and
			// is written to history.jsonl only (fixtures/roots/deleted-by-agents)
			Unrecorded: []string{"/exit", "/quit"}},
		Trace:   true,
		Agent:   Agent,
		Version: 5,
		Targets: []string{"history"},
		Names:   []string{"history.jsonl"},
		Doc:     "Claude Code prompt history (.claude/history.jsonl), paste placeholders expanded from paste-cache",
	}, parseHistory)
}

// historyLine is one line of history.jsonl.
type historyLine struct {
	Display        string                     `json:"display"`
	PastedContents map[string]json.RawMessage `json:"pastedContents"`
	Timestamp      json.RawMessage            `json:"timestamp"`
	Project        string                     `json:"project"`
	SessionID      string                     `json:"sessionId"`
}

// pasted is one entry of pastedContents: the text inline, or a hash naming
// paste-cache/<hash>.txt.
type pasted struct {
	ID          json.RawMessage `json:"id"`
	Type        string          `json:"type"`
	Content     string          `json:"content"`
	ContentHash string          `json:"contentHash"`
}

// pasteRe matches a paste placeholder: [Pasted text #1 +12 lines].
var pasteRe = regexp.MustCompile(`\[Pasted text #(\d+)(?: \+\d+ lines)?\]`)

func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	cacheDir := dirOf(strings.ReplaceAll(in.Path, `\`, "/")) + "/paste-cache/"
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var h historyLine
		if jerr := json.Unmarshal(line, &h); jerr != nil {
			objs, lost := parser.SplitGlued(line)
			if len(objs) == 0 {
				out.Problem(n, parser.BadJSONLine(jerr))
				return nil
			}
			if len(objs) > 1 || lost {
				out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), lost))
			}
			// Every record of a glued line gives its row; a member of an
			// unexpected type is read as null (parser.DecodeLenient).
			for _, o := range objs {
				h = historyLine{}
				dropped, err := parser.DecodeLenient(o, &h)
				if err != nil {
					out.Problem(n, parser.BadJSONLine(err))
					continue
				}
				if len(dropped) > 0 {
					out.Problem(n, parser.LenientProblem(dropped))
				}
				historyRow(in, cacheDir, n, &h, out)
			}
			return nil
		}
		historyRow(in, cacheDir, n, &h, out)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// historyRow writes the secondary user row of one history.jsonl record.
func historyRow(in *parser.Input, cacheDir string, n int64, h *historyLine, out parser.Sink) {
	text := h.Display
	if len(h.PastedContents) > 0 {
		text = pasteRe.ReplaceAllStringFunc(text, func(ph string) string {
			id := pasteRe.FindStringSubmatch(ph)[1]
			var p pasted
			if json.Unmarshal(h.PastedContents[id], &p) != nil {
				return ph
			}
			if p.Content != "" {
				return p.Content
			}
			if p.ContentHash != "" {
				if s, ok := readRelated(in, cacheDir+p.ContentHash+".txt"); ok {
					return s
				}
			}
			return ph
		})
	}
	e := timeline.Event{
		Time:        epochMillis(h.Timestamp),
		SessionID:   h.SessionID,
		ProjectPath: h.Project,
		TurnType:    timeline.User,
		Text:        text,
		SourceLine:  n,
		Secondary:   true,
	}
	if e.Time.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
}

// readRelated reads another collected file whole (bounded).
func readRelated(in *parser.Input, p string) (string, bool) {
	b, ok := in.ReadRelated(p, maxPersisted)
	return strings.ToValidUTF8(string(b), "\uFFFD"), ok
}
