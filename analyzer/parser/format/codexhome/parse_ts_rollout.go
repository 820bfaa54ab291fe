package codexhome

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// tsRollout is the TypeScript CLI's whole-file rollout-*.json (before the
// Rust rewrite): {session: {timestamp, id, instructions}, items: [...]},
// the items bare Responses items without times of their own.
type tsRollout struct {
	Session struct {
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
	} `json:"session"`
	Items []json.RawMessage `json:"items"`
}

func parseTSRollout(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := openContent(in)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var doc tsRollout
	if err := json.NewDecoder(rc).Decode(&doc); err != nil {
		out.Problem(0, "not a rollout JSON document: "+parser.JSONError(err))
		return nil
	}
	sid := doc.Session.ID
	if sid == "" {
		sid = idFromName(in.Path)
	}
	tr := newTracker(sid)
	o := tr.cur()
	if t, ok := parser.ParseTime(doc.Session.Timestamp); ok {
		o.start = t
	}
	cs := &countingSink{Sink: out}
	r := &rollout{out: cs, tr: tr, o: o}
	for i, raw := range doc.Items {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		var it responseItem
		if err := json.Unmarshal(raw, &it); err != nil {
			out.Problem(n, "item: "+parser.JSONError(err))
			continue
		}
		before := cs.n
		r.why = ""
		r.responseItem(n, "", &it)
		if cs.n == before {
			why := r.why
			if why == "" {
				why = "no_evidence:" + it.Type
			}
			out.Skip(n, why)
		}
	}
	return nil
}
