package continuesession

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// MaxWholeBytes bounds the small files read whole.
const MaxWholeBytes = 8 << 20

func ReadWhole(in *parser.Input, out parser.Sink) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxWholeBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(data) > MaxWholeBytes {
		out.Problem(0, "larger than 8 MiB: not read")
		return nil, nil
	}
	return data, nil
}

// EpochMillis reads a time written as epoch milliseconds: a JSON number or
// a string of digits (sessions.json dateCreated is String(Date.now())).
// An ISO 8601 string is accepted too.
func EpochMillis(raw json.RawMessage) (time.Time, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, false
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return time.Time{}, false
		}
	} else {
		s = string(raw)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f <= 0 {
			return time.Time{}, false
		}
		if f < 1e11 { // seconds
			return time.Unix(int64(f), 0).UTC(), true
		}
		return time.UnixMilli(int64(f)).UTC(), true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// ArgsJSON turns a tool call's arguments (an OpenAI-style JSON string, or
// an object in some CLI records) into compact JSON and its decoded map.
func ArgsJSON(raw json.RawMessage) (string, map[string]any) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return parser.CompactJSON(raw), nil
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return "", nil
		}
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			return parser.CompactJSON([]byte(s)), m
		}
		q, _ := json.Marshal(s)
		return string(q), nil
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return parser.CompactJSON(raw), m
}

// Identifying picks a tool call's most Identifying argument: the command,
// the file path, the URL, the pattern or the query.
func Identifying(args map[string]any) string {
	for _, k := range []string{"command", "cmd", "filepath", "file_path", "filePath", "path", "url", "pattern", "query", "dirPath", "directory_path", "dirpath", "name"} {
		if s, ok := args[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// ContentText renders MessageContent: a string, or parts of {type:"text",
// text} and {type:"imageUrl"}.
func ContentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"imageUrl"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return parser.CompactJSON(raw)
	}
	var b strings.Builder
	for _, p := range parts {
		var t string
		switch {
		case p.Type == "text" || p.Text != "":
			t = p.Text
		case p.Type == "imageUrl" || p.ImageURL != nil:
			t = "[image]"
		}
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t)
	}
	return b.String()
}

// ProjectPath turns a workspaceDirectory (a file:// URI in the IDE
// extensions, a plain path in the CLI) into a path.
func ProjectPath(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "file://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	p := u.Path
	// file:///c%3A/Users/x -> c:/Users/x
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	if u.Host != "" && u.Host != "localhost" {
		p = "//" + u.Host + p
	}
	return p
}
