package claudecode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxClaudeJSON bounds a .claude.json read whole for its legacy prompt
// history (the file grew to megabytes with 100 prompts and their pastes
// per project; a larger file is a problem row, never a cut read).
const maxClaudeJSON = 256 << 20

// LegacyHistory returns the parser of the prompt history Claude Code up to
// 1.0 kept in ~/.claude.json under projects[<path>].history (later
// versions write .claude/history.jsonl).
func LegacyHistory() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/legacy-history",
		Actions: Actions,
		Secondary: &parser.Secondary{TurnTypes: []timeline.TurnType{timeline.User},
			Basis: "~/.claude.json projects[].history records no time and no session: a prompt pairs with a transcript user record of the same text, one to one"},
		Agent:   Agent,
		Version: 1,
		Targets: []string{"claude-json"},
		Names:   []string{".claude.json", ".claude.json.backup*"},
		Doc:     "Claude Code <= 1.0 prompt history in ~/.claude.json projects[<path>].history (display text, pasted contents), undated user rows",
	}, parseLegacyHistory)
}

// legacyPrompt is one entry of projects[<path>].history: an object with
// the text shown and the pastes it names, or (the earliest releases) a
// bare string.
type legacyPrompt struct {
	Display        string                     `json:"display"`
	PastedContents map[string]json.RawMessage `json:"pastedContents"`
}

func parseLegacyHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxClaudeJSON)
	if errors.Is(err, parser.ErrTooLarge) {
		out.Report(0, parser.KindSkippedRecord, fmt.Sprintf(".claude.json over %d bytes: its legacy prompt history not read", maxClaudeJSON))
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return eachProject(ctx, b, func(dec *jsontext.Decoder, project string, lines *parser.LineIndex) bool {
		if err := projectHistory(dec, project, lines, in, out); err != nil {
			out.Problem(lines.At(dec.InputOffset()), "projects["+project+"] cut short or corrupt after this line, the history entries before it read: "+err.Error())
			return false
		}
		return true
	})
}

// eachProject calls fn with the decoder at each value of .claude.json's
// top-level "projects" object and the project's path, skipping every
// other member unread (the account, tokens and caches); fn reads the
// value and reports false to stop (it has written the problem). A file
// that is no JSON object, or breaks outside projects, gives nothing here:
// the settings parser reports it.
func eachProject(ctx context.Context, b []byte, fn func(dec *jsontext.Decoder, project string, lines *parser.LineIndex) bool) error {
	lines := parser.NewLineIndex(b)
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if err := enterObject(dec); err != nil {
		return nil
	}
	for dec.PeekKind() == '"' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil
		}
		if k.String() != "projects" || dec.PeekKind() != '{' {
			if dec.SkipValue() != nil {
				return nil
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil
		}
		for dec.PeekKind() == '"' {
			if err := ctx.Err(); err != nil {
				return err
			}
			pk, err := dec.ReadToken()
			if err != nil {
				return nil
			}
			if !fn(dec, pk.String(), lines) { // a Token is valid only until the next read
				return nil
			}
		}
		return nil
	}
	return nil
}

// enterObject reads the '{' that opens an object.
func enterObject(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '{' {
		return parser.ErrNotObject
	}
	_, err := dec.ReadToken()
	return err
}

// projectHistory reads one projects[<path>] value, giving a row for each
// entry of its history and skipping every other member.
func projectHistory(dec *jsontext.Decoder, project string, lines *parser.LineIndex, in *parser.Input, out parser.Sink) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue() // a null project entry (claude-code 2.x wrote some)
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() == '"' {
		k, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if k.String() != "history" || dec.PeekKind() != '[' {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		for dec.PeekKind() != ']' {
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			n := lines.At(dec.InputOffset() - int64(len(v)))
			legacyRow(in, project, n, v, out)
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// legacyRow writes the secondary user row of one history entry at line n.
func legacyRow(in *parser.Input, project string, n int64, v jsontext.Value, out parser.Sink) {
	var p legacyPrompt
	if s, ok := parser.JSONString(v); ok {
		p.Display = s
	} else if dropped, err := parser.DecodeLenient(v, &p); err != nil {
		out.Problem(n, "history entry of an unexpected shape, not read: "+parser.JSONError(err))
		return
	} else if len(dropped) > 0 {
		out.Problem(n, parser.LenientProblem(dropped))
	}
	if p.Display == "" && len(p.PastedContents) == 0 {
		out.Skip(n, "no_evidence:empty history entry")
		return
	}
	h := historyLine{Display: p.Display, PastedContents: p.PastedContents, Project: project}
	historyRow(in, dirOf(in.Path)+"/.claude/paste-cache/", n, &h, out)
}
