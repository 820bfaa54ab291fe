package cline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sdkSessionOf derives a messages file's session from its path: the lead's
// sessions/<id>/<id>.messages.json is <id>; a subagent's
// sessions/<id>/agent_<x>.messages.json is "<id>__agent_<x>" (the id the
// SDK gives it in sessions.db and in the file's own sessionId), child of
// <id>.
func sdkSessionOf(p string) (session, parent string) {
	p = slash(p)
	dir := path.Base(path.Dir(p))
	base := strings.TrimSuffix(path.Base(p), ".messages.json")
	if base == dir {
		return dir, ""
	}
	return dir + "__" + base, dir
}

// streamObject reads a JSON object key by key, calling field with each
// key and its raw value, except for arrayKey, whose elements go to elem
// one at a time (1-based). It returns a parse error for a file cut short or
// not an object.
func streamObject(ctx context.Context, r io.Reader, arrayKey string, field func(key string, v jsontext.Value), elem func(n int64, raw json.RawMessage)) (int64, error) {
	dec := jsontext.NewDecoder(bufio.NewReaderSize(r, 1<<16), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	tok, err := dec.ReadToken()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, nil
		}
		return 0, err
	}
	if tok.Kind() != '{' {
		return 0, parser.ErrNotObject
	}
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if dec.PeekKind() == '}' {
			_, err := dec.ReadToken()
			return n, err
		}
		kt, err := dec.ReadToken()
		if err != nil {
			return n, err
		}
		key := kt.String()
		if key == arrayKey && dec.PeekKind() == '[' {
			if _, err := dec.ReadToken(); err != nil {
				return n, err
			}
			for dec.PeekKind() != ']' {
				if err := ctx.Err(); err != nil {
					return n, err
				}
				v, err := dec.ReadValue()
				if err != nil {
					return n, err
				}
				n++
				elem(n, json.RawMessage(v.Clone()))
			}
			if _, err := dec.ReadToken(); err != nil {
				return n, err
			}
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return n, err
		}
		field(key, v)
	}
}

// parseSDKMessages reads sessions/<id>/<id>.messages.json and a
// subagent's agent_<x>.messages.json: the conversation, one message per
// array element (SourceLine its 1-based position).
func parseSDKMessages(ctx context.Context, in *parser.Input, out parser.Sink) error {
	session, parent := sdkSessionOf(in.Path)
	rec := loadSDKRecord(in, parent, session)
	e := &sdkEmitter{out: out, session: session, parent: parent, project: rec.Cwd, names: map[string]string{}}
	if parent != "" {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: session}, ParentSessionID: parent})
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	n, err := streamObject(ctx, rc, "messages", func(key string, v jsontext.Value) {
		if key != "origin" {
			return
		}
		var o struct {
			SessionID      string `json:"sessionId"`
			ParentThreadID string `json:"parentThreadId"`
		}
		if json.Unmarshal(v, &o) == nil && o.SessionID != "" && o.SessionID != session {
			out.Problem(0, fmt.Sprintf("origin.sessionId %q differs from the session the path names (%q): rows use the path's", o.SessionID, session))
		}
	}, e.message)
	if err != nil && ctx.Err() == nil {
		out.Problem(n+1, parser.NotJSON(fmt.Sprintf("messages file after %d message(s)", n), err))
		return nil
	}
	return err
}

// sdkRecord is what the messages parser takes from the session record
// beside it (sessions/<id>/<id>.json).
type sdkRecord struct {
	Cwd string `json:"cwd"`
}

func loadSDKRecord(in *parser.Input, parent, session string) sdkRecord {
	id := session
	if parent != "" {
		id = parent
	}
	dir := path.Dir(slash(in.Path))
	var r sdkRecord
	if b, err := parser.ReadRelated(in, dir+"/"+id+".json", maxSmall); err == nil {
		_ = json.Unmarshal(b, &r)
	}
	return r
}
