package letta

import (
	"context"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// settingsFile is what the parser reads of a settings file: the
// permissions object (src/permissions/types.ts PermissionRules), the
// last session per server, the agents list. No other key is read.
type settingsFile struct {
	Permissions *struct {
		Mode                  string   `json:"mode"`
		Allow                 []string `json:"allow"`
		Deny                  []string `json:"deny"`
		Ask                   []string `json:"ask"`
		AlwaysAsk             []string `json:"alwaysAsk"`
		AdditionalDirectories []string `json:"additionalDirectories"`
	} `json:"permissions"`
	LastAgent        *string               `json:"lastAgent"`
	SessionsByServer map[string]sessionPtr `json:"sessionsByServer"`
	LastSession      *sessionPtr           `json:"lastSession"`
	Agents           []settingsAgent       `json:"agents"`
}

type sessionPtr struct {
	AgentID        string `json:"agentId"`
	ConversationID string `json:"conversationId"`
}

type settingsAgent struct {
	AgentID             string `json:"agentId"`
	BaseURL             string `json:"baseUrl"`
	SystemPromptPreset  string `json:"systemPromptPreset"`
	SystemPromptVersion string `json:"systemPromptVersion"`
	Memfs               *bool  `json:"memfs"`
}

// projectOf is the project directory of a project's .letta/settings*.json.
func projectOf(in *parser.Input) string {
	p := in.Path
	i := strings.LastIndex(p, "/.letta/")
	if i < 0 {
		return ""
	}
	if in.Target == "project" {
		return p[:i]
	}
	return ""
}

func parseSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	var s settingsFile
	if !decodeDoc(in, out, &s) {
		return nil
	}
	from := " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	project := projectOf(in)
	n := 0
	emit := func(text string, e timeline.Event) {
		n++
		e.Text = text + from
		e.SourceLine = 1
		e.ProjectPath = project
		// Settings rows are keyed by content: a file copied elsewhere
		// repeats them, a changed file gives new ones.
		out.Event(e)
	}
	base := func() timeline.Event { return parser.SettingEvent(&in.File) }
	if p := s.Permissions; p != nil {
		if p.Mode != "" {
			emit("permission setting: mode="+p.Mode, base())
		}
		for _, l := range []struct {
			name  string
			rules []string
		}{{"allow", p.Allow}, {"deny", p.Deny}, {"ask", p.Ask}, {"alwaysAsk", p.AlwaysAsk}, {"additionalDirectories", p.AdditionalDirectories}} {
			for _, r := range l.rules {
				emit("permission setting: "+l.name+" "+r, base())
			}
		}
	}
	servers := make([]string, 0, len(s.SessionsByServer))
	for k := range s.SessionsByServer {
		servers = append(servers, k)
	}
	sort.Strings(servers)
	for _, srv := range servers {
		ptr := s.SessionsByServer[srv]
		e := base()
		e.SessionID = ptr.ConversationID
		if dir, ok := strings.CutPrefix(srv, "local:"); ok {
			// The local backend: the store of record is this machine.
			emit("last session on the local backend "+dir+": agent "+ptr.AgentID+" conversation "+ptr.ConversationID, e)
			continue
		}
		emit("session synced: server "+srv+" agent "+ptr.AgentID+" conversation "+ptr.ConversationID, e)
	}
	if s.LastSession != nil && s.LastSession.ConversationID != "" {
		e := base()
		e.SessionID = s.LastSession.ConversationID
		emit("last session: agent "+s.LastSession.AgentID+" conversation "+s.LastSession.ConversationID, e)
	}
	for _, a := range s.Agents {
		parts := []string{"agent " + a.AgentID + " on " + a.BaseURL}
		if a.SystemPromptPreset != "" {
			parts = append(parts, "system prompt preset "+a.SystemPromptPreset+" "+a.SystemPromptVersion)
		}
		if a.Memfs != nil {
			parts = append(parts, "memory filesystem "+strconv.FormatBool(*a.Memfs))
		}
		emit(strings.Join(parts, "; "), base())
	}
	if n == 0 {
		out.Skip(1, "no_evidence:settings")
	}
	return nil
}

// providersFile is lc-local-backend/providers/auth.json: connected model
// providers. Only these named keys are read; auth (the API key or OAuth
// tokens) never is.
type providersFile struct {
	Providers map[string]struct {
		ID           string `json:"id"`
		Name         string `json:"name"`
		ProviderType string `json:"provider_type"`
		Category     string `json:"provider_category"`
		BaseURL      string `json:"base_url"`
		CreatedAt    string `json:"created_at"`
		UpdatedAt    string `json:"updated_at"`
	} `json:"providers"`
}

func parseProviders(_ context.Context, in *parser.Input, out parser.Sink) error {
	b, err := readDoc(in)
	if err != nil {
		out.Problem(0, err.Error())
		return nil
	}
	var f providersFile
	if err := json.Unmarshal(b, &f); err != nil {
		// Never quote a secret file's content in a problem.
		out.Problem(1, "not a providers document")
		return nil
	}
	names := make([]string, 0, len(f.Providers))
	for k := range f.Providers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := f.Providers[k]
		t, ok := isoTime(p.CreatedAt)
		e := recorded(in, t)
		e.SourceLine, e.RecordID = 1, "provider:"+k+"#"+p.CreatedAt
		e.Text = "model provider connected: " + k + " type=" + p.ProviderType
		if p.BaseURL != "" {
			e.Text += " base_url=" + redactURL(p.BaseURL)
		}
		if p.Category != "" {
			e.Text += " category=" + p.Category
		}
		if !ok {
			e.Text += " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
		}
		out.Event(e)
		if u, ok := isoTime(p.UpdatedAt); ok && p.UpdatedAt != p.CreatedAt {
			e2 := recorded(in, u)
			e2.SourceLine, e2.RecordID = 1, "provider:"+k+"#"+p.UpdatedAt
			e2.Text = "model provider updated: " + k
			out.Event(e2)
		}
	}
	if len(names) == 0 {
		out.Skip(1, "no_evidence:providers")
	}
	return nil
}
