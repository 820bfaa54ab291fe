package tabby

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseEvents reads events/YYYY-MM-DD.json: one LogEntry {user, ts (epoch
// ms), event} a line (crates/tabby/src/services/event.rs).
func parseEvents(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var le struct {
			User  *string                    `json:"user"`
			TS    *float64                   `json:"ts"`
			Event map[string]json.RawMessage `json:"event"`
		}
		if err := json.Unmarshal(line, &le); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		base := timeline.Event{SourceLine: n, Secondary: true}
		if le.TS != nil && *le.TS > 0 {
			base.Time = time.UnixMilli(int64(*le.TS)).UTC()
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		if eventRows(le.Event, base, out.Event) == 0 {
			out.Report(n, parser.KindSkippedRecord, "log entry of no known event kind")
		}
		return nil
	})
}

// parseConfig reads the [model.*] tables of config.toml
// (crates/tabby-common/src/config.rs ModelConfigGroup: completion, chat,
// embedding, each {local: {model_id, ...}} or {http: {kind, model_name,
// api_endpoint, api_key, ...}}). api_key is never read into a row.
func parseConfig(_ context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 4<<20))
	if err != nil {
		return err
	}
	var cfg struct {
		Model map[string]map[string]map[string]any `toml:"model"`
	}
	if _, err := toml.Decode(string(b), &cfg); err != nil {
		out.Problem(0, "config.toml: "+parser.JSONError(err))
		return nil
	}
	uses := make([]string, 0, len(cfg.Model))
	for u := range cfg.Model {
		uses = append(uses, u)
	}
	sort.Strings(uses)
	for _, u := range uses {
		for _, where := range []string{"local", "http"} {
			m, ok := cfg.Model[u][where]
			if !ok {
				continue
			}
			model := fmt.Sprint(m["model_id"])
			if where == "http" {
				model = fmt.Sprint(m["model_name"])
			}
			if model == "<nil>" {
				model = ""
			}
			var kv []string
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if strings.Contains(strings.ToLower(k), "key") || strings.Contains(strings.ToLower(k), "token") || k == "prompt_template" || k == "chat_template" {
					continue
				}
				kv = append(kv, fmt.Sprintf("%s=%v", k, m[k]))
			}
			e := parser.SettingEvent(&in.File)
			e.Model = model
			e.Text = fmt.Sprintf("model setting: model.%s.%s %s (from %s, file mtime)", u, where, strings.Join(kv, " "), parser.DisplayFile(&in.File))
			out.Event(e)
		}
	}
	return nil
}

// commandRow is one inline-edit command the user typed: a user row with no
// time and no session, from a secondary source.
func commandRow(out parser.Sink, line int64, cmd string) {
	out.Event(timeline.Event{TurnType: timeline.User, Text: cmd, SourceLine: line, TimeBasis: timeline.TimeNone, Secondary: true})
}

// parseJetBrainsHistory reads intellij-tabby-command-history.xml
// (clients/intellij/.../inlineChat/CommandHistory.kt: a BaseState with
// history: list<String>, serialized <option name="history"><list><option
// value="..."/></list></option>), newest first.
func parseJetBrainsHistory(_ context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
	if err != nil {
		return err
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	depth, inHistory := 0, 0
	n := int64(0)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Problem(n+1, "intellij-tabby-command-history.xml: "+err.Error())
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			attrs := map[string]string{}
			for _, a := range t.Attr {
				attrs[a.Name.Local] = a.Value
			}
			if t.Name.Local == "option" && attrs["name"] == "history" {
				inHistory = depth
			} else if inHistory > 0 && t.Name.Local == "option" {
				if v, ok := attrs["value"]; ok {
					n++
					commandRow(out, n, v)
				}
			}
		case xml.EndElement:
			if depth == inHistory {
				inHistory = 0
			}
			depth--
		}
	}
	return nil
}

// readState reads the TabbyML.vscode-tabby row's edit.recentlyCommand
// (clients/vscode/src/Config.ts: a string array, newest first).
func readState(ctx context.Context, st *vscodestate.VSCodeState, present map[string]string, in *parser.Input, out parser.Sink) error {
	r, ok, err := st.Item(ctx, present[strings.ToLower(ExtensionID)])
	if err != nil || !ok {
		return err
	}
	var m struct {
		Recently *[]string `json:"edit.recentlyCommand"`
	}
	if err := r.JSON(&m); err != nil {
		out.Problem(r.Rowid, r.NotObject(err))
		return nil
	}
	if m.Recently == nil || len(*m.Recently) == 0 {
		out.Skip(r.Rowid, "no_evidence:tabby-state-without-command-history")
		return nil
	}
	for _, c := range *m.Recently {
		commandRow(out, r.Rowid, c)
	}
	return nil
}
