package vscode

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// chatKey matches the settings.json keys read: chat and Copilot keys that
// grant tools without asking (chat.tools.global.autoApprove,
// chat.tools.terminal.autoApprove, chat.tools.edits.autoApprove,
// chat.tools.urls.autoApprove, chat.tools.eligibleForAutoApproval), set the
// default permission level (chat.permissions.default) or pick the default
// model.
var chatKey = regexp.MustCompile(`(?i)^(chat|github\.copilot|inlinechat)\.`)

var chatSettingKey = regexp.MustCompile(`(?i)(autoapprov|approv|permission|yolo|trust|confirm|defaultmodel|default\.model|\.model$|modelid)`)

// secretKey matches key names whose values are never printed.
var secretKey = regexp.MustCompile(`(?i)(token|secret|password|passwd|api[_-]?key|apikey|credential)`)

// parseSettings reads User/settings.json or a profile's settings.json
// (JSON with comments and trailing commas): one "permission setting:
// <key>=<value> (from <file>, file mtime)" row per leaf of each chat
// auto-approve, default permission and default model key.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := readAllLimited(rc)
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	v, err := decodeBytes(parser.StandardJSON(b))
	root := obj(v)
	if err != nil || root == nil {
		out.Problem(0, parser.NotJSONObject("", nil))
		return nil
	}
	ft, fb := fileTime(in)
	var n int64
	emit := func(key, val string) {
		n++
		out.Event(timeline.Event{Time: ft, TimeBasis: fb, TurnType: timeline.System, SourceLine: n,
			Text: fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, val, in.Path)})
	}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		last := key[strings.LastIndex(key, ".")+1:]
		if secretKey.MatchString(last) {
			emit(key, "[redacted]")
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 {
				emit(key, "{}")
			}
			for _, k := range sortedKeys(x) {
				walk(key+"."+k, x[k])
			}
		case []any:
			if len(x) == 0 {
				emit(key, "[]")
			}
			for _, e := range x {
				if s := str(e); s != "" {
					emit(key+"[]", s)
				} else {
					emit(key+"[]", parser.JSONValue(e))
				}
			}
		case nil:
			emit(key, "null")
		default:
			emit(key, str(x))
		}
	}
	for _, k := range sortedKeys(root) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if chatKey.MatchString(k) && chatSettingKey.MatchString(k) {
			walk(k, root[k])
		}
	}
	return nil
}
