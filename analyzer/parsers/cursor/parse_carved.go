package cursor

import (
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/parser/sqlitecarve"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// carvedKV is a cursorDiskKV record the SQLite carver recovered, as the
// live rows are read.
type carvedKV struct {
	rec  sqlitecarve.Record
	row  vscodestate.StateRow
	used bool
}

// loadCarved takes the cursorDiskKV records the carver recovered from
// state.vscdb's freed space and stale WAL frames. cursorDiskKV's key is
// UNIQUE ON CONFLICT REPLACE: every rewrite of a bubble or composer (as a
// reply streams) frees the old record, so a recovered record whose key is
// live, or was recovered before, is an older version of that record
// (recovered_copy skip). The composerData: and bubbleId: records of keys
// no longer live are kept for carvedComposers and the bubble lookups;
// the rest are counted by key prefix in one carve problem each.
func (s *stateReader) loadCarved(c *parser.Carved) {
	s.carved = map[string]*carvedKV{}
	other := map[string]int{}
	lost := 0
	for _, rec := range c.Records("cursorDiskKV") {
		m := rec.Row()
		key := parser.SQLText(m["key"])
		line := int64(0)
		if rec.RowidKnown {
			line = rec.Rowid
		}
		var val []byte
		switch v := m["value"].(type) {
		case []byte:
			val = v
		case string:
			val = []byte(v)
		}
		if key == "" || val == nil {
			lost++
			continue
		}
		if _, ok, err := s.st.KV(s.ctx, key); err == nil && ok {
			s.out.Skip(line, "recovered_copy:older version of a live cursorDiskKV record")
			continue
		}
		if s.carved[key] != nil {
			s.out.Skip(line, "recovered_copy:older version of a recovered cursorDiskKV record")
			continue
		}
		if !strings.HasPrefix(key, "composerData:") && !strings.HasPrefix(key, "bubbleId:") {
			p, _, _ := strings.Cut(key, ":")
			other[p]++
			continue
		}
		s.carved[key] = &carvedKV{rec: rec, row: vscodestate.StateRow{Table: "cursorDiskKV", Rowid: line, Key: key, Size: int64(len(val)), Value: val}}
	}
	if lost > 0 {
		s.out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered cursorDiskKV record(s) lost their key or value: not given rows", lost))
	}
	var ps []string
	for p := range other {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		s.out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered cursorDiskKV record(s) of key prefix %s: (no longer live): not mapped to rows", other[p], p))
	}
}

// provenance emits the row naming where a recovered record was found, in
// c's session, through the record's own sink, at the record's createdAt
// (else the conversation's time so far).
func (s *stateReader) provenance(c *conv, ck *carvedKV, rid string) {
	what := "recovered record"
	if ck.rec.Partial {
		what = "partially recovered record"
	}
	var v struct {
		CreatedAt json.RawMessage `json:"createdAt"`
	}
	_ = ck.row.JSON(&v)
	t, ok := jsonTime(v.CreatedAt)
	e := c.base(ck.row.Rowid, t, ok)
	e.TurnType, e.RecordID = timeline.System, rid+"#recovered"
	e.Text = fmt.Sprintf("%s: %s (%s)", what, ck.row.Key, ck.rec.Provenance())
	s.out.Event(e)
}

// recoveredBubble emits a recovered bubbleId:<composer>:<bid> record of
// conversation c, marked recovered; c's session reads recovered partial
// (yes when its composer was recovered too: the stronger value wins).
func (s *stateReader) recoveredBubble(c *conv, ck *carvedKV, bid string, modelShown *bool) bool {
	ck.used = true
	keep := s.out
	s.out = parser.RecoveredSink(s.orig, &ck.rec)
	defer func() { s.out = keep }()
	s.provenance(c, ck, c.id+":"+bid)
	ok := s.bubbleRow(c, ck.row, bid, modelShown)
	s.orig.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: c.session}, Recovered: "partial"})
	return ok
}

// carvedComposers gives each recovered composerData record of a
// conversation no longer live the rows a live composer gives (its
// bubbles from the live store or, when deleted too, from the recovered
// ones), each marked recovered, after a row naming where it was found;
// the session reads recovered yes. live gains its id, so a header that
// outlived it is folded as a live composer's is.
func (s *stateReader) carvedComposers(headers map[string]*header, parents map[string]string, live map[string]bool) {
	var keys []string
	for k := range s.carved {
		if strings.HasPrefix(k, "composerData:") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s.ctx.Err() != nil {
			return
		}
		ck := s.carved[k]
		id := strings.TrimPrefix(k, "composerData:")
		ck.used, live[id] = true, true
		s.out = parser.RecoveredSink(s.orig, &ck.rec)
		s.provenance(&conv{id: id, session: id, parent: parents[id]}, ck, id)
		if err := s.composer(id, ck.row, headers[id], parents[id]); err != nil {
			s.orig.Report(ck.row.Rowid, parser.KindCarve, fmt.Sprintf("recovered %s (%s): %v", k, ck.rec.Provenance(), err))
		}
		s.out = s.orig
		s.orig.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Recovered: "yes"})
	}
}

// carvedLeft counts the recovered bubbles no live or recovered
// conversation named, by composer: one carve problem each.
func (s *stateReader) carvedLeft() {
	by := map[string]int{}
	for k, ck := range s.carved {
		if !ck.used {
			rest := strings.TrimPrefix(k, "bubbleId:")
			composer, _, _ := strings.Cut(rest, ":")
			by[composer]++
		}
	}
	var ids []string
	for id := range by {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s.orig.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered bubbleId record(s) of composer %s that neither a live nor a recovered conversation names: not given rows", by[id], id))
	}
}

// carvedWithPrefix lists the unused recovered records under prefix, in
// key order.
func (s *stateReader) carvedWithPrefix(prefix string) []string {
	var keys []string
	for k, ck := range s.carved {
		if !ck.used && strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
