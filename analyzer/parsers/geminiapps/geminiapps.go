package geminiapps

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "gemini-apps"

// Parsers returns the Gemini Apps Takeout parser.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "gemini-apps/takeout-activity", Agent: Agent, Version: 1,
			Targets: []string{"takeout"}, Names: []string{"MyActivity.json"},
			Doc: "an unpacked Google Takeout's My Activity/Gemini Apps/MyActivity.json: prompts, responses (as stored HTML), attached files, other Gemini Apps activity",
		}, parse),
	}
}

type record struct {
	Header   string   `json:"header"`
	Title    string   `json:"title"`
	Time     string   `json:"time"`
	Products []string `json:"products"`
	Safe     []struct {
		HTML string `json:"html"`
	} `json:"safeHtmlItem"`
	Files []string `json:"attachedFiles"`
}

func parse(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := jsontext.NewDecoder(rc, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		if err == nil {
			err = parser.ErrNotArray
		}
		if errors.Is(err, io.EOF) {
			return nil // an empty file
		}
		out.Problem(0, parser.NotJSONArray("", err))
		return nil
	}
	seen := map[string]int{}
	var n int64
	for dec.PeekKind() != ']' {
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		raw, err := dec.ReadValue()
		if err != nil {
			out.Problem(n, parser.NotJSON(fmt.Sprintf("record %d", n), err)+" (the records after it are not read)")
			return nil
		}
		var r record
		if err := json.Unmarshal(raw, &r); err != nil {
			out.Problem(n, parser.NotJSONObject(fmt.Sprintf("record %d", n), err))
			continue
		}
		if r.Header != "Gemini Apps" && r.Header != "Bard" && !slices.Contains(r.Products, "Gemini Apps") {
			out.Report(n, parser.KindSkippedRecord, "a My Activity record of "+orNone(r.Header)+", not Gemini Apps")
			continue
		}
		base := timeline.Event{SourceLine: n, TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(r.Time); ok {
			base.Time, base.TimeBasis = t, timeline.TimeRecorded
		}
		id := r.Time
		if id == "" {
			id = fmt.Sprintf("record-%d", n)
		}
		if k := seen[id]; k > 0 {
			seen[id] = k + 1
			id = fmt.Sprintf("%s@%d", id, k)
		} else {
			seen[id] = 1
		}
		base.SessionID = "activity-" + id
		i := 0
		emit := func(tt timeline.TurnType, text string) {
			e := base
			e.TurnType, e.Text, e.RecordID = tt, text, id
			if i > 0 {
				e.RecordID = fmt.Sprintf("%s#%d", id, i)
			}
			i++
			out.Event(e)
		}
		prompt, ok := strings.CutPrefix(r.Title, "Prompted ")
		if !ok {
			emit(timeline.System, "Gemini Apps activity: "+r.Title)
			continue
		}
		emit(timeline.User, prompt)
		if len(r.Files) > 0 {
			emit(timeline.System, "files attached to the prompt: "+strings.Join(r.Files, ", "))
		}
		for _, s := range r.Safe {
			emit(timeline.Assistant, s.HTML)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		out.Problem(n, parser.NotJSONArray("", err))
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no product"
	}
	return s
}
