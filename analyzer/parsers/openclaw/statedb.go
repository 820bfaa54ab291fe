package openclaw

import (
	"context"
	"database/sql"
	json "github.com/go-json-experiment/json/v1"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sysRow is a system row of the shared state database.
func sysRow(sid string, t time.Time, text string, n int64, id string) timeline.Event {
	e := timeline.Event{SessionID: sid, TurnType: timeline.System, Text: text, SourceLine: n, RecordID: id}
	at(&e, t)
	return e
}

func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "SELECT count(*) FROM sqlite_master"); err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, stateStore, out)
	if err != nil {
		return err
	}
	var reads []parser.TableRead
	for _, st := range stateSteps {
		reads = append(reads, parser.TableRead{Table: st.table, Read: func() error { return st.read(ctx, db, out) }})
	}
	return parser.ReadTables(ctx, out, readable, reads...)
}

// stateSteps are the tables of state/openclaw.sqlite parseStateDB reads,
// in order, each with its reader.
var stateSteps = []struct {
	table string
	read  func(context.Context, *sql.DB, parser.Sink) error
}{
	{"exec_approvals_config", execApprovals},
	{"operator_approvals", operatorApprovals},
	{"operator_approval_standing_grants", standingGrants},
	{"channel_pairing_allow_entries", pairingAllow},
	{"channel_ingress_events", ingressEvents},
	{"github_publication_requests", githubPublications},
	{"backup_runs", backupRuns},
	{"subagent_runs", subagentRuns},
	{"diagnostic_events", configAudit},
}

// stateSchema is what parseStateDB requires of each table: the columns
// without which a row says nothing (every other column is read by name
// when present).
// stateStore is state/openclaw.sqlite: each table is created when its
// feature is first used, so any may be absent.
var stateStore = parser.SQLiteStore{Name: "an OpenClaw state", Tables: parser.SQLiteSchema{
	"exec_approvals_config":             {"raw_json"},
	"operator_approvals":                {"approval_id", "kind"},
	"operator_approval_standing_grants": {"created_at_ms"},
	"channel_pairing_allow_entries":     {"entry"},
	"channel_ingress_events":            {"payload_json"},
	"github_publication_requests":       {"created_at_ms"},
	"backup_runs":                       {"archive_path", "status"},
	"subagent_runs":                     {"run_id"},
	"diagnostic_events":                 {"scope", "payload_json"},
}, Optional: map[string]string{
	"exec_approvals_config":             "releases that have not yet written it",
	"operator_approvals":                "releases that have not yet written it",
	"operator_approval_standing_grants": "releases that have not yet written it",
	"channel_pairing_allow_entries":     "releases that have not yet written it",
	"channel_ingress_events":            "releases that have not yet written it",
	"github_publication_requests":       "releases that have not yet written it",
	"backup_runs":                       "releases that have not yet written it",
	"subagent_runs":                     "releases that have not yet written it",
	"diagnostic_events":                 "releases that have not yet written it",
}}

// approvalsDoc is the exec approvals document (exec_approvals_config
// raw_json). The socket (path and token) is never read.
type approvalsDoc struct {
	Defaults map[string]json.RawMessage `json:"defaults"`
	Agents   map[string]struct {
		Security    string `json:"security"`
		Ask         string `json:"ask"`
		AskFallback string `json:"askFallback"`
		Allowlist   []struct {
			Pattern         string `json:"pattern"`
			LastUsedCommand string `json:"lastUsedCommand"`
		} `json:"allowlist"`
	} `json:"agents"`
}

// execApprovals writes the host's standing exec approval policy: defaults
// and each agent's policy and allowlist. The approval socket's token is in
// the same document; it is never read into a row.
func execApprovals(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "exec_approvals_config", func(r parser.Row) error {
		t := msTime(r.Vals["updated_at_ms"])
		key := r.Get("config_key")
		text := "permission setting: exec approvals (" + key + ") security=" + r.Get("default_security") + " ask=" + r.Get("default_ask") +
			" askFallback=" + r.Get("default_ask_fallback")
		if v := r.Get("auto_allow_skills"); v != "" {
			text += " autoAllowSkills=" + map[string]string{"0": "false", "1": "true"}[v]
		}
		text += ", " + r.Get("agent_count") + " agent(s), " + r.Get("allowlist_count") + " allowlist entr(ies)"
		if r.Get("has_socket_token") == "1" {
			text += "; approval socket token set (not shown)"
		}
		out.Event(sysRow("", t, text, r.Rowid, "exec-approvals:"+key+"#"+r.Get("updated_at_ms")))
		var doc approvalsDoc
		if err := json.Unmarshal([]byte(r.Get("raw_json")), &doc); err != nil {
			out.Problem(r.Rowid, parser.NotJSON("exec approvals document", nil))
			return nil
		}
		for _, k := range sortedKeys(doc.Defaults) {
			switch k {
			case "security", "ask", "askFallback":
				continue // in the columns above
			}
			out.Event(sysRow("", t, "permission setting: exec approvals default "+k+"="+redactJSON(doc.Defaults[k]), r.Rowid, ""))
		}
		for _, id := range sortedKeys(doc.Agents) {
			ag := doc.Agents[id]
			if ag.Security != "" || ag.Ask != "" || ag.AskFallback != "" {
				out.Event(sysRow("", t, "permission setting: exec approvals agent "+id+" security="+ag.Security+" ask="+ag.Ask+" askFallback="+ag.AskFallback, r.Rowid, ""))
			}
			for _, al := range ag.Allowlist {
				text := "permission setting: exec allowlist agent " + id + " " + parser.RedactSecrets(al.Pattern)
				if al.LastUsedCommand != "" {
					text += " (last used: " + parser.RedactSecrets(al.LastUsedCommand) + ")"
				}
				out.Event(sysRow("", t, text, r.Rowid, ""))
			}
		}
		return nil
	})
}

// operatorApprovals writes each approval request and its decision.
func operatorApprovals(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "operator_approvals", func(r parser.Row) error {
		id := r.Get("approval_id")
		sid := r.Get("source_session_id")
		summary := redactJSON([]byte(r.Get("presentation_json")))
		by := ""
		if a := r.Get("source_agent_id"); a != "" {
			by = " by agent " + a
		}
		req := sysRow(sid, msTime(r.Vals["created_at_ms"]), "permission request ("+r.Get("kind")+")"+by+": "+summary, r.Rowid, id)
		req.ToolName, req.ToolUseID = r.Get("source_tool_name"), r.Get("source_tool_call_id")
		out.Event(req)
		if r.Get("status") == "pending" {
			return nil
		}
		text := "permission decision: " + r.Get("decision") + " (" + r.Get("status") + ", " + r.Get("terminal_reason") + ") by " + r.Get("resolver_kind")
		if v := r.Get("resolver_id"); v != "" {
			text += " " + v
		}
		if c := msTime(r.Vals["consumed_at_ms"]); !c.IsZero() {
			text += "; used " + timeline.FormatTime(c) + " by " + r.Get("consumed_by")
		}
		d := sysRow(sid, msTime(r.Vals["resolved_at_ms"]), text, r.Rowid, id+"#decision")
		d.ToolName, d.ToolUseID = req.ToolName, req.ToolUseID
		out.Event(d)
		return nil
	})
}

// genericRows writes one system row per row of a table, naming its
// columns (credential-named columns, JSON or not, redacted).
func genericRows(ctx context.Context, db *sql.DB, out parser.Sink, table, prefix, timeCol, sidCol, idCol string) error {
	return parser.EachTableRow(ctx, db, table, func(r parser.Row) error {
		var parts []string
		for _, c := range r.Cols {
			if c == "rowid__" || c == timeCol {
				continue
			}
			v := r.Get(c)
			if v == "" {
				continue
			}
			switch {
			case secretKey(c):
				v = "[redacted]"
			case strings.HasSuffix(c, "_json"):
				v = redactJSON([]byte(v))
			default:
				v = parser.RedactSecrets(v)
			}
			parts = append(parts, c+"="+v)
		}
		id := ""
		if idCol != "" {
			id = table + ":" + r.Get(idCol)
		}
		out.Event(sysRow(r.Get(sidCol), msTime(r.Vals[timeCol]), prefix+": "+strings.Join(parts, " "), r.Rowid, id))
		return nil
	})
}

// standingGrants: durable grants (later releases).
func standingGrants(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return genericRows(ctx, db, out, "operator_approval_standing_grants", "permission setting: standing grant", "created_at_ms", "", "")
}

// pairingAllow: channel senders allowed to talk to the agent.
func pairingAllow(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "channel_pairing_allow_entries", func(r parser.Row) error {
		out.Event(sysRow("", msTime(r.Vals["updated_at"]), "permission setting: channel "+r.Get("channel_key")+" account "+r.Get("account_id")+" allows "+r.Get("entry"), r.Rowid, ""))
		return nil
	})
}

// ingressEvents: messages received from channels, queued for the agent.
func ingressEvents(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "channel_ingress_events", func(r parser.Row) error {
		text := "channel message received: channel " + r.Get("channel_id") + " account " + r.Get("account_id") + " status " + r.Get("status") +
			": " + redactJSON([]byte(r.Get("payload_json")))
		if e := r.Get("last_error"); e != "" {
			text += " (last error: " + e + ")"
		}
		if f := r.Get("failed_reason"); f != "" {
			text += " (failed: " + f + ")"
		}
		out.Event(sysRow("", msTime(r.Vals["received_at"]), text, r.Rowid, "ingress:"+r.Get("queue_name")+":"+r.Get("event_id")))
		return nil
	})
}

// githubPublications: pull requests and pushes the agent asked to publish.
func githubPublications(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return genericRows(ctx, db, out, "github_publication_requests", "session synced: GitHub publication request", "created_at_ms", "session_id", "request_id")
}

// backupRuns: openclaw backup archives.
func backupRuns(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "backup_runs", func(r parser.Row) error {
		out.Event(sysRow("", msTime(r.Vals["created_at"]), "backup "+r.Get("status")+": "+r.Get("archive_path")+" "+redactJSON([]byte(r.Get("manifest_json"))), r.Rowid, "backup:"+r.Get("id")))
		return nil
	})
}

// subagentRuns: the link between a subagent's session and the session
// that spawned it (by session key; the agent database resolves the ids).
func subagentRuns(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "subagent_runs", func(r parser.Row) error {
		out.Event(sysRow("", msTime(r.Vals["created_at"]), "subagent run "+r.Get("run_id")+": session key "+r.Get("child_session_key")+" spawned by "+r.Get("requester_session_key"), r.Rowid, "subagent-run:"+r.Get("run_id")))
		return nil
	})
}

// configAudit: each write of openclaw.json, with the command line that
// made it and the settings it changed (diagnostic_events config-audit).
func configAudit(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "diagnostic_events", func(r parser.Row) error {
		if r.Get("scope") != "config-audit" {
			out.Skip(r.Rowid, "no_evidence:diagnostic:"+r.Get("scope"))
			return nil
		}
		var p struct {
			Ts           string   `json:"ts"`
			Event        string   `json:"event"`
			ConfigPath   string   `json:"configPath"`
			Argv         []string `json:"argv"`
			Cwd          string   `json:"cwd"`
			ChangedPaths []string `json:"changedPaths"`
			Suspicious   []string `json:"suspicious"`
		}
		if err := json.Unmarshal([]byte(r.Get("payload_json")), &p); err != nil {
			out.Problem(r.Rowid, "config audit event: "+parser.JSONError(err))
			return nil
		}
		t := msTime(r.Vals["created_at"])
		if tt, err := time.Parse(time.RFC3339Nano, p.Ts); err == nil {
			t = tt.UTC()
		}
		text := p.Event + " " + p.ConfigPath + " by `" + parser.RedactSecrets(strings.Join(p.Argv, " ")) + "` in " + p.Cwd
		if len(p.ChangedPaths) > 0 {
			text += "; changed " + strings.Join(p.ChangedPaths, ", ")
		}
		if len(p.Suspicious) > 0 {
			text += "; flagged " + strings.Join(p.Suspicious, ", ")
		}
		out.Event(sysRow("", t, "config audit: "+text, r.Rowid, "config-audit:"+r.Get("event_key")))
		return nil
	})
}

// parseQuarantineDB reads state/openclaw-quarantine.sqlite: the databases
// OpenClaw set aside as corrupt or foreign, and its integrity checks of
// the agent databases (clean_close 0: the last writer did not close).
func parseQuarantineDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "SELECT count(*) FROM sqlite_master"); err != nil {
		return err // not a database: HasTable would read that as "no tables"
	}
	readable, err := parser.CheckStore(ctx, db, quarantineStore, out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "quarantined_databases", Read: func() error { return quarantined(ctx, db, out) }},
		parser.TableRead{Table: "agent_integrity_verifications", Read: func() error { return verifications(ctx, db, out) }})
}

// quarantineSchema is what parseQuarantineDB requires of its tables.
var quarantineStore = parser.SQLiteStore{Name: "an OpenClaw quarantine", Tables: parser.SQLiteSchema{
	"quarantined_databases":         {"path"},
	"agent_integrity_verifications": {"path", "clean_close"},
}, Optional: map[string]string{
	"quarantined_databases":         "a store that quarantined nothing",
	"agent_integrity_verifications": "a store that verified nothing",
}}

func quarantined(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "quarantined_databases", func(r parser.Row) error {
		out.Event(sysRow("", msTime(r.Vals["quarantined_at"]), "database quarantined: "+r.Get("path")+" ("+r.Get("kind")+"): "+r.Get("reason")+" (writer "+r.Get("writer_app_version")+")", r.Rowid, "quarantine:"+r.Get("path")))
		return nil
	})
}

func verifications(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "agent_integrity_verifications", func(r parser.Row) error {
		clean := "clean close"
		if r.Get("clean_close") != "1" {
			clean = "NOT closed cleanly"
		}
		out.Event(sysRow("", msTime(r.Vals["verified_at"]), "agent database "+r.Get("path")+" verified by OpenClaw "+r.Get("app_version")+": "+clean, r.Rowid, ""))
		return nil
	})
}
