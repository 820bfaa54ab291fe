package opencode

import (
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/sqlitecarve"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// noEvidenceTables are the tables whose recovered records are counted,
// not mapped: the event log (its session, message and part events repeat
// the rows of those tables, which are mapped), its sequence counters,
// projects and directories (state the live rows already give), the
// migration log.
var noEvidenceTables = []string{"event", "event_sequence", "project", "project_directory", "workspace", "data_migration", "__drizzle_migrations"}

// carvedRec is one record the carver recovered, read by column name.
type carvedRec struct {
	m   map[string]any
	rec sqlitecarve.Record
}

func (c carvedRec) line() int64 {
	if c.rec.RowidKnown {
		return c.rec.Rowid
	}
	return 0
}

// carvedSession gathers what was recovered of one session.
type carvedSession struct {
	id      string
	session *carvedRec
	msgs    []carvedRec
	parts   []carvedRec
}

// carved maps the records the SQLite carver recovered from the store's
// freed space and stale WAL frames (session, message and part: the 1.x
// tables) to rows, as the live rows are mapped, under the record's own
// id. Each recovered record is preceded by a system row naming where it
// was found ("recovered record: part prt_... (freeblock on page 70 at
// offset 3864)"). A record whose id is a live record's (an older version
// of a row opencode updated) is counted, not given rows: the live row is
// the record. A session known only from recovered records reads
// recovered yes in sessions.jsonl; a live session with recovered records
// partial.
func (r *dbReader) carved(c *parser.Carved, live map[string]*dbSession) map[string]bool {
	got := map[string]bool{}
	if c == nil {
		return got
	}
	liveIDs := map[string]map[string]bool{}
	for _, t := range []string{"message", "part"} {
		liveIDs[t] = map[string]bool{}
		if r.tables[t] {
			r.scanOrProblem(t, "SELECT id FROM "+t, func(m map[string]any) { liveIDs[t][str(m["id"])] = true })
		}
	}
	// a part the sync log records as removed gets its rows from the log
	// (events): a carved version of it is an older copy of that record
	logParts := map[string]bool{}
	if r.tables["event"] {
		r.scanOrProblem("event", "SELECT data FROM event WHERE type LIKE 'message.part.removed%'", func(m map[string]any) {
			var d struct {
				PartID string `json:"partID"`
			}
			if json.Unmarshal([]byte(first(m, "data", "payload")), &d) == nil && d.PartID != "" {
				logParts[d.PartID] = true
			}
		})
	}
	lost := map[string]int{}
	by := map[string]*carvedSession{}
	get := func(id string) *carvedSession {
		if by[id] == nil {
			by[id] = &carvedSession{id: id}
		}
		return by[id]
	}
	seenID := map[string]bool{}
	for _, t := range []string{"session", "message", "part"} {
		for _, rec := range c.Records(t) {
			cr := carvedRec{m: rec.Row(), rec: rec}
			id := str(cr.m["id"])
			sid := str(cr.m["session_id"])
			if t == "session" {
				sid = id
			}
			switch {
			case id == "" || sid == "":
				lost[t]++
				continue
			case t == "session" && live[id] != nil, t != "session" && liveIDs[t][id]:
				// an older version of a live row (opencode rewrites a
				// message or part as it streams): the live row is the
				// record
				r.out.Skip(cr.line(), "recovered_copy:older version of a live "+t)
				continue
			case t == "part" && logParts[id]:
				r.out.Skip(cr.line(), "recovered_copy:older version of a part the sync log gives")
				continue
			case seenID[t+"\x00"+id]:
				// two versions of one deleted record (a row opencode
				// updated before the delete): the first found is kept
				r.out.Skip(cr.line(), "recovered_copy:older version of a recovered "+t)
				continue
			}
			seenID[t+"\x00"+id] = true
			cs := get(sid)
			switch t {
			case "session":
				cs.session = &cr
			case "message":
				cs.msgs = append(cs.msgs, cr)
			default:
				cs.parts = append(cs.parts, cr)
			}
		}
	}
	for _, t := range []string{"session", "message", "part"} {
		if n := lost[t]; n > 0 {
			r.out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered %s record(s) lost their id or session id: not given rows", n, t))
		}
	}
	// tables whose live rows give no rows of their own (state the
	// parser folds into others, events the session tables repeat)
	for _, t := range noEvidenceTables {
		for _, rec := range c.Records(t) {
			line := int64(0)
			if rec.RowidKnown {
				line = rec.Rowid
			}
			r.out.Skip(line, "no_evidence:recovered "+t+" record")
		}
	}
	ids := make([]string, 0, len(by))
	for id := range by {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if err := r.ctx.Err(); err != nil {
			return got
		}
		got[id] = true
		r.carvedSession(by[id], live[id])
	}
	return got
}

// provenance emits the row that says where a recovered record was found.
func (r *dbReader) provenance(e *emitter, t time.Time, cr carvedRec, table, id string) {
	what := "recovered record"
	if cr.rec.Partial {
		what = "partially recovered record"
	}
	e.system(t, loc{line: cr.line(), rid: id + "#recovered"}, fmt.Sprintf("%s: %s %s (%s)", what, table, id, cr.rec.Provenance()))
}

func (r *dbReader) carvedSession(cs *carvedSession, live *dbSession) {
	s := live
	recovered := "partial"
	if s == nil {
		recovered = "yes"
		s = &dbSession{info: sessionInfo{ID: cs.id}}
		if cs.session != nil {
			s = sessionFromRow(cs.session.m, cs.session.line())
			s.info.Share = nil
		}
	}
	e := r.emitter(s)
	if live == nil {
		if cs.session != nil {
			e.out = parser.RecoveredSink(r.out, &cs.session.rec)
			r.provenance(e, msTime(int64(s.info.Time.Created)), *cs.session, "session", cs.id)
			e.sessionRows(&s.info, loc{line: s.rowid})
			if s.shareURL != "" {
				r.syncRow(e, msTime(int64(s.info.Time.Updated)), loc{line: s.rowid}, s.shareURL, "")
			}
			e.out = r.out
		} else {
			r.out.Report(0, parser.KindOrphanRecord, "recovered records of session "+cs.id+" whose session row was not recovered: kept")
		}
	}
	r.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: r.in.Agent, SessionID: cs.id}, Recovered: recovered})
	parts := map[string][]partRec{}
	var order []string
	sort.SliceStable(cs.parts, func(i, j int) bool {
		a, b := cs.parts[i].m, cs.parts[j].m
		if ma, mb := str(a["message_id"]), str(b["message_id"]); ma != mb {
			return ma < mb
		}
		return str(a["id"]) < str(b["id"])
	})
	for _, cr := range cs.parts {
		p, mid, err := partFromRow(cr.m)
		if err != nil {
			r.out.Report(cr.line(), parser.KindCarve, fmt.Sprintf("recovered part %s (%s): data: %v", str(cr.m["id"]), cr.rec.Provenance(), err))
			continue
		}
		created := msTime(i64(cr.m["time_created"]))
		out := parser.RecoveredSink(r.out, &cr.rec)
		e.out = out
		r.provenance(e, created, cr, "part", p.ID)
		e.out = r.out
		if _, ok := parts[mid]; !ok {
			order = append(order, mid)
		}
		parts[mid] = append(parts[mid], partRec{p: p, loc: loc{line: cr.line(), rid: p.ID}, created: created, out: out})
	}
	sort.SliceStable(cs.msgs, func(i, j int) bool {
		a, b := cs.msgs[i].m, cs.msgs[j].m
		if ta, tb := i64(a["time_created"]), i64(b["time_created"]); ta != tb {
			return ta < tb
		}
		return str(a["id"]) < str(b["id"])
	})
	done := map[string]bool{}
	for _, cr := range cs.msgs {
		mi, err := msgFromRow(cr.m)
		if err != nil {
			r.out.Report(cr.line(), parser.KindCarve, fmt.Sprintf("recovered message %s (%s): data: %v", str(cr.m["id"]), cr.rec.Provenance(), err))
			continue
		}
		e.out = parser.RecoveredSink(r.out, &cr.rec)
		r.provenance(e, msTime(int64(mi.Time.Created)), cr, "message", mi.ID)
		done[mi.ID] = true
		e.message(&mi, parts[mi.ID], loc{line: cr.line(), rid: mi.ID})
		e.out = r.out
	}
	// parts whose message is live (a part deleted from a kept message) or
	// was not recovered
	for _, mid := range order {
		if done[mid] {
			continue
		}
		role := ""
		var mt time.Time
		model := ""
		if mi, ok := r.liveMessage(mid); ok {
			role, mt = mi.Role, msTime(int64(mi.Time.Created))
			if role == "assistant" {
				model = joinModel(mi.ProviderID, mi.ModelID)
			}
		} else {
			r.out.Report(parts[mid][0].loc.line, parser.KindOrphanRecord, fmt.Sprintf("%d recovered part(s) of message %s in session %s whose message row was neither live nor recovered: kept, role unknown", len(parts[mid]), mid, cs.id))
		}
		for i := range parts[mid] {
			pr := &parts[mid][i]
			e.partOf(role, pr, mt, model, false)
		}
	}
}

// liveMessage reads one live message by id.
func (r *dbReader) liveMessage(id string) (msgInfo, bool) {
	var mi msgInfo
	ok := false
	if !r.tables["message"] {
		return mi, false
	}
	r.scanOrProblem("message", "SELECT * FROM message WHERE id=?", func(m map[string]any) {
		if v, err := msgFromRow(m); err == nil {
			mi, ok = v, true
		}
	}, id)
	return mi, ok && strings.TrimSpace(mi.ID) != ""
}
