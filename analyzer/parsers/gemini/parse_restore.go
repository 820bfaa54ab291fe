package gemini

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// restoreName is a restore checkpoint's file name,
// <ISO time with ':' as '-' and '.' as '_'>-<file base name>-<tool>.json
// (core/utils/checkpointUtils.ts generateCheckpointFileName).
var restoreName = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_\d{3}Z)-(.+)\.json$`)

// restoreSessionSep separates the session id from the prompt count in a
// prompt id (useGeminiStream: sessionId + "########" + promptCount).
const restoreSessionSep = "########"

// parseRestore reads one restore checkpoint, tmp/<slug>/checkpoints/<name>.json,
// which Gemini CLI writes with general.checkpointing.enabled before a
// file-changing tool call it asks to approve (useGeminiStream
// saveRestorableToolCalls, checkpointUtils.ts processRestorableToolCalls):
// {history: the UI history, clientHistory: the model's Content[],
// toolCall: {name, args}, commitHash: the shadow repository's snapshot,
// messageId: the prompt id "<session>########<n>"}. It gives one system
// row "restore checkpoint before <tool> of <file_path>: snapshot <commit>,
// prompt <n> of the session, its saved history N typed prompt(s)" at the
// time the file name records, in the session the prompt id names (record
// id "<session>#checkpoint-<name>"). The histories are streamed, never
// held: they repeat the chat file (the typed prompts, the model's turns)
// and are counted, not given rows again. A checkpoint outlives
// --delete-session and the retention sweep, which remove the chat file
// (Spec.Trace).
func parseRestore(ctx context.Context, in *parser.Input, out parser.Sink) error {
	name := base(in.Path)
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	dec := jsontext.NewDecoder(rc)
	if dec.PeekKind() != '{' {
		out.Problem(0, parser.NotJSONObject("restore checkpoint", nil))
		return nil
	}
	if _, err := dec.ReadToken(); err != nil {
		out.Problem(0, "not a restore checkpoint: "+err.Error())
		return nil
	}
	var (
		tool, filePath, commit, msgID string
		typed                         int
		haveTool                      bool
	)
	cut := func(err error) error {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			out.Problem(0, "restore checkpoint cut short")
		} else {
			out.Problem(0, "restore checkpoint cut short: "+parser.JSONError(err))
		}
		return nil
	}
	for dec.PeekKind() != '}' {
		if err := ctx.Err(); err != nil {
			return err
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return cut(err)
		}
		switch tok.String() {
		case "toolCall":
			v, err := dec.ReadValue()
			if err != nil {
				return cut(err)
			}
			var tc struct {
				Name string `json:"name"`
				Args struct {
					FilePath string `json:"file_path"`
				} `json:"args"`
			}
			if json.Unmarshal(v, &tc) == nil {
				tool, filePath, haveTool = tc.Name, tc.Args.FilePath, true
			}
		case "commitHash", "messageId":
			k := tok.String()
			v, err := dec.ReadValue()
			if err != nil {
				return cut(err)
			}
			var s string
			_ = json.Unmarshal(v, &s)
			if k == "commitHash" {
				commit = s
			} else {
				msgID = s
			}
		case "history":
			n, err := countTyped(ctx, dec)
			if err != nil {
				return cut(err)
			}
			typed = n
		default:
			if err := dec.SkipValue(); err != nil {
				return cut(err)
			}
		}
	}
	sid, count, ok := strings.Cut(msgID, restoreSessionSep)
	if !ok || sid == "" {
		out.Problem(0, "restore checkpoint names no session: messageId "+parser.Shown(msgID))
		return nil
	}
	if !haveTool {
		tool = "(no tool call)"
	}
	e := timeline.Event{SessionID: sid, RecordID: sid + "#checkpoint-" + strings.TrimSuffix(name, ".json"),
		ProjectPath: newProjectResolver(in).Path(""), TurnType: timeline.System, TimeBasis: timeline.TimeNone,
		Text: fmt.Sprintf("restore checkpoint before %s of %s: snapshot %s, prompt %s of the session, its saved history %d typed prompt(s) (/restore %s)",
			parser.Shown(tool), parser.Shown(filePath), parser.Shown(commit), parser.Shown(count), typed, parser.Shown(strings.TrimSuffix(name, ".json")))}
	if m := restoreName.FindStringSubmatch(name); m != nil {
		ts := m[1][:10] + "T" + strings.ReplaceAll(m[1][11:19], "-", ":") + "." + m[1][20:23] + "Z"
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			e.Time, e.TimeBasis = t.UTC(), timeline.TimeRecorded
		}
	}
	out.Event(e)
	return nil
}

// countTyped streams the UI history array (HistoryItem[]) and counts its
// items of type "user" (the prompts typed), holding one item at a time.
func countTyped(ctx context.Context, dec *jsontext.Decoder) (int, error) {
	if dec.PeekKind() != '[' {
		return 0, dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return 0, err
	}
	n := 0
	for dec.PeekKind() != ']' {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		v, err := dec.ReadValue()
		if err != nil {
			return n, err
		}
		var it struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(v, &it) == nil && it.Type == "user" {
			n++
		}
	}
	_, err := dec.ReadToken()
	return n, err
}
