package cline

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseCloudStatuses reads globalState.json cloudSessionStatuses ({<cloud
// session id>: {status, observedAt}}): the Cline Cloud sessions the
// extension last saw, each a "session origin: remote (Cline Cloud)" and a
// "session synced: Cline Cloud status=<status>" row at observedAt.
func parseCloudStatuses(in *parser.Input, out parser.Sink, b []byte) {
	var top struct {
		Statuses map[string]struct {
			Status     string `json:"status"`
			ObservedAt num    `json:"observedAt"`
		} `json:"cloudSessionStatuses"`
	}
	if json.Unmarshal(b, &top) != nil || len(top.Statuses) == 0 {
		return
	}
	ids := make([]string, 0, len(top.Statuses))
	for id := range top.Statuses {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		st := top.Statuses[id]
		t := msTime(float64(st.ObservedAt))
		ev := timeline.Event{Time: t, Agent: Agent, SessionID: id, TurnType: timeline.System}
		if t.IsZero() {
			ev.Time, ev.TimeBasis = in.MTime, timeline.TimeFileMTime
		}
		o := ev
		o.Text, o.RecordID = "session origin: remote (Cline Cloud, from "+path.Base(slash(in.Path))+")", id+"#cloud-origin"
		out.Event(o)
		s := ev
		s.Text, s.RecordID = "session synced: Cline Cloud status="+firstNonEmpty(st.Status, "unknown"), id+"#cloud-status"
		out.Event(s)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Origin: "remote", Synced: "yes"})
	}
}

// parseCloudPending reads cloud-pending-starts/<pid>-<uuid>.json, the VS
// Code extension's write-ahead list of Cline Cloud sandboxes it started
// whose first turn was not yet accepted ([{sessionId, account,
// endpoint}]): one "session origin: remote (Cline Cloud start pending)"
// row per record at the file's mtime (the journal is refreshed while its
// host runs).
func parseCloudPending(_ context.Context, in *parser.Input, out parser.Sink) error {
	b, err := readAll(in)
	if err != nil {
		return err
	}
	var recs []struct {
		SessionID string `json:"sessionId"`
		Account   string `json:"account"`
		Endpoint  string `json:"endpoint"`
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		out.Problem(0, "not a pending-start journal (JSON array): "+parser.JSONError(err))
		return nil
	}
	hostPID := strings.SplitN(path.Base(slash(in.Path)), "-", 2)[0]
	basis := timeline.TimeFileMTime
	if in.MTime.IsZero() {
		basis = timeline.TimeNone
	}
	for i, r := range recs {
		n := int64(i + 1)
		if r.SessionID == "" {
			out.Report(n, parser.KindSkippedRecord, "pending start without sessionId")
			continue
		}
		text := "session origin: remote (Cline Cloud start pending)"
		if r.Endpoint != "" {
			text += " endpoint=" + r.Endpoint
		}
		if r.Account != "" {
			text += " account=" + r.Account
		}
		if _, err := strconv.Atoi(hostPID); err == nil {
			text += " host_pid=" + hostPID
		}
		out.Event(timeline.Event{Time: in.MTime, TimeBasis: basis, Agent: Agent, SessionID: r.SessionID, TurnType: timeline.System,
			Text: text, SourceLine: n, RecordID: r.SessionID + "#cloud-pending"})
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: r.SessionID}, Origin: "remote"})
	}
	return nil
}

// parseSyncQueue reads the VS Code extension's cache/sync-queue.json
// ({items: {<id>: {taskId, key, data, timestamp, status, retryCount,
// lastError}}}), the queue of task files it uploads to remote storage: one
// "session synced: queued upload <key> status=<status> ..." row per item
// at its timestamp (the uploaded data is counted, not printed). A task
// with a synced item reads synced "yes", one whose items are all pending
// or failed "no".
func parseSyncQueue(_ context.Context, in *parser.Input, out parser.Sink) error {
	b, err := readAll(in)
	if err != nil {
		return err
	}
	var q struct {
		Items map[string]struct {
			ID         string `json:"id"`
			TaskID     string `json:"taskId"`
			Key        string `json:"key"`
			Data       string `json:"data"`
			Timestamp  num    `json:"timestamp"`
			Status     string `json:"status"`
			RetryCount num    `json:"retryCount"`
			LastError  string `json:"lastError"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &q); err != nil {
		out.Problem(0, "not a sync queue object: "+parser.JSONError(err))
		return nil
	}
	ids := make([]string, 0, len(q.Items))
	for id := range q.Items {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	synced := map[string]string{}
	var order []string
	for i, id := range ids {
		it := q.Items[id]
		n := int64(i + 1)
		if it.TaskID == "" {
			out.Report(n, parser.KindSkippedRecord, "sync queue item "+id+" without taskId")
			continue
		}
		t := msTime(float64(it.Timestamp))
		text := fmt.Sprintf("session synced: queued upload %s status=%s retries=%d (%d bytes)", it.Key, firstNonEmpty(it.Status, "unknown"), int64(it.RetryCount), len(it.Data))
		if it.LastError != "" {
			text += " error=" + oneLine(it.LastError)
		}
		ev := timeline.Event{Time: t, Agent: Agent, SessionID: it.TaskID, TurnType: timeline.System, Text: text, SourceLine: n,
			RecordID: it.TaskID + "#sync-" + firstNonEmpty(it.Key, id)}
		if t.IsZero() {
			ev.TimeBasis = timeline.TimeNone
		}
		out.Event(ev)
		if _, seen := synced[it.TaskID]; !seen {
			order = append(order, it.TaskID)
			synced[it.TaskID] = "no"
		}
		if it.Status == "synced" {
			synced[it.TaskID] = "yes"
		}
	}
	for _, task := range order {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: task}, Synced: synced[task]})
	}
	return nil
}
