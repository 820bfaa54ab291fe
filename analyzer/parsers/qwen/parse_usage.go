package qwen

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// usageRecord is one line of .qwen/usage_record.jsonl: a session's running
// totals written when the session ends (a resumed session appends a new
// line with the totals since it was first started).
type usageRecord struct {
	Version    int     `json:"version"`
	SessionID  string  `json:"sessionId"`
	Timestamp  float64 `json:"timestamp"`
	StartTime  float64 `json:"startTime"`
	Project    string  `json:"project"`
	DurationMs float64 `json:"durationMs"`
	Models     map[string]struct {
		Requests     int64 `json:"requests"`
		InputTokens  int64 `json:"inputTokens"`
		OutputTokens int64 `json:"outputTokens"`
		CachedTokens int64 `json:"cachedTokens"`
		TotalTokens  int64 `json:"totalTokens"`
	} `json:"models"`
	Tools struct {
		TotalCalls   int64 `json:"totalCalls"`
		TotalSuccess int64 `json:"totalSuccess"`
		TotalFail    int64 `json:"totalFail"`
		ByName       map[string]struct {
			Count int64 `json:"count"`
		} `json:"byName"`
	} `json:"tools"`
	Files struct {
		LinesAdded   int64 `json:"linesAdded"`
		LinesRemoved int64 `json:"linesRemoved"`
	} `json:"files"`
}

// parseUsage reads .qwen/usage_record.jsonl: one secondary "session usage:"
// row per record, at the record's timestamp (epoch ms), project_path its
// project. It names the session's models, token totals, tool calls and
// line counts, so a session is known even when its transcript is deleted.
func parseUsage(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, parser.BadJSONLine(nil))
			} else {
				out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
			}
		}
		for _, o := range objs {
			var u usageRecord
			if err := json.Unmarshal(o, &u); err != nil || u.SessionID == "" {
				out.Problem(n, "not a usage record")
				continue
			}
			ev := timeline.Event{SessionID: u.SessionID, ProjectPath: u.Project, TurnType: timeline.System,
				Text: usageText(&u), SourceLine: n, Secondary: true, TimeBasis: timeline.TimeNone}
			if t, ok := epochMS(u.Timestamp); ok {
				ev.Time, ev.TimeBasis = t, timeline.TimeRecorded
			}
			out.Event(ev)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

func usageText(u *usageRecord) string {
	var parts []string
	if t, ok := epochMS(u.StartTime); ok {
		parts = append(parts, "started "+t.Format("2006-01-02T15:04:05.000Z"))
	}
	if u.DurationMs > 0 {
		parts = append(parts, fmt.Sprintf("duration %.0fms", u.DurationMs))
	}
	models := make([]string, 0, len(u.Models))
	for m := range u.Models {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		s := u.Models[m]
		parts = append(parts, fmt.Sprintf("model %s requests=%d input=%d output=%d cached=%d total=%d",
			m, s.Requests, s.InputTokens, s.OutputTokens, s.CachedTokens, s.TotalTokens))
	}
	if u.Tools.TotalCalls > 0 {
		names := make([]string, 0, len(u.Tools.ByName))
		for n, c := range u.Tools.ByName {
			names = append(names, fmt.Sprintf("%s=%d", n, c.Count))
		}
		sort.Strings(names)
		parts = append(parts, fmt.Sprintf("tools calls=%d success=%d fail=%d (%s)",
			u.Tools.TotalCalls, u.Tools.TotalSuccess, u.Tools.TotalFail, strings.Join(names, " ")))
	}
	if u.Files.LinesAdded > 0 || u.Files.LinesRemoved > 0 {
		parts = append(parts, fmt.Sprintf("lines +%d -%d", u.Files.LinesAdded, u.Files.LinesRemoved))
	}
	return "session usage: " + strings.Join(parts, "; ")
}
