package cursor

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ItemTable keys read besides the settings blob (see doc.go).
const (
	cloudAgentsKey   = "cloudAgentRepository.agents"
	mcpAuthKey       = "cloudAgentRepository.mcpAuthResolution"
	githubReposKey   = "cloudEnvironmentTemplate.githubRepos"
	mcpOAuthGlobal   = "mcpOAuth.global."
	pluginsInstalled = "cursor.plugins.installedIds."
)

// items reads the editor-level ItemTable records: the GitHub sign-in,
// cloud agents, their repositories and MCP authorisations, plugin MCP
// servers and installed plugins. Cloud agents go first: their ids are
// not local composers.
func (s *stateReader) items() error {
	if err := s.cloudAgents(); err != nil {
		return err
	}
	if err := s.githubRepos(); err != nil {
		return err
	}
	if err := s.mcpAuth(); err != nil {
		return err
	}
	if err := s.mcpServers(); err != nil {
		return err
	}
	if err := s.plugins(); err != nil {
		return err
	}
	for _, p := range [][]string{{"github", "github-enterprise"}, {"github-enterprise"}} {
		accounts, err := s.st.AuthAccounts(s.ctx, p[0], p[1:]...)
		if err != nil {
			return err
		}
		for _, a := range accounts {
			vscodestate.AccountRows(s.in, s.out, a)
		}
	}
	return nil
}

// cloudAgent is one entry of a cloudAgentRepository.agents.* list.
type cloudAgent struct {
	BcID         string          `json:"bcId"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Status       json.RawMessage `json:"status"`
	CreatedAt    json.RawMessage `json:"createdAt"`
	UpdatedAt    json.RawMessage `json:"updatedAt"`
	IsArchived   bool            `json:"isArchived"`
	RepoURL      string          `json:"repoUrl"`
	BranchName   string          `json:"branchName"`
	ModelDetails *struct {
		ModelName string `json:"modelName"`
	} `json:"modelDetails"`
	Model string `json:"model"`
}

// cloudAgents reads every cloudAgentRepository.agents(.*) list: per
// agent, a session origin, a session synced, a cloud agent status, a
// source host (its repository) and a model row; the session is recorded
// origin remote and synced yes. Connection tokens are other keys and are
// never read.
func (s *stateReader) cloudAgents() error {
	return s.st.ItemsMatching(s.ctx, cloudAgentsKey, func(k string) bool {
		return k == cloudAgentsKey || strings.HasPrefix(k, cloudAgentsKey+".")
	}, func(r vscodestate.StateRow) error {
		var list []json.RawMessage
		if err := r.JSON(&list); err != nil {
			s.problem(r.Rowid, r.NotArray(err))
			return nil
		}
		if len(list) == 0 {
			s.out.Skip(r.Rowid, "no_content")
		}
		for i, raw := range list {
			var a cloudAgent
			if err := json.Unmarshal(raw, &a); err != nil {
				s.problem(r.Rowid, r.Key+"["+strconv.Itoa(i)+"]: bad cloud agent: "+parser.JSONError(err))
				continue
			}
			s.cloudAgent(r, &a)
		}
		return nil
	})
}

func (s *stateReader) cloudAgent(r vscodestate.StateRow, a *cloudAgent) {
	id := firstNonEmpty(a.BcID, a.ID)
	if id == "" {
		s.out.Report(r.Rowid, parser.KindSkippedRecord, r.Key+": cloud agent without bcId or id")
		return
	}
	s.cloud[id] = true
	created, cok := jsonTime(a.CreatedAt)
	updated, uok := jsonTime(a.UpdatedAt)
	if !cok {
		created, cok = updated, uok
	}
	row := func(word string, t time.Time, ok bool, text string) {
		e := timeline.Event{SessionID: id, TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "cloud-agent:" + id + "#" + word, Text: text}
		if ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		s.out.Event(e)
	}
	row("origin", created, cok, "session origin: remote cursor cloud agent")
	row("synced", created, cok, "session synced: cursor cloud agent "+id+" (from state.vscdb "+r.Key+")")
	status := "cloud agent: " + firstNonEmpty(a.Name, id)
	if st := parser.JSONText(a.Status); st != "" {
		status += " status=" + st
	}
	if a.IsArchived {
		status += " archived"
	}
	row("status", updated, uok, status)
	if a.RepoURL != "" {
		src := "source host: " + a.RepoURL
		if a.BranchName != "" {
			src += " branch " + a.BranchName
		}
		row("source", created, cok, src)
	}
	model := a.Model
	if a.ModelDetails != nil && a.ModelDetails.ModelName != "" {
		model = a.ModelDetails.ModelName
	}
	if model != "" {
		row("model", created, cok, "model: "+model)
	}
	s.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Origin: "remote", Synced: "yes"})
}

// githubRepos reads cloudEnvironmentTemplate.githubRepos: one "source
// host repository: <repo>" row per entry, at the file's mtime.
func (s *stateReader) githubRepos() error {
	r, ok, err := s.st.Item(s.ctx, githubReposKey)
	if err != nil || !ok {
		return err
	}
	var list []json.RawMessage
	if err := r.JSON(&list); err != nil {
		s.problem(r.Rowid, r.NotArray(err))
		return nil
	}
	n := 0
	for _, raw := range list {
		repo := repoName(raw)
		if repo == "" {
			s.out.Report(r.Rowid, parser.KindSkippedRecord, githubReposKey+": entry without a repository name: "+parser.CompactJSON(raw))
			continue
		}
		e := parser.SettingEvent(&s.in.File)
		e.SourceLine, e.RecordID = r.Rowid, githubReposKey+"#"+repo
		e.Text = "source host repository: " + repo + " (cloud agent environment, from " + parser.DisplayFile(&s.in.File) + " " + githubReposKey + ", file mtime)"
		s.out.Event(e)
		n++
	}
	if n == 0 && len(list) == 0 {
		s.out.Skip(r.Rowid, "no_content")
	}
	return nil
}

// repoName reads a repository entry: a string, or an object naming it
// (fullName, nameWithOwner, owner and repo or name, url).
func repoName(raw json.RawMessage) string {
	if s := parser.JSONText(raw); s != "" && !strings.HasPrefix(s, "{") {
		return s
	}
	var o struct {
		FullName      string `json:"fullName"`
		FullName2     string `json:"full_name"`
		NameWithOwner string `json:"nameWithOwner"`
		Owner         string `json:"owner"`
		Repo          string `json:"repo"`
		Name          string `json:"name"`
		URL           string `json:"url"`
		RepoURL       string `json:"repoUrl"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return ""
	}
	if n := firstNonEmpty(o.FullName, o.FullName2, o.NameWithOwner); n != "" {
		return n
	}
	if o.Owner != "" && firstNonEmpty(o.Repo, o.Name) != "" {
		return o.Owner + "/" + firstNonEmpty(o.Repo, o.Name)
	}
	return firstNonEmpty(o.URL, o.RepoURL, o.Repo, o.Name)
}

// mcpAuth reads cloudAgentRepository.mcpAuthResolution(.*): a cloud
// agent's request to authorise an MCP server and the answer given, as
// "permission decision: <answer> mcp server <server> source=user (cloud
// agent MCP authorisation)" in the agent's session. The record's shape is
// not public (seen on one install): an entry is any object naming a server
// and an answer, under the agent's id or naming it; see doc.go.
func (s *stateReader) mcpAuth() error {
	return s.st.ItemsMatching(s.ctx, mcpAuthKey, func(k string) bool {
		return k == mcpAuthKey || strings.HasPrefix(k, mcpAuthKey+".")
	}, func(r vscodestate.StateRow) error {
		var v any
		if err := r.JSON(&v); err != nil {
			s.problem(r.Rowid, r.NotJSON(err))
			return nil
		}
		agent := strings.TrimPrefix(strings.TrimPrefix(r.Key, mcpAuthKey), ".")
		var found []mcpDecision
		walkMCPAuth(v, agent, "", 0, &found)
		if len(found) == 0 {
			s.out.Report(r.Rowid, parser.KindSkippedRecord, r.Key+": no MCP authorisation entry found (shape not known)")
			return nil
		}
		for _, d := range found {
			e := timeline.Event{SessionID: d.agent, TurnType: timeline.System, SourceLine: r.Rowid,
				RecordID: "mcpAuthResolution:" + d.agent + ":" + d.server + "#decision",
				Text:     "permission decision: " + d.answer + " mcp server " + d.server + " source=user (cloud agent MCP authorisation)"}
			if d.t.IsZero() {
				f := parser.SettingEvent(&s.in.File)
				e.Time, e.TimeBasis = f.Time, f.TimeBasis
			} else {
				e.Time = d.t
			}
			s.out.Event(e)
		}
		return nil
	})
}

type mcpDecision struct {
	agent, server, answer string
	t                     time.Time
}

func walkMCPAuth(v any, agent, key string, depth int, out *[]mcpDecision) {
	if depth > 6 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, y := range x {
			walkMCPAuth(y, agent, "", depth+1, out)
		}
	case map[string]any:
		str := func(keys ...string) string {
			for _, k := range keys {
				if s, ok := x[k].(string); ok && s != "" {
					return s
				}
			}
			return ""
		}
		if a := str("bcId", "agentId", "backgroundComposerId", "cloudAgentId"); a != "" {
			agent = a
		}
		server := str("serverName", "mcpServerName", "server", "serverId", "mcpServer", "name")
		answer := str("resolution", "decision", "status", "action", "result", "outcome")
		for _, k := range []string{"approved", "allowed", "granted"} {
			if b, ok := x[k].(bool); ok && answer == "" {
				answer = map[bool]string{true: "approved", false: "denied"}[b]
			}
		}
		if server == "" && answer != "" && key != "" && !looksLikeAgentID(key) {
			server = key
		}
		if server != "" && answer != "" {
			var t time.Time
			for _, k := range []string{"resolvedAt", "decidedAt", "updatedAt", "timestamp", "createdAt"} {
				if raw, err := json.Marshal(x[k]); err == nil && x[k] != nil {
					if tm, ok := jsonTime(raw); ok {
						t = tm
						break
					}
				}
			}
			*out = append(*out, mcpDecision{agent: agent, server: server, answer: answer, t: t})
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			a := agent
			if looksLikeAgentID(k) {
				a = k
			}
			if s, ok := x[k].(string); ok && a == agent && k != "" {
				// {"<server>": "<answer>"} under an agent
				if agent != "" && !looksLikeAgentID(k) {
					*out = append(*out, mcpDecision{agent: agent, server: k, answer: s})
				}
				continue
			}
			walkMCPAuth(x[k], a, k, depth+1, out)
		}
	}
}

// looksLikeAgentID: cloud agent ids start "bc-" (and are UUID-like).
func looksLikeAgentID(s string) bool { return strings.HasPrefix(s, "bc-") }

// mcpServers reads the mcpOAuth.global.* keys: one "mcp server: <name>
// OAuth tokens stored" row per plugin MCP server, at the record's own time
// when it keeps one, else the file's mtime. The key names the server
// (literally, or base64-encoded); of the value only the server's URL is
// read. The mcpOAuth.secret.* rows hold the tokens and are never read.
func (s *stateReader) mcpServers() error {
	return s.st.Items(s.ctx, mcpOAuthGlobal, func(r vscodestate.StateRow) error {
		name := decodeServerKey(strings.TrimPrefix(r.Key, mcpOAuthGlobal))
		e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, RecordID: r.Key + "#server"}
		var m map[string]json.RawMessage
		var t time.Time
		where := ""
		if !r.TooLarge && json.Unmarshal(r.Value, &m) == nil {
			for _, k := range []string{"serverUrl", "url", "resourceUrl"} {
				if u := parser.JSONText(m[k]); u != "" && !strings.ContainsAny(u, " \n") {
					where = " url=" + redactURL(u)
					break
				}
			}
			for _, k := range []string{"tokensStoredAt", "storedAt", "savedAt", "updatedAt", "createdAt", "timestamp"} {
				if tm, ok := jsonTime(m[k]); ok {
					t = tm
					break
				}
			}
		}
		e.Text = "mcp server: " + name + where + " (OAuth tokens stored"
		if t.IsZero() {
			f := parser.SettingEvent(&s.in.File)
			e.Time, e.TimeBasis = f.Time, f.TimeBasis
			e.Text += ", file mtime)"
		} else {
			e.Time = t
			e.Text += ")"
		}
		s.out.Event(e)
		return nil
	})
}

// decodeServerKey names the server of an mcpOAuth.global.<suffix> key: the
// suffix as written when it reads as text ("[plugin-x-x]"), else its first
// word decoded from base64 when that gives text.
func decodeServerKey(suffix string) string {
	word, rest, _ := strings.Cut(suffix, " ")
	if strings.HasPrefix(word, "[") || word == "" {
		return suffix
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(word); err == nil && len(b) > 0 && utf8.Valid(b) && printable(b) {
			if rest != "" {
				return string(b) + " " + rest
			}
			return string(b)
		}
	}
	return suffix
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// redactURL drops a URL's user information and query (where tokens go).
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// plugins reads cursor.plugins.installedIds.<team>|<scope>: one "plugin
// installed: <id>" row per entry (with its sources), at the file's mtime;
// a workspace scope (a file:// URI) is the row's project.
func (s *stateReader) plugins() error {
	return s.st.Items(s.ctx, pluginsInstalled, func(r vscodestate.StateRow) error {
		team, scope, _ := strings.Cut(strings.TrimPrefix(r.Key, pluginsInstalled), "|")
		var list []json.RawMessage
		if err := r.JSON(&list); err != nil {
			s.problem(r.Rowid, r.NotArray(err))
			return nil
		}
		if len(list) == 0 {
			s.out.Skip(r.Rowid, "no_content")
		}
		project := ""
		if strings.HasPrefix(scope, "file://") {
			if u, err := url.Parse(scope); err == nil {
				project = u.Path
			}
		}
		for _, raw := range list {
			var p struct {
				ID      json.RawMessage `json:"id"`
				Sources []string        `json:"sources"`
			}
			id := parser.JSONText(raw)
			if json.Unmarshal(raw, &p) == nil {
				id = parser.JSONText(p.ID)
			}
			if id == "" {
				s.out.Report(r.Rowid, parser.KindSkippedRecord, r.Key+": plugin entry without an id: "+parser.CompactJSON(raw))
				continue
			}
			e := parser.SettingEvent(&s.in.File)
			e.SourceLine, e.RecordID, e.ProjectPath = r.Rowid, r.Key+"#"+id, project
			e.Text = "plugin installed: " + parser.Shown(id)
			if len(p.Sources) > 0 {
				e.Text += " sources=" + strings.Join(p.Sources, ",")
			}
			e.Text += " (team " + team
			if scope != "" {
				e.Text += ", scope " + scope
			}
			e.Text += ", file mtime)"
			s.out.Event(e)
		}
		return nil
	})
}

// deletedBlobs finds, for each deleted composer, the JSON agentKv:blob:*
// records that name it (content-addressed message blobs Cursor keeps
// because other conversations may share them). The search runs in SQLite
// (instr), one pass per deleted composer, over JSON values only.
func (s *stateReader) deletedBlobs(ids []string) map[string][]vscodestate.StateRow {
	out := map[string][]vscodestate.StateRow{}
	if !s.kv || len(ids) == 0 {
		return out
	}
	lo, hi := prefixRange("agentKv:blob:")
	for _, id := range ids {
		if s.ctx.Err() != nil {
			return out
		}
		rows, err := s.db.QueryContext(s.ctx, `SELECT key FROM cursorDiskKV WHERE key >= ? AND key < ?
			AND length(value) <= ? AND substr(CAST(value AS BLOB), 1, 1) = X'7B' AND instr(CAST(value AS TEXT), ?) > 0 ORDER BY key`,
			lo, hi, vscodestate.MaxStateValue, id)
		if err != nil {
			s.problem(0, "agentKv:blob search: "+err.Error())
			return out
		}
		var keys []string
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				s.problem(0, "agentKv:blob search: "+err.Error())
				continue
			}
			keys = append(keys, k)
		}
		if err := rows.Err(); err != nil {
			s.problem(0, "agentKv:blob search: "+err.Error())
		}
		rows.Close()
		for _, k := range keys {
			if r, ok, err := s.st.KV(s.ctx, k); err == nil && ok {
				out[id] = append(out[id], r)
			}
		}
	}
	return out
}

// blob emits one agentKv:blob:* message of a deleted conversation. The
// blob records no time: its rows are undated.
func (s *stateReader) blob(c *conv, r vscodestate.StateRow) {
	base := func() timeline.Event {
		return timeline.Event{SessionID: c.session, ProjectPath: c.project, SourceLine: r.Rowid, TimeBasis: timeline.TimeNone}
	}
	if n, reason := agentMessage(s.out, base, r.Key, r.Value, false); n == 0 {
		if reason == "" {
			reason = "no_content"
		}
		s.out.Skip(r.Rowid, reason)
	}
}

// agentMessage emits the rows of one message of the agent's own message
// format (an agentKv:blob:* value, a CLI store.db blob): {role, content,
// id}, content a string or blocks text, reasoning, tool-call (toolCallId,
// toolName, args) and tool-result (toolCallId, toolName, result, isError).
// A user message's <user_query> is a user row (a subagent's: "subagent
// task:"), the rest of it injected context; a system message (the
// agent's system prompt) gives no row. Record ids are "<rid>#<k>". It
// returns the rows written and, when none, why.
func agentMessage(out parser.Sink, base func() timeline.Event, rid string, raw []byte, sub bool) (int, string) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return 0, "not_a_message"
	}
	k := 0
	emit := func(e timeline.Event) {
		e.RecordID = rid + "#" + strconv.Itoa(k)
		k++
		out.Event(e)
	}
	var blocks []struct {
		Type       string          `json:"type"`
		Text       string          `json:"text"`
		ToolCallID string          `json:"toolCallId"`
		ToolName   string          `json:"toolName"`
		Args       json.RawMessage `json:"args"`
		Result     json.RawMessage `json:"result"`
		IsError    bool            `json:"isError"`
	}
	c := bytes.TrimSpace(m.Content)
	if len(c) > 0 && c[0] == '"' {
		var t string
		_ = json.Unmarshal(c, &t)
		blocks = append(blocks, struct {
			Type       string          `json:"type"`
			Text       string          `json:"text"`
			ToolCallID string          `json:"toolCallId"`
			ToolName   string          `json:"toolName"`
			Args       json.RawMessage `json:"args"`
			Result     json.RawMessage `json:"result"`
			IsError    bool            `json:"isError"`
		}{Type: "text", Text: t})
	} else if len(c) > 0 && string(c) != "null" {
		if err := json.Unmarshal(c, &blocks); err != nil {
			return 0, "not_a_message"
		}
	}
	switch m.Role {
	case "system":
		return 0, "no_evidence:system_prompt"
	case "user", "assistant", "tool":
	default:
		return 0, "no_evidence:role_" + m.Role
	}
	for _, b := range blocks {
		switch {
		case m.Role == "user" && (b.Type == "text" || b.Type == ""):
			rest := b.Text
			var qs []string
			for _, q := range userQueryRe.FindAllStringSubmatch(rest, -1) {
				qs = append(qs, strings.TrimSpace(q[1]))
			}
			other := strings.TrimSpace(userQueryRe.ReplaceAllString(rest, ""))
			if other != "" {
				e := base()
				e.TurnType, e.Text = timeline.System, "injected context: "+other
				emit(e)
			}
			for _, q := range qs {
				e := base()
				if sub {
					e.TurnType, e.Text = timeline.System, "subagent task: "+q
				} else {
					e.TurnType, e.Text = timeline.User, q
				}
				emit(e)
			}
		case b.Type == "text" || b.Type == "":
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			e := base()
			e.TurnType, e.Text = timeline.Assistant, b.Text
			emit(e)
		case b.Type == "reasoning":
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			e := base()
			e.TurnType, e.Text = timeline.Thinking, b.Text
			emit(e)
		case b.Type == "tool-call":
			e := base()
			e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolUse, b.ToolName, b.ToolCallID
			e.ToolInput = parser.CompactJSON(b.Args)
			e.Text = identifying(e.ToolInput)
			emit(e)
		case b.Type == "tool-result":
			e := base()
			e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolResult, b.ToolName, b.ToolCallID
			e.Text = resultText(b.Result)
			e.IsError = strconv.FormatBool(b.IsError)
			emit(e)
		default:
			e := base()
			e.TurnType, e.Text = timeline.System, "content block: "+b.Type
			emit(e)
		}
	}
	return k, ""
}
