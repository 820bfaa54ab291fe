package tabby

import (
	"fmt"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// Agent is the catalog name of Tabby.
const Agent = "tabby"

// ExtensionID is the Tabby VS Code extension id: its state row key.
const ExtensionID = "TabbyML.vscode-tabby"

// Parsers returns Tabby's parsers; its VS Code state row is read through
// StateExtension.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "tabby/server-db", Agent: Agent, Version: 3,
			Targets: []string{"server-db", catalog.VolumeTarget},
			Names:   []string{"db.sqlite", "dev-db.sqlite", "db.backup-*.sqlite"},
			Doc:     "Tabby server ee/db.sqlite (threads and thread_messages with their owner and attachments, user_events completions and chat events, AI-written pages and page_sections, source-host integrations and their provided_repositories; secret columns never read); db.backup-YYYYMMDD.sqlite as a secondary copy that may hold threads since deleted",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.System},
				Basis: "a pre-migration backup is a byte copy of the same database (ee/tabby-db backup_db): its rows carry the same ids and times, so they pair on session and text alone"},
		}, parseDB),
		parser.New(parser.Spec{
			ID: "tabby/events", Agent: Agent, Version: 2,
			Targets: []string{"events", catalog.VolumeTarget},
			Names:   []string{"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].json"},
			Doc:     "Tabby server events/YYYY-MM-DD.json (LogEntry lines: completion prompts and generated choices, view, select, dismiss, chat completion; secondary, pairs with user_events)",
			Secondary: &parser.Secondary{Window: time.Second, TurnTypes: []timeline.TurnType{timeline.Assistant, timeline.System},
				Basis: "one LogEntry.ts is written to the event log (crates/tabby/src/services/event.rs) and to user_events.created_at (ee/tabby-webserver/src/service/event_logger.rs)"},
		}, parseEvents),
		parser.New(parser.Spec{
			ID: "tabby/config", Agent: Agent, Version: 1,
			Targets: []string{"config", catalog.VolumeTarget}, Names: []string{"config.toml"},
			ReadsSecretKind: true,
			Doc:             "Tabby server config.toml [model.*] (completion, chat and embedding models: model rows at the file mtime; api_key never read)",
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "tabby/jetbrains-history", Agent: Agent, Version: 1,
			Targets: []string{"jetbrains-history"}, Names: []string{"intellij-tabby-command-history.xml"},
			Doc:       "the IntelliJ plugin's inline-edit command history (secondary, no time, no session)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User}, Basis: "the command history records no time or session (CommandHistory.kt)"},
		}, parseJetBrainsHistory),
	}
}

// StateExtension reads the TabbyML.vscode-tabby row of a state.vscdb: its
// edit.recentlyCommand inline-edit command history.
func StateExtension() vscodestate.StateExtension {
	return vscodestate.StateExtension{
		Agent: Agent, Keys: []string{ExtensionID},
		Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User}, Basis: "edit.recentlyCommand records no time or session (clients/vscode/src/Config.ts)"},
		Doc:       "TabbyML.vscode-tabby row (edit.recentlyCommand inline-edit commands, secondary, no time)",
		Read:      readState,
	}
}

// isBackup reports whether a database file is a pre-migration backup.
func isBackup(in *parser.Input) bool { return strings.HasPrefix(in.Base(), "db.backup-") }

// sqlTime parses a TIMESTAMP column: SQLite DATETIME('now') text or sqlx's
// RFC 3339 rendering of a chrono DateTime<Utc>; both UTC.
func sqlTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func stamp(e *timeline.Event, s string) {
	if t, ok := sqlTime(s); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
