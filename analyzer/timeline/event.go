package timeline

import (
	"strings"
	"time"
)

// SchemaVersion is the timeline row schema (SchemaVer MODEL-REVISION-ADDITION).
// 1-0-0: the sixteen fields of the first release plus parser, secondary and
// time_basis. 1-0-1: record_id, parent_session_id and verified appended.
// 1-0-2: action appended. 1-0-3: recovered and provenance appended,
// written only on rows recovered from an agent store's freed space.
const SchemaVersion = "1-0-3"

// TurnType classifies a row.
type TurnType string

// Turn types. System covers injected context (system reminders, environment
// blocks, developer instructions, attachments) and every record that is not
// a turn: permission decisions, model switches, sync and origin records.
const (
	User       TurnType = "user"
	Assistant  TurnType = "assistant"
	ToolUse    TurnType = "tool_use"
	ToolResult TurnType = "tool_result"
	Thinking   TurnType = "thinking"
	System     TurnType = "system"
)

// Action is what a tool call does, in one vocabulary across agents (the
// `action` field of tool_use and tool_result rows).
type Action string

// Actions.
const (
	ActExecute    Action = "execute"     // a shell command or a program run
	ActFileRead   Action = "file_read"   // read a file or list a folder
	ActFileWrite  Action = "file_write"  // create or overwrite a file
	ActFileEdit   Action = "file_edit"   // change part of a file (a patch, a replace)
	ActFileDelete Action = "file_delete" // delete or move away a file
	ActSearch     Action = "search"      // search files or code (grep, glob, an index)
	ActWebFetch   Action = "web_fetch"   // fetch a URL or search the web
	ActMCP        Action = "mcp"         // a tool of an MCP server
	ActSubagent   Action = "subagent"    // start or steer a subagent
	ActAskUser    Action = "ask_user"    // a question to the person
	ActTodo       Action = "todo"        // the agent's own plan or to-do list
	ActOther      Action = "other"       // anything else (and tools no table names)
)

// Actions lists every action in documentation order.
var Actions = []Action{ActExecute, ActFileRead, ActFileWrite, ActFileEdit, ActFileDelete, ActSearch, ActWebFetch, ActMCP, ActSubagent, ActAskUser, ActTodo, ActOther}

// TimeBasis says where a row's time came from.
type TimeBasis string

// Time bases. The zero value means the agent recorded the time in UTC (or
// with an offset) on the record itself.
const (
	TimeRecorded   TimeBasis = ""
	TimeFileMTime  TimeBasis = "file-mtime"   // the source file's modification time
	TimeLocalAsUTC TimeBasis = "local-as-utc" // host-local time with no zone, emitted as if UTC
	TimeInherited  TimeBasis = "inherited"    // the session's or enclosing record's time
	TimeNone       TimeBasis = "none"         // no time recorded: timestamp_utc is ""
	// TimeImplausible: a time recorded (or a file mtime) outside the
	// plausible window (1990-01-01 to one day after the collection, or
	// after the run when there is no collection time), kept as recorded;
	// a problem row says so, and no later row inherits it.
	TimeImplausible TimeBasis = "implausible"
	// TimeMinute: recorded by the agent in UTC, but only to the minute
	// (Cursor's <timestamp> tag); seconds and below are zero.
	TimeMinute TimeBasis = "recorded-minute"
	// TimeAnchored: recorded by the agent in UTC on another record of the
	// same event, which names the row by identity (a tool call id, or the
	// exact text of a prompt in the same session and turn); the row's own
	// record keeps no time (Grok Build's chat_history.jsonl, dated from
	// its updates.jsonl).
	TimeAnchored TimeBasis = "anchored"
)

// Event is one timeline row. Parsers fill Session, TurnType, Text and the
// rest; the engine fills Host, User, BundleID and Source.File from the
// manifest entry.
type Event struct {
	Time        time.Time // UTC; zero when not recorded (TimeBasis says why)
	TimeBasis   TimeBasis
	Host        string
	User        string
	Agent       string // catalog name
	SessionID   string
	ProjectPath string
	TurnType    TurnType
	Model       string
	ToolName    string
	ToolUseID   string
	Text        string
	ToolInput   string // the call's full arguments as a JSON string
	IsError     string // "true"/"false" on tool results, else ""
	SourceFile  string // original host path
	SourceLine  int64  // 1-based line, SQLite rowid, or 1-based array position
	BundleID    string
	Parser      string // parser ID that produced the row
	Secondary   bool   // known only from a secondary source
	// RecordID is the agent's own id of the record the row comes from
	// (Claude uuid, Codex call id, Gemini message id, opencode part id),
	// with "#<n>" appended when one record gives several rows, or "" where
	// the agent keeps none. The same (host, user, agent, record id) with
	// the same content is one row wherever it appears.
	RecordID string
	// ParentSessionID is the session a subagent or a fork belongs to.
	ParentSessionID string
	// Verified is "true" when the row's file matched its manifest hash,
	// "false" when it did not (or changed during collection), "" for a
	// loose input. Set by the engine.
	Verified string
	// Action is the tool call's action on tool_use and tool_result rows:
	// set by the parser where it depends on the call's arguments, else by
	// the engine from the parser's Spec.Actions table ("other" when the
	// table does not name the tool).
	Action Action
	// Recovered is "yes" on a row given by a record recovered whole from
	// a store's freed space (a deleted or overwritten SQLite record:
	// parser.Carve), "partial" when only part of the record survived,
	// "" on every live row. Provenance names where the record was found
	// ("freeblock on page 35 at offset 3689", "freelist page 9 at offset
	// 812", "WAL frame 7 of salt 1a2b3c4d/5e6f7a8b (earlier WAL
	// generation), page 12 at offset 96"). Both are written only when set.
	Recovered  string
	Provenance string
	// Replayed marks a row that repeats a record whose original another
	// file holds (a fork's or a resume's copied prefix): in an identity
	// merge the original wins. Not written out.
	Replayed bool
	// Seq is the emission order within one source file, set by the engine
	// so rows from one record keep their order. It is not written out.
	Seq int64
	// Ord is the engine's ordinal of the row in one run, for the
	// correlation pass. It is not written out and never orders output.
	Ord int64
}

// Undated reports whether the event has no recorded time.
func (e *Event) Undated() bool { return e.Time.IsZero() }

// TimeString renders Time as RFC 3339 UTC with milliseconds and "Z", or ""
// for an undated event.
func (e *Event) TimeString() string {
	if e.Time.IsZero() {
		return ""
	}
	return e.Time.UTC().Format("2006-01-02T15:04:05.000Z")
}

// Less orders events: by time to the millisecond the timeline shows
// (undated last), then host, then the finer time, source file, source
// line, the order the parser emitted the rows of one line (Seq), bundle
// ID and text. Rows equal on all of these keep their input order under a
// stable sort, so output is the same run to run. Host before the finer
// time: rows of two hosts in one millisecond are in the order merge gives
// them from the rows alone (it sees only the milliseconds), so a merge of
// shards is byte for byte one run; one host's rows keep their finer order.
func Less(a, b *Event) bool {
	az, bz := a.Time.IsZero(), b.Time.IsZero()
	if az != bz {
		return bz
	}
	if am, bm := a.Time.Truncate(time.Millisecond), b.Time.Truncate(time.Millisecond); !am.Equal(bm) {
		return am.Before(bm)
	}
	if c := strings.Compare(a.Host, b.Host); c != 0 {
		return c < 0
	}
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	if c := strings.Compare(a.SourceFile, b.SourceFile); c != 0 {
		return c < 0
	}
	if a.SourceLine != b.SourceLine {
		return a.SourceLine < b.SourceLine
	}
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	if c := strings.Compare(a.BundleID, b.BundleID); c != 0 {
		return c < 0
	}
	return a.Text < b.Text
}
