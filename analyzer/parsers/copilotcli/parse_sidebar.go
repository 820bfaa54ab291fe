package copilotcli

import (
	"context"
	"strconv"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// sidebarState is one sidebar-sessions-state/<sha256 of cwd>.json: the
// sessions the interactive CLI (and the VS Code sidebar, through the
// CLI's shim) opened in one working directory.
type sidebarState struct {
	SchemaVersion json.RawMessage   `json:"schemaVersion"`
	Cwd           string            `json:"cwd"`
	SessionIDs    []json.RawMessage `json:"sessionIds"`
}

// ids returns the session ids listed: strings, or objects naming one
// (sessionId or id).
func (s *sidebarState) ids() []string {
	out := make([]string, 0, len(s.SessionIDs))
	for _, raw := range s.SessionIDs {
		id := parser.StringValue(raw)
		if id == "" {
			id = pick(obj(raw), "sessionId", "id")
		}
		out = append(out, id)
	}
	return out
}

func decodeSidebar(b []byte) (*sidebarState, error) {
	var s sidebarState
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// sidebarProject finds the working directory a sidebar-sessions-state
// file of the same state directory records for session id: the project
// join for a transcript with no cwd of its own. "" when none lists it. A
// listed sidebar file that cannot be read is reported on out.
func sidebarProject(in *parser.Input, copilot, id string, out parser.Sink) string {
	if copilot == "" || id == "" {
		return ""
	}
	for _, f := range in.List(parser.GlobEscape(copilot) + "/sidebar-sessions-state/*.json") {
		b, err := parser.ReadRelated(in, f.Path, maxSmall)
		if err != nil {
			out.Report(0, parser.KindParse, "project join: "+f.Path+": "+err.Error())
			continue
		}
		s, err := decodeSidebar(b)
		if err != nil {
			continue // the sidebar parser reports it as a problem of that file
		}
		for _, sid := range s.ids() {
			if sid == id && s.Cwd != "" {
				return s.Cwd
			}
		}
	}
	return ""
}

// parseSidebar reads sidebar-sessions-state/*.json, a project-path join
// and no rows of its own: each listed session is accounted for as a
// skip "project_join" (position its 1-based index), the cwd reaching that
// session's rows through sidebarProject; a file that is not the shape is a
// problem.
func parseSidebar(ctx context.Context, in *parser.Input, out parser.Sink) error {
	raw, ok, err := readJSONFile(in, out)
	if !ok {
		return err
	}
	s, err := decodeSidebar(raw)
	if err != nil {
		out.Problem(0, "not a sidebar sessions state object: "+err.Error())
		return nil
	}
	if s.Cwd == "" {
		out.Problem(0, "no cwd: the sessions listed cannot be joined to a project")
	}
	for i, id := range s.ids() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if id == "" {
			out.Problem(int64(i+1), "sessionIds entry "+strconv.Itoa(i+1)+" names no session")
			continue
		}
		out.Skip(int64(i+1), "project_join")
	}
	if len(s.SessionIDs) == 0 {
		out.Skip(0, "no_evidence:empty_sidebar_state")
	}
	return nil
}
