package vscode

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// Entry kinds of VS Code's ObjectMutationLog (objectMutationLog.ts).
const (
	kindInitial = 0 // {"kind":0,"v":<whole object>}
	kindSet     = 1 // {"kind":1,"k":[path],"v":value}
	kindPush    = 2 // {"kind":2,"k":[path],"v":[items]?,"i":index?}
	kindDelete  = 3 // {"kind":3,"k":[path]}
)

// logEntry is one line of a chatSessions/*.jsonl mutation log.
type logEntry struct {
	Kind json.RawMessage `json:"kind"`
	K    []any           `json:"k"`
	V    json.RawMessage `json:"v"`
	I    json.RawMessage `json:"i"`
}

// session is a replayed chat session: the object and, for each request,
// the log line that wrote it whole (its SourceLine).
type session struct {
	root    map[string]any
	reqLine []int64
	lines   int64 // last line applied
	// applied are the lines whose entries were applied (each is
	// accounted for by a row or a Skip once the rows are written).
	applied []int64
	// removed are the requests a later entry took out of the session (a
	// truncating push, a set of the list or of a request with another
	// request, a delete, a kind 0 rewrite without them): what happened
	// stays, so they are written too, after a system row.
	removed []removedRequest
}

// removedRequest is a request taken out of the session by line by.
type removedRequest struct {
	req      map[string]any
	line, by int64
}

// requestIDs maps the session's requests by requestId (with their line).
func (s *session) requestIDs() map[string]removedRequest {
	m := map[string]removedRequest{}
	for i, r := range arr(s.root["requests"]) {
		req := obj(r)
		if req == nil {
			continue
		}
		id := str(req["requestId"])
		if id == "" {
			continue
		}
		line := int64(0)
		if i < len(s.reqLine) {
			line = s.reqLine[i]
		}
		m[id] = removedRequest{req: req, line: line}
	}
	return m
}

// noteRemoved records the requests of before that the session no longer
// holds after line n.
func (s *session) noteRemoved(before map[string]removedRequest, n int64) {
	if len(before) == 0 {
		return
	}
	after := s.requestIDs()
	var ids []string
	for id := range before {
		if _, ok := after[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		return before[ids[i]].line < before[ids[j]].line || before[ids[i]].line == before[ids[j]].line && ids[i] < ids[j]
	})
	for _, id := range ids {
		r := before[id]
		r.by = n
		s.removed = append(s.removed, r)
	}
}

// entryKind reads kind as a number, a numeric string or a name.
func entryKind(raw json.RawMessage) (int, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return 0, false
	}
	switch x := v.(type) {
	case float64:
		return int(x), x == float64(int(x))
	case string:
		s := strings.TrimSpace(strings.ToLower(x))
		if n, err := strconv.Atoi(s); err == nil {
			return n, true
		}
		switch s {
		case "initial":
			return kindInitial, true
		case "set":
			return kindSet, true
		case "push":
			return kindPush, true
		case "delete":
			return kindDelete, true
		}
	}
	return 0, false
}

// replayLog replays a mutation log line by line: the last record for a
// path wins, pushes with "i" truncate first, deletions apply, and a later
// kind 0 replaces everything (a compacted rewrite). Bad lines are problems.
func replayLog(ctx context.Context, r io.Reader, out parser.Sink) (*session, error) {
	var s *session
	err := parser.Lines(ctx, r, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, parser.BadJSONLine(nil))
				return nil
			}
			out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
		}
		for _, o := range objs {
			var e logEntry
			if err := json.Unmarshal(o, &e); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			k, ok := entryKind(e.Kind)
			if !ok {
				out.Problem(n, "unknown entry kind "+string(e.Kind))
				continue
			}
			if k == kindInitial {
				v, err := decodeBytes(e.V)
				root := obj(v)
				if err != nil || root == nil {
					out.Problem(n, "initial entry is not an object")
					continue
				}
				var before map[string]removedRequest
				var removed []removedRequest
				var applied []int64
				if s != nil {
					before, removed, applied = s.requestIDs(), s.removed, s.applied
				}
				s = &session{root: root, removed: removed, applied: append(applied, n)}
				s.reqLine = make([]int64, len(arr(root["requests"])))
				for i := range s.reqLine {
					s.reqLine[i] = n
				}
				s.noteRemoved(before, n)
				s.lines = n
				continue
			}
			if s == nil {
				out.Problem(n, "entry before the initial (kind 0) entry")
				continue
			}
			var before map[string]removedRequest
			if len(e.K) > 0 && len(e.K) <= 2 && fmt.Sprint(e.K[0]) == "requests" {
				before = s.requestIDs()
			}
			if msg := s.apply(k, e, n); msg != "" {
				out.Problem(n, msg)
			} else {
				s.applied = append(s.applied, n)
				s.noteRemoved(before, n)
			}
			s.lines = n
		}
		return nil
	})
	return s, err
}

// pathKey converts one path element (string or number) to a key or index.
func pathKey(p any) (string, int, bool) {
	switch x := p.(type) {
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return x, n, true
		}
		return x, -1, true
	case float64:
		return strconv.Itoa(int(x)), int(x), true
	}
	return "", -1, false
}

func pathString(k []any) string {
	parts := make([]string, len(k))
	for i, p := range k {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, ".")
}

// update walks path k from node and replaces the value at its end with
// fn(old). It returns the updated node (an array may grow, so the parent
// stores what is returned). A missing intermediate value is an error, as
// it is for VS Code's reader.
func update(node any, k []any, fn func(old any) (any, bool)) (any, error) {
	key, idx, ok := pathKey(k[0])
	if !ok {
		return nil, fmt.Errorf("bad path element %v", k[0])
	}
	switch x := node.(type) {
	case map[string]any:
		if len(k) == 1 {
			nv, keep := fn(x[key])
			if keep {
				x[key] = nv
			} else {
				delete(x, key)
			}
			return x, nil
		}
		child, err := update(x[key], k[1:], fn)
		if err != nil {
			return nil, err
		}
		x[key] = child
		return x, nil
	case []any:
		if idx < 0 {
			return nil, fmt.Errorf("array index %q", key)
		}
		if len(k) == 1 {
			for len(x) <= idx {
				x = append(x, nil)
			}
			nv, _ := fn(x[idx])
			x[idx] = nv
			return x, nil
		}
		if idx >= len(x) {
			return nil, fmt.Errorf("path index %d out of range", idx)
		}
		child, err := update(x[idx], k[1:], fn)
		if err != nil {
			return nil, err
		}
		x[idx] = child
		return x, nil
	}
	return nil, fmt.Errorf("path %s crosses a missing value", pathString(k))
}

func (s *session) apply(kind int, e logEntry, n int64) string {
	if len(e.K) == 0 {
		// VS Code ignores a root-level set or delete; so do we.
		if kind == kindSet || kind == kindDelete {
			return ""
		}
		return "push without a path"
	}
	isReq := fmt.Sprint(e.K[0]) == "requests"
	var fn func(old any) (any, bool)
	var after func(newLen int)
	switch kind {
	case kindSet:
		v, err := decodeBytes(e.V)
		if err != nil {
			return parser.NotJSON("set value", nil)
		}
		fn = func(any) (any, bool) { return v, true }
		if isReq && len(e.K) == 1 {
			s.reqLine = make([]int64, len(arr(v)))
			for i := range s.reqLine {
				s.reqLine[i] = n
			}
		}
		if isReq && len(e.K) == 2 {
			if _, idx, _ := pathKey(e.K[1]); idx >= 0 {
				for len(s.reqLine) <= idx {
					s.reqLine = append(s.reqLine, n)
				}
				s.reqLine[idx] = n
			}
		}
	case kindDelete:
		fn = func(any) (any, bool) { return nil, false }
	case kindPush:
		var items []any
		if len(e.V) > 0 && string(e.V) != "null" {
			v, err := decodeBytes(e.V)
			if err != nil || arr(v) == nil && v != nil {
				return "push value is not an array"
			}
			items = arr(v)
		}
		trunc := -1
		if len(e.I) > 0 && string(e.I) != "null" {
			f, ok := num(mustDecode(e.I))
			if !ok || f < 0 {
				return "bad push index"
			}
			trunc = int(f)
		}
		fn = func(old any) (any, bool) {
			cur := arr(old)
			if trunc >= 0 {
				if trunc < len(cur) {
					cur = cur[:trunc]
				}
				for len(cur) < trunc {
					cur = append(cur, nil)
				}
			}
			cur = append(cur, items...)
			if after != nil {
				after(len(cur))
			}
			return cur, true
		}
		if isReq && len(e.K) == 1 {
			after = func(newLen int) {
				keep := len(s.reqLine)
				if trunc >= 0 && trunc < keep {
					keep = trunc
				}
				s.reqLine = s.reqLine[:keep]
				for len(s.reqLine) < newLen {
					s.reqLine = append(s.reqLine, n)
				}
			}
		}
	default:
		return "unknown entry kind " + strconv.Itoa(kind)
	}
	root, err := update(s.root, e.K, fn)
	if err != nil {
		return err.Error()
	}
	if m := obj(root); m != nil {
		s.root = m
	}
	return ""
}

func mustDecode(b []byte) any {
	v, _ := decodeBytes(b)
	return v
}
