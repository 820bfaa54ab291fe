package continuedev

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"go.yaml.in/yaml/v3"
)

// parsePermissions reads the CLI's permissions.yaml {allow, ask, exclude:
// [rule]} (extensions/cli/src/permissions/permissionsYamlLoader.ts): one
// "permission setting: <list>=<rule> (from <file>, file mtime)" row each.
func parsePermissions(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := readWhole(in, out)
	if err != nil || data == nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		out.Problem(0, "not valid YAML: "+err.Error())
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		out.Problem(0, "permissions.yaml is not a mapping")
		return nil
	}
	file := parser.DisplayFile(&in.File)
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, list := root.Content[i].Value, root.Content[i+1]
		if list.Kind != yaml.SequenceNode {
			if list.Kind == yaml.ScalarNode && list.Tag != "!!null" {
				out.Problem(int64(root.Content[i].Line), key+" is not a list")
			}
			continue
		}
		for _, r := range list.Content {
			if r.Kind != yaml.ScalarNode {
				out.Report(int64(r.Line), parser.KindSkippedRecord, key+": a rule that is not a string")
				continue
			}
			e := parser.SettingEvent(&in.File)
			e.SourceLine = int64(r.Line)
			e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, r.Value, file)
			out.Event(e)
		}
	}
	return nil
}

// parseInputHistory reads input_history.json, a JSON array of {text,
// timestamp (epoch ms)} newest first (extensions/cli/src/util/inputHistory.ts):
// one secondary user row per entry. A duplicate prompt keeps only its last
// use (the CLI removes the earlier entry).
func parseInputHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	dec := json.NewDecoder(rc)
	tok, err := dec.Token()
	if err != nil {
		if err.Error() == "EOF" {
			return nil
		}
		out.Problem(0, parser.NotJSONArray("", err))
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		out.Problem(0, parser.NotJSONArray("", nil))
		return nil
	}
	for i := int64(1); dec.More(); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var ent struct {
			Text      string          `json:"text"`
			Timestamp json.RawMessage `json:"timestamp"`
		}
		if err := dec.Decode(&ent); err != nil {
			out.Problem(i, "bad entry: "+parser.JSONError(err))
			return nil
		}
		if strings.TrimSpace(ent.Text) == "" {
			out.Skip(i, "empty_prompt")
			continue
		}
		e := timeline.Event{TurnType: timeline.User, Text: ent.Text, SourceLine: i, Secondary: true}
		if t, ok := epochMillis(ent.Timestamp); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}
