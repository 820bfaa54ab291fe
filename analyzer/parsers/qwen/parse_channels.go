package qwen

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// routeEntry is one persisted route of the channels SessionRouter
// (packages/channels/base/src/SessionRouter.ts PersistedEntry), keyed by
// its routing key (<channel>:<sender>:<chat>, <channel>:<chat>[:<thread>]
// or <channel>:__single__).
type routeEntry struct {
	SessionID string `json:"sessionId"`
	Target    struct {
		ChannelName string `json:"channelName"`
		SenderID    string `json:"senderId"`
		ChatID      string `json:"chatId"`
		ThreadID    string `json:"threadId"`
		IsGroup     *bool  `json:"isGroup"`
	} `json:"target"`
	Cwd       string  `json:"cwd"`
	Turns     *int64  `json:"turns"`
	StartedAt float64 `json:"startedAt"`
}

// parseChannels reads .qwen/channels/sessions.json or
// channels/daemon/<hash>/routes.json: one "session relayed:" row per
// route (at its startedAt, else the file's modification time), and the
// session's relay state set to yes.
func parseChannels(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	ft, fb := mtime(in)
	var n int64
	relayed := map[string]bool{}
	err = parser.ObjectMembers(b, func(key string, v json.RawMessage) {
		n++
		var r routeEntry
		if err := json.Unmarshal(v, &r); err != nil || r.SessionID == "" {
			out.Problem(n, "route "+key+": not a session route")
			return
		}
		t, basis := ft, fb
		if st, ok := epochMS(r.StartedAt); ok {
			t, basis = st, timeline.TimeRecorded
		}
		parts := []string{"channel=" + r.Target.ChannelName}
		if r.Target.ChatID != "" {
			parts = append(parts, "chat="+r.Target.ChatID)
		}
		if r.Target.SenderID != "" {
			parts = append(parts, "sender="+r.Target.SenderID)
		}
		if r.Target.ThreadID != "" {
			parts = append(parts, "thread="+r.Target.ThreadID)
		}
		if r.Target.IsGroup != nil && *r.Target.IsGroup {
			parts = append(parts, "group")
		}
		if r.Turns != nil {
			parts = append(parts, fmt.Sprintf("turns=%d", *r.Turns))
		}
		parts = append(parts, "key="+key)
		out.Event(timeline.Event{Time: t, TimeBasis: basis, SessionID: r.SessionID, ProjectPath: r.Cwd,
			TurnType: timeline.System, Text: "session relayed: " + strings.Join(parts, " "), SourceLine: n})
		relayed[r.SessionID] = true
	})
	if err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
	}
	ids := make([]string, 0, len(relayed))
	for id := range relayed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Relayed: "yes"})
	}
	return ctx.Err()
}
