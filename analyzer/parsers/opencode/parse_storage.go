package opencode

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseStorage reads one session of the JSON tree OpenCode wrote before
// its SQLite store (and migrates from at the first 1.2 start):
//
//	storage/session/<projectID>/<ses>.json   Session.Info
//	storage/message/<ses>/<msg>.json         MessageV2.Info
//	storage/part/<msg>/<prt>.json            MessageV2.Part
//	storage/session_share/<ses>.json         {id, secret, url}
//
// and the older project/<slug>/storage/session/{info,message,part} tree
// (info/<ses>.json, message/<ses>/<msg>.json, part/<ses>/<msg>/<prt>.json).
// The session file is the input; its messages and parts are opened as
// related files, so the rows name them as their source.
// sessionDir is the storage folder of the session records: IcodeMate
// keeps them in storage/session_diff/<projectID>/<ses>.json (kenn-io/agentsview
// 5386007 discovery.go icodemateFmt), OpenCode and Kilo in storage/session/.
func sessionDir(agent string) string {
	if agent == agentIcode || agent == agentMiMo {
		// iCodeMate and MiMoCode keep the session infos OpenCode keeps in
		// session/ in session_diff/<project>/ (OpenCode's
		// session_diff/<ses>.json, one level up, is a diff)
		return "session_diff"
	}
	return "session"
}

func parseStorage(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	dir := path.Dir(p)
	switch {
	case path.Base(dir) == "session_share":
		return parseShareMarker(in, out)
	case path.Base(path.Dir(dir)) != sessionDir(in.Agent):
		return nil // todo/, session_diff/ and other per-session files
	}
	var s sessionInfo
	if err := decodeFile(in.Open, &s); err != nil {
		out.Problem(1, "session: "+err.Error())
		return nil
	}
	if s.ID == "" {
		s.ID = strings.TrimSuffix(path.Base(p), ".json")
	}
	sessDir := path.Dir(dir)
	root := path.Dir(sessDir)
	e := &emitter{out: out, agent: in.Agent, sess: s.ID, project: s.Directory, start: msTime(int64(s.Time.Created))}
	e.sessionRows(&s, loc{line: 1})

	type msgFile struct {
		info msgInfo
		path string
	}
	var msgs []msgFile
	for _, pat := range []string{root + "/message/" + s.ID + "/*.json", sessDir + "/message/" + s.ID + "/*.json"} {
		for _, f := range in.List(parser.GlobEscape(path.Dir(pat)) + "/*.json") {
			if err := ctx.Err(); err != nil {
				return err
			}
			var mi msgInfo
			if err := decodeRelated(in, f.Path, &mi); err != nil {
				out.Problem(0, f.Path+": "+err.Error())
				continue
			}
			msgs = append(msgs, msgFile{mi, f.Path})
		}
	}
	sort.SliceStable(msgs, func(i, j int) bool {
		a, b := msgs[i].info, msgs[j].info
		if a.Time.Created != b.Time.Created {
			return a.Time.Created < b.Time.Created
		}
		return a.ID < b.ID
	})
	for _, m := range msgs {
		mid := m.info.ID
		if mid == "" {
			mid = strings.TrimSuffix(path.Base(m.path), ".json")
		}
		var parts []partRec
		for i, raw := range m.info.Parts { // inline parts (pre-1.0 files)
			var pt part
			if json.Unmarshal(raw, &pt) == nil {
				parts = append(parts, partRec{p: pt, loc: loc{file: m.path, line: int64(i + 1), rid: pt.ID}})
			}
		}
		for _, dir := range []string{root + "/part/" + mid, sessDir + "/part/" + s.ID + "/" + mid} {
			for _, f := range in.List(parser.GlobEscape(dir) + "/*.json") {
				var pt part
				if err := decodeRelated(in, f.Path, &pt); err != nil {
					out.Problem(0, f.Path+": "+err.Error())
					continue
				}
				parts = append(parts, partRec{p: pt, loc: loc{file: f.Path, line: 1, rid: pt.ID}})
			}
		}
		e.message(&m.info, parts, loc{file: m.path, line: 1, rid: mid})
	}
	return ctx.Err()
}

// parseShareMarker reads storage/session_share/<ses>.json: the session was
// shared (uploaded). The secret is not read.
func parseShareMarker(in *parser.Input, out parser.Sink) error {
	var v struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if err := decodeFile(in.Open, &v); err != nil {
		out.Problem(1, "session_share: "+err.Error())
		return nil
	}
	sid := strings.TrimSuffix(baseName(in.Path), ".json")
	e := &emitter{out: out, agent: in.Agent, sess: sid}
	what := "share"
	if v.ID != "" {
		what += " " + v.ID
	}
	if v.URL != "" {
		what += " " + v.URL
	}
	ev := e.base(in.MTime, loc{line: 1, rid: sid + "#share-file"})
	if !in.MTime.IsZero() {
		ev.TimeBasis = timeline.TimeFileMTime
	}
	ev.TurnType, ev.Text = timeline.System, "session synced: "+what+" (from session_share/"+baseName(in.Path)+", file mtime)"
	out.Event(ev)
	out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: in.Agent, SessionID: sid}, Synced: "yes"})
	return nil
}

// export is the output of `opencode export <session>`.
type export struct {
	Info     *sessionInfo `json:"info"`
	Messages []struct {
		Info  msgInfo           `json:"info"`
		Parts []json.RawMessage `json:"parts"`
	} `json:"messages"`
}

// parseExport reads an `opencode export` file: {info, messages:[{info,
// parts}]}. SourceLine is the 1-based index in messages. A JSON file of
// another shape gives nothing.
func parseExport(ctx context.Context, in *parser.Input, out parser.Sink) error {
	var x export
	if err := decodeFile(in.Open, &x); err != nil {
		return nil // not an export (project/<id>.json and the like)
	}
	if x.Info == nil || x.Info.ID == "" || x.Messages == nil {
		return nil
	}
	e := &emitter{out: out, agent: in.Agent, sess: x.Info.ID, project: x.Info.Directory, start: msTime(int64(x.Info.Time.Created))}
	e.sessionRows(x.Info, loc{line: 0})
	for i, m := range x.Messages {
		if err := ctx.Err(); err != nil {
			return err
		}
		l := loc{line: int64(i + 1), rid: m.Info.ID}
		var parts []partRec
		for _, raw := range m.Parts {
			var pt part
			if err := json.Unmarshal(raw, &pt); err != nil {
				out.Problem(l.line, "part: "+parser.JSONError(err))
				continue
			}
			parts = append(parts, partRec{p: pt, loc: loc{line: l.line, rid: pt.ID}})
		}
		e.message(&m.Info, parts, l)
	}
	return nil
}

func decodeFile(open func() (io.ReadCloser, error), v any) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := json.NewDecoder(rc).Decode(v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

func decodeRelated(in *parser.Input, p string, v any) error {
	return decodeFile(func() (io.ReadCloser, error) { return in.OpenRelated(p) }, v)
}
