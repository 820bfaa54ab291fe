package surface

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
	"go.yaml.in/yaml/v3"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// ---------------------------------------------------------------- helpers

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func arr(v any) []any          { a, _ := v.([]any); return a }

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func strs(v any) []string {
	var out []string
	for _, x := range arr(v) {
		if s := str(x); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// ptr builds a JSON pointer (RFC 6901) from a base and tokens.
func ptr(base string, toks ...any) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range toks {
		b.WriteByte('/')
		s := fmt.Sprint(t)
		s = strings.ReplaceAll(s, "~", "~0")
		s = strings.ReplaceAll(s, "/", "~1")
		b.WriteString(s)
	}
	return b.String()
}

// jsonDoc decodes the file as JSON (comments and trailing commas allowed).
func (d *doc) jsonDoc() (map[string]any, error) {
	std := parser.StandardJSON(d.b)
	var v any
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, errors.New(parser.NotJSON("", err))
	}
	m := obj(v)
	if m == nil {
		return nil, parser.ErrNotObject
	}
	d.b2 = std
	return m, nil
}

// line is the 1-based line of the value a JSON pointer names (its member
// name's line), or 0 when unknown.
func (d *doc) line(p string) int64 {
	if d.lines == nil {
		d.lines = map[string]int64{}
		src := d.b2
		if src == nil {
			src = d.b
		}
		dec := jsontext.NewDecoder(bytes.NewReader(src))
		var ln int64 = 1
		var last int64
		for {
			if _, err := dec.ReadToken(); err != nil {
				break
			}
			off := dec.InputOffset()
			ln += int64(bytes.Count(src[last:off], []byte{'\n'}))
			last = off
			sp := string(dec.StackPointer())
			if _, ok := d.lines[sp]; !ok {
				d.lines[sp] = ln
			}
		}
	}
	return d.lines[p]
}

// envKeys returns the names of an environment map (or list of names).
func envKeys(vs ...any) []string {
	var out []string
	for _, v := range vs {
		if m := obj(v); m != nil {
			out = append(out, keys(m)...)
			continue
		}
		for _, s := range strs(v) {
			if k, _, ok := strings.Cut(s, "="); ok { // "KEY=value" lists: the name only
				s = k
			}
			out = append(out, s)
		}
	}
	return out
}

var secretArg = regexp.MustCompile(`(?i)(token|secret|passw|api[-_]?key|auth|credential|bearer)`)

// userInfo matches the user:password@ of a URL anywhere in a string.
var userInfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/\s:@]+:[^/\s@]*@`)

// redactText masks credential shapes and URL passwords in free text.
func redactText(s string) string {
	return userInfo.ReplaceAllString(parser.RedactSecrets(s), "${1}[redacted]@")
}

// redactArgs replaces the value after (or in) an argument naming a
// secret (--api-key X, --token=X) and credential-shaped substrings.
func redactArgs(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = redactText(a)
		if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") && secretArg.MatchString(k) {
			out[i] = k + "=[redacted]"
		}
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && secretArg.MatchString(args[i-1]) && !strings.HasPrefix(a, "-") {
			out[i] = "[redacted]"
		}
	}
	return out
}

// redactURL masks secret-named query values and user info.
func redactURL(u string) string {
	if u == "" {
		return u
	}
	u = redactText(u)
	if i := strings.Index(u, "://"); i >= 0 {
		if at := strings.Index(u[i+3:], "@"); at >= 0 && !strings.ContainsAny(u[i+3:i+3+at], "/?#") && u[i+3:i+3+at] != "[redacted]" {
			u = u[:i+3] + "[redacted]@" + u[i+3+at+1:]
		}
	}
	if q := strings.IndexByte(u, '?'); q >= 0 {
		parts := strings.Split(u[q+1:], "&")
		for j, p := range parts {
			if k, _, ok := strings.Cut(p, "="); ok && secretArg.MatchString(k) {
				parts[j] = k + "=[redacted]"
			}
		}
		u = u[:q+1] + strings.Join(parts, "&")
	}
	return u
}

// ---------------------------------------------------------------- JSON settings

// settingsJSON reads every control-surface key a JSON settings file of
// any agent may hold: hooks (Claude Code, Gemini CLI, Qwen Code, Auggie,
// Factory droid, Cursor, Windsurf, Copilot, Amazon Q agents), MCP servers
// (mcpServers, servers, context_servers, mcp, amp.mcpServers), helper
// commands (statusLine, apiKeyHelper, awsAuthRefresh, awsCredentialExport,
// otelHeadersHelper, tools.discoveryCommand, tools.callCommand),
// environment names (env), plugins and marketplaces (enabledPlugins,
// extraKnownMarketplaces, plugin), opencode's agent and command maps.
func settingsJSON(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	d.settings(m, "")
	return nil
}

func (d *doc) settings(m map[string]any, base string) {
	if h := obj(m["hooks"]); h != nil {
		d.hooks(h, ptr(base, "hooks"))
	}
	for _, k := range []string{"mcpServers", "servers", "context_servers", "amp.mcpServers", "mcp_servers"} {
		if s := obj(m[k]); s != nil {
			d.mcpMap(s, ptr(base, k))
		}
	}
	if mc := obj(m["mcp"]); mc != nil {
		if s := obj(mc["servers"]); s != nil { // VS Code settings.json
			d.mcpMap(s, ptr(base, "mcp", "servers"))
		} else {
			d.mcpMap(mc, ptr(base, "mcp")) // opencode, crush
		}
	}
	if sl := obj(m["statusLine"]); sl != nil {
		if c := str(sl["command"]); c != "" {
			p := ptr(base, "statusLine")
			d.add(Item{Kind: KindHelper, Name: "statusLine", Type: str(sl["type"]), Command: c, Pointer: p, Line: d.line(p)})
		}
	}
	for _, k := range []string{"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"} {
		if c := str(m[k]); c != "" {
			p := ptr(base, k)
			d.add(Item{Kind: KindHelper, Name: k, Command: c, Pointer: p, Line: d.line(p)})
		}
	}
	if t := obj(m["tools"]); t != nil {
		for _, k := range []string{"discoveryCommand", "callCommand"} {
			if c := str(t[k]); c != "" {
				p := ptr(base, "tools", k)
				d.add(Item{Kind: KindHelper, Name: "tools." + k, Command: c, Pointer: p, Line: d.line(p)})
			}
		}
	}
	if e := obj(m["env"]); len(e) > 0 {
		p := ptr(base, "env")
		d.add(Item{Kind: KindEnv, EnvKeys: keys(e), Pointer: p, Line: d.line(p)})
	}
	if ep := obj(m["enabledPlugins"]); ep != nil {
		for _, k := range keys(ep) {
			p := ptr(base, "enabledPlugins", k)
			v, _ := ep[k].(bool)
			d.add(Item{Kind: KindPlugin, Name: k, Disabled: !v, Desc: "listed in enabledPlugins", Pointer: p, Line: d.line(p)})
		}
	}
	if mk := obj(m["extraKnownMarketplaces"]); mk != nil {
		for _, k := range keys(mk) {
			p := ptr(base, "extraKnownMarketplaces", k)
			d.add(Item{Kind: KindMarket, Name: k, URL: marketSource(obj(mk[k])), Pointer: p, Line: d.line(p)})
		}
	}
	if pl := arr(m["plugin"]); pl != nil { // opencode: npm packages or paths
		for i, x := range pl {
			if s := str(x); s != "" {
				p := ptr(base, "plugin", i)
				d.add(Item{Kind: KindPlugin, Name: s, Desc: "loaded by the config", Pointer: p, Line: d.line(p)})
			}
		}
	}
	for _, k := range []string{"agent", "command"} { // opencode maps
		mm := obj(m[k])
		for _, name := range keys(mm) {
			a := obj(mm[name])
			if a == nil {
				d.notRead(ptr(base, k, name), "an entry that is not an object")
				continue
			}
			kind := KindAgent
			if k == "command" {
				kind = KindCommand
			}
			p := ptr(base, k, name)
			d.add(Item{Kind: kind, Name: name, Desc: first(str(a["description"]), str(a["prompt"]), str(a["template"])), Pointer: p, Line: d.line(p)})
		}
	}
}

func marketSource(m map[string]any) string {
	s := obj(m["source"])
	if s == nil {
		return first(str(m["source"]), str(m["url"]))
	}
	if r := str(s["repo"]); r != "" {
		return "github:" + r
	}
	return first(str(s["url"]), str(s["path"]), str(s["package"]))
}

// hooks reads a hooks map: event -> list of hooks, each either a matcher
// group holding a "hooks" list (Claude Code, Gemini CLI) or a hook itself
// (Cursor, Windsurf, Copilot, Amazon Q: command, bash, powershell).
func (d *doc) hooks(h map[string]any, base string) {
	for _, ev := range keys(h) {
		list := arr(h[ev])
		if list == nil {
			if o := obj(h[ev]); o != nil {
				list = []any{o}
			}
		}
		for i, e := range list {
			em := obj(e)
			if em == nil {
				p := ptr(base, ev, i)
				if c := str(e); c != "" {
					d.add(Item{Kind: KindHook, Event: ev, Type: "command", Command: c, Pointer: p, Line: d.line(p)})
				} else {
					d.notRead(p, "a hook that is neither an object nor a command string")
				}
				continue
			}
			if nested, ok := em["hooks"].([]any); ok {
				matcher := str(em["matcher"])
				for j, x := range nested {
					d.hook(ev, matcher, obj(x), ptr(base, ev, i, "hooks", j))
				}
				continue
			}
			d.hook(ev, first(str(em["matcher"]), strings.Join(strs(em["matchers"]), ",")), em, ptr(base, ev, i))
		}
	}
}

func (d *doc) hook(ev, matcher string, h map[string]any, p string) {
	if h == nil {
		return
	}
	cmd := first(str(h["command"]), str(h["bash"]), str(h["script"]), str(h["powershell"]))
	typ := str(h["type"])
	if typ == "" && cmd != "" {
		typ = "command"
	}
	it := Item{Kind: KindHook, Event: ev, Matcher: matcher, Type: typ, Command: cmd, Desc: str(h["prompt"]), Pointer: p, Line: d.line(p)}
	if ps := str(h["powershell"]); ps != "" && ps != cmd {
		it.Args = []string{"powershell: " + ps}
	}
	d.add(it)
}

// mcpMap reads a map of MCP servers by name.
func (d *doc) mcpMap(m map[string]any, base string) {
	for _, name := range keys(m) {
		s := obj(m[name])
		if s == nil {
			continue
		}
		p := ptr(base, name)
		it := d.mcpServer(name, s)
		it.Pointer, it.Line = p, d.line(p)
		d.add(it)
	}
}

func (d *doc) mcpServer(name string, s map[string]any) Item {
	it := Item{Kind: KindMCP, Name: name}
	switch c := s["command"].(type) {
	case string:
		it.Command = c
	case []any: // opencode: ["npx", "-y", "pkg"]
		if cs := strs(c); len(cs) > 0 {
			it.Command, it.Args = cs[0], cs[1:]
		}
	case map[string]any: // Zed: {"path", "args", "env"}
		it.Command = str(c["path"])
		it.Args = strs(c["args"])
		it.EnvKeys = envKeys(c["env"])
	}
	if it.Command == "" {
		it.Command = str(s["cmd"]) // goose
	}
	it.Args = append(it.Args, strs(s["args"])...)
	it.EnvKeys = append(it.EnvKeys, envKeys(s["env"], s["environment"], s["envs"], s["env_keys"], s["env_vars"])...)
	it.URL = first(str(s["url"]), str(s["serverUrl"]), str(s["httpUrl"]), str(s["uri"]), str(s["endpoint"]))
	it.Type = first(str(s["type"]), str(s["transport"]))
	it.HeaderKeys = envKeys(s["headers"], s["http_headers"])
	if v := str(s["bearerTokenEnvVar"]); v != "" { // Kimi Code mcp.json: the variable's name
		it.EnvKeys = append(it.EnvKeys, v)
	}
	if v, ok := s["disabled"].(bool); ok && v {
		it.Disabled = true
	}
	if v, ok := s["enabled"].(bool); ok && !v {
		it.Disabled = true
	}
	return it
}

// claudeJSON reads ~/.claude.json: user-scope MCP servers and each
// project's local-scope servers (the account, tokens and caches are never
// decoded).
func claudeJSON(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	if s := obj(m["mcpServers"]); s != nil {
		d.mcpMap(s, "/mcpServers")
	}
	projects := obj(m["projects"])
	for _, p := range keys(projects) {
		pm := obj(projects[p])
		s := obj(pm["mcpServers"])
		if len(s) == 0 {
			continue
		}
		saved := d.scope
		d.scope, d.project = "local", p
		d.mcpMap(s, ptr("", "projects", p, "mcpServers"))
		d.scope, d.project = saved, ""
	}
	return nil
}

// claudePlugins reads ~/.claude/plugins/installed_plugins.json (version 1:
// name -> record; version 2: name -> list of installs).
func claudePlugins(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	pl := obj(m["plugins"])
	for _, name := range keys(pl) {
		recs := arr(pl[name])
		if recs == nil {
			recs = []any{pl[name]}
		}
		for i, r := range recs {
			rm := obj(r)
			p := ptr("", "plugins", name)
			if _, isList := pl[name].([]any); isList {
				p = ptr(p, i)
			}
			desc := strings.TrimSpace(strings.Join(nonEmpty("version "+str(rm["version"]), "installed "+str(rm["installedAt"]), "updated "+str(rm["lastUpdated"]), "commit "+str(rm["gitCommitSha"]), "at "+str(rm["installPath"])), ", "))
			d.add(Item{Kind: KindPlugin, Name: name, Scope: first(str(rm["scope"]), "user"), Project: str(rm["projectPath"]), Desc: desc, Pointer: p, Line: d.line(p)})
		}
	}
	return nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if f := strings.Fields(s); len(f) > 1 {
			out = append(out, s)
		}
	}
	return out
}

// claudeMarketplaces reads ~/.claude/plugins/known_marketplaces.json.
func claudeMarketplaces(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	for _, name := range keys(m) {
		mm := obj(m[name])
		if mm == nil {
			continue
		}
		p := ptr("", name)
		d.add(Item{Kind: KindMarket, Name: name, URL: marketSource(mm), Desc: first(str(mm["lastUpdated"]), str(mm["installLocation"])), Pointer: p, Line: d.line(p)})
	}
	return nil
}

// pluginManifest reads a plugin's or extension's manifest (Claude Code
// .claude-plugin/plugin.json, Gemini CLI gemini-extension.json, Claude
// Desktop extension manifest.json): the plugin, and the hooks and MCP
// servers it declares.
func pluginManifest(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	name := first(str(m["name"]), str(m["display_name"]), path.Base(path.Dir(d.rel)))
	desc := strings.TrimSpace(strings.Join(nonEmpty("version "+str(m["version"]), str(m["description"])), ", "))
	if v := str(m["version"]); v != "" && str(m["description"]) == "" {
		desc = "version " + v
	}
	d.add(Item{Kind: KindPlugin, Name: name, Desc: desc})
	saved := d.scope
	if d.scope != "extension" {
		d.scope = "plugin"
	}
	d.settings(m, "")
	if srv := obj(m["server"]); srv != nil { // Claude Desktop extension (DXT)
		if mc := obj(srv["mcp_config"]); mc != nil {
			it := d.mcpServer(name, mc)
			it.Pointer = "/server/mcp_config"
			it.Line = d.line(it.Pointer)
			d.add(it)
		}
	}
	d.scope = saved
	return nil
}

// amazonQAgent reads an Amazon Q / Kiro CLI agent (cli-agents/*.json,
// .kiro/agents/*.json): the agent, its MCP servers and hooks.
func amazonQAgent(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	name := first(str(m["name"]), strings.TrimSuffix(path.Base(d.f.Path), ".json"))
	c, cut := content(d.b)
	d.add(Item{Kind: KindAgent, Name: name, Desc: first(str(m["description"]), str(m["prompt"])), Content: c, ContentCut: cut})
	d.settings(m, "")
	return nil
}

// kiroHook reads a Kiro IDE hook (.kiro/hooks/*.kiro.hook): when an event
// happens, ask the agent a prompt or run a command.
func kiroHook(d *doc) error {
	m, err := d.jsonDoc()
	if err != nil {
		return err
	}
	when, then := obj(m["when"]), obj(m["then"])
	it := Item{Kind: KindHook, Name: str(m["name"]), Event: str(when["type"]), Matcher: strings.Join(strs(when["patterns"]), ","),
		Type: str(then["type"]), Command: str(then["command"]), Desc: first(str(then["prompt"]), str(m["description"])), Pointer: "/then", Line: d.line("/then")}
	if v, ok := m["enabled"].(bool); ok && !v {
		it.Disabled = true
	}
	d.add(it)
	return nil
}

// ---------------------------------------------------------------- TOML

// codexConfig reads ~/.codex/config.toml (and a project's
// .codex/config.toml): [mcp_servers.<name>] and notify.
func codexConfig(d *doc) error {
	var m map[string]any
	if _, err := toml.Decode(string(d.b), &m); err != nil {
		return fmt.Errorf("unreadable TOML: %v", err)
	}
	m = normTOML(m).(map[string]any)
	lines := tomlHeaderLines(d.b)
	if h := obj(m["hooks"]); h != nil { // [[hooks.<Event>]] with [[hooks.<Event>.hooks]]
		saved := len(d.items)
		d.hooks(h, "hooks")
		for i := saved; i < len(d.items); i++ {
			d.items[i].Line = lines["hooks."+d.items[i].Event+".hooks"]
			if d.items[i].Line == 0 {
				d.items[i].Line = lines["hooks."+d.items[i].Event]
			}
			d.items[i].Pointer = strings.ReplaceAll(d.items[i].Pointer, "/", ".")
		}
	}
	srv, _ := m["mcp_servers"].(map[string]any)
	for _, name := range keys(srv) {
		s, _ := srv[name].(map[string]any)
		if s == nil {
			continue
		}
		it := d.mcpServer(name, tomlToJSONish(s))
		it.Pointer = "mcp_servers." + name
		it.Line = lines[it.Pointer]
		if v := str(s["bearer_token_env_var"]); v != "" {
			it.EnvKeys = append(it.EnvKeys, v)
		}
		d.add(it)
	}
	if n, ok := m["notify"].([]any); ok && len(n) > 0 {
		ns := strs(n)
		it := Item{Kind: KindHelper, Name: "notify", Pointer: "notify", Line: lines["notify"]}
		if len(ns) > 0 {
			it.Command, it.Args = ns[0], ns[1:]
		}
		d.add(it)
	}
	return nil
}

// kimiConfig reads Kimi Code's ~/.kimi-code/config.toml and Kimi CLI's
// ~/.kimi/config.toml (or its older config.json): the [[hooks]] array
// only (event, matcher, command; MoonshotAI/kimi-code d723cc4
// features/externalHooks/configSection.ts, MoonshotAI/kimi-cli 4a550ef
// hooks/config.py). The file holds the providers' API keys: no other key
// is read.
func kimiConfig(d *doc) error {
	var m map[string]any
	var lines []int64
	if strings.HasSuffix(d.rel, ".json") {
		jm, err := d.jsonDoc()
		if err != nil {
			return err
		}
		m = jm
	} else {
		if _, err := toml.Decode(string(d.b), &m); err != nil {
			return fmt.Errorf("unreadable TOML: %v", err)
		}
		m = normTOML(m).(map[string]any)
		lines = tomlArrayLines(d.b, "hooks")
	}
	if h, ok := m["hooks"]; ok && arr(h) == nil {
		d.notRead("hooks", "not an array of tables ([[hooks]])")
	}
	for i, h := range arr(m["hooks"]) {
		hm := obj(h)
		if hm == nil {
			d.notRead(fmt.Sprintf("hooks[%d]", i), "a hook that is not a table")
			continue
		}
		it := Item{Kind: KindHook, Event: str(hm["event"]), Matcher: str(hm["matcher"]), Type: "command", Command: str(hm["command"])}
		if lines != nil {
			it.Pointer = fmt.Sprintf("hooks[%d]", i)
			if i < len(lines) {
				it.Line = lines[i]
			}
		} else {
			it.Pointer = ptr("", "hooks", i)
			it.Line = d.line(it.Pointer)
		}
		d.add(it)
	}
	return nil
}

// kimiTUI reads Kimi Code's ~/.kimi-code/tui.toml: [status_line].command
// (run about once a second with the session's state on stdin) and
// [editor].command (the external editor), helper commands.
func kimiTUI(d *doc) error {
	var m map[string]any
	if _, err := toml.Decode(string(d.b), &m); err != nil {
		return fmt.Errorf("unreadable TOML: %v", err)
	}
	lines := tomlHeaderLines(d.b)
	for _, k := range []string{"status_line", "editor"} {
		if c := str(obj(m[k])["command"]); c != "" {
			d.add(Item{Kind: KindHelper, Name: k + ".command", Command: c, Pointer: k + ".command", Line: lines[k]})
		}
	}
	return nil
}

// tomlArrayLines are the 1-based lines of each [[name]] header, in order.
func tomlArrayLines(b []byte, name string) []int64 {
	out := []int64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxFile)
	var n int64
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[[") {
			if m := tomlHeader.FindStringSubmatch(l); m != nil && strings.TrimSpace(m[1]) == name {
				out = append(out, n)
			}
		}
	}
	return out
}

// normTOML turns TOML arrays of tables ([]map[string]any) into []any, as
// decoded JSON has them.
func normTOML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normTOML(e)
		}
		return x
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normTOML(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = normTOML(x[i])
		}
		return x
	}
	return v
}

// tomlToJSONish turns TOML scalars into the shapes mcpServer reads.
func tomlToJSONish(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch x := v.(type) {
		case []any:
			out[k] = x
		case map[string]any:
			out[k] = x
		default:
			out[k] = v
		}
	}
	return out
}

var tomlHeader = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_.\-"' ]+?)\s*\]\]?\s*(#.*)?$`)
var tomlKey = regexp.MustCompile(`^\s*([A-Za-z0-9_\-]+)\s*=`)

// tomlHeaderLines maps "table.key" names (tables, and top-level keys) to
// their 1-based lines.
func tomlHeaderLines(b []byte) map[string]int64 {
	out := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxFile)
	var n int64
	table := ""
	for sc.Scan() {
		n++
		l := sc.Text()
		if m := tomlHeader.FindStringSubmatch(l); m != nil {
			table = strings.NewReplacer(`"`, "", `'`, "", " ", "").Replace(m[1])
			if _, ok := out[table]; !ok {
				out[table] = n
			}
			continue
		}
		if m := tomlKey.FindStringSubmatch(l); m != nil && table == "" {
			if _, ok := out[m[1]]; !ok {
				out[m[1]] = n
			}
		}
	}
	return out
}

// tomlCommand reads a Gemini CLI / Qwen Code custom command
// (commands/**/*.toml: description, prompt).
func tomlCommand(d *doc) error {
	var m map[string]any
	if _, err := toml.Decode(string(d.b), &m); err != nil {
		return fmt.Errorf("unreadable TOML: %v", err)
	}
	c, cut := content(d.b)
	d.add(Item{Kind: KindCommand, Name: commandName(d.rel, "commands/", ".toml"), Desc: first(str(m["description"]), str(m["prompt"])), Content: c, ContentCut: cut})
	return nil
}

// commandName is a command's name from its path under dir: subfolders
// joined with ':' (git/commit.md -> git:commit).
func commandName(rel, dir, ext string) string {
	if i := strings.LastIndex(rel, dir); i >= 0 {
		rel = rel[i+len(dir):]
	} else {
		rel = path.Base(rel)
	}
	rel = strings.TrimSuffix(rel, ext)
	return strings.ReplaceAll(rel, "/", ":")
}

// ---------------------------------------------------------------- YAML

func yamlDoc(d *doc) (*yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(d.b, &n); err != nil {
		return nil, fmt.Errorf("unreadable YAML: %v", err)
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return n.Content[0], nil
	}
	return &n, nil
}

// ymap returns a mapping node's values by key, with the key's line.
func ymap(n *yaml.Node) (map[string]*yaml.Node, map[string]int64) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	vals, lines := map[string]*yaml.Node{}, map[string]int64{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		vals[k], lines[k] = n.Content[i+1], int64(n.Content[i].Line)
	}
	return vals, lines
}

func yany(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	var v any
	if n.Decode(&v) != nil {
		return nil
	}
	return normYAML(v)
}

// normYAML makes YAML values look like decoded JSON (string keys).
func normYAML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normYAML(e)
		}
		return x
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			m[fmt.Sprint(k)] = normYAML(e)
		}
		return m
	case []any:
		for i := range x {
			x[i] = normYAML(x[i])
		}
		return x
	case int:
		return int64(x)
	}
	return v
}

// yamlConfig reads YAML configs: Goose config.yaml (extensions), Continue
// config.yaml and .continue/mcpServers/*.yaml (mcpServers, rules,
// prompts), Roo Code custom modes (customModes).
func yamlConfig(d *doc) error {
	root, err := yamlDoc(d)
	if err != nil {
		return err
	}
	vals, lines := ymap(root)
	if ext, _ := ymap(vals["extensions"]); ext != nil { // goose
		names := make([]string, 0, len(ext))
		for k := range ext {
			names = append(names, k)
		}
		sort.Strings(names)
		_, el := ymap(vals["extensions"])
		for _, name := range names {
			s := obj(yany(ext[name]))
			if s == nil {
				continue
			}
			it := d.mcpServer(first(str(s["name"]), name), s)
			if v, ok := s["enabled"].(bool); ok && !v {
				it.Disabled = true
			}
			it.Pointer, it.Line = "extensions."+name, el[name]
			d.add(it)
		}
	}
	if ms := vals["mcpServers"]; ms != nil && ms.Kind == yaml.SequenceNode { // continue
		for i, n := range ms.Content {
			s := obj(yany(n))
			it := d.mcpServer(str(s["name"]), s)
			it.Pointer, it.Line = fmt.Sprintf("mcpServers[%d]", i), int64(n.Line)
			d.add(it)
		}
	}
	if rs := vals["rules"]; rs != nil && rs.Kind == yaml.SequenceNode {
		for i, n := range rs.Content {
			v := yany(n)
			name, text := "", str(v)
			if m := obj(v); m != nil {
				name, text = str(m["name"]), first(str(m["rule"]), str(m["uses"]))
			}
			d.add(Item{Kind: KindRules, Name: first(name, fmt.Sprintf("rules[%d]", i)), Desc: text, Pointer: fmt.Sprintf("rules[%d]", i), Line: int64(n.Line)})
		}
	}
	if ps := vals["prompts"]; ps != nil && ps.Kind == yaml.SequenceNode {
		for i, n := range ps.Content {
			m := obj(yany(n))
			d.add(Item{Kind: KindCommand, Name: first(str(m["name"]), fmt.Sprintf("prompts[%d]", i)), Desc: first(str(m["description"]), str(m["prompt"]), str(m["uses"])), Pointer: fmt.Sprintf("prompts[%d]", i), Line: int64(n.Line)})
		}
	}
	if cm := vals["customModes"]; cm != nil && cm.Kind == yaml.SequenceNode { // roo
		for i, n := range cm.Content {
			m := obj(yany(n))
			d.add(Item{Kind: KindAgent, Name: first(str(m["slug"]), str(m["name"])), Desc: first(str(m["whenToUse"]), str(m["roleDefinition"]), str(m["description"])), Pointer: fmt.Sprintf("customModes[%d]", i), Line: int64(n.Line)})
		}
	}
	_ = lines
	return nil
}

// modesFile reads Roo Code's .roomodes / custom_modes (YAML, or JSON,
// which YAML reads too).
func modesFile(d *doc) error { return yamlConfig(d) }

// ---------------------------------------------------------------- text files

// markdown returns a decoder of a Markdown (or plain text) file of kind:
// its front matter's name and description, and its text.
func markdown(kind string) decoder {
	return func(d *doc) error {
		fm, body := frontMatter(d.b)
		name := first(str(fm["name"]), str(fm["title"]))
		switch {
		case name != "":
		case kind == KindSkill:
			name = path.Base(path.Dir(d.rel))
		case kind == KindCommand:
			name = commandName(d.rel, commandDir(d.rel), path.Ext(d.rel))
			name = strings.TrimSuffix(strings.TrimSuffix(name, ".prompt"), ".workflow")
		default:
			name = path.Base(d.rel)
			if kind != KindRules {
				name = strings.TrimSuffix(name, path.Ext(name))
				for _, s := range []string{".agent", ".chatmode", ".instructions", ".prompt"} {
					name = strings.TrimSuffix(name, s)
				}
			}
		}
		desc := first(str(fm["description"]), str(fm["whenToUse"]), firstLine(body))
		c, cut := content(d.b)
		d.add(Item{Kind: kind, Name: name, Desc: desc, Content: c, ContentCut: cut})
		return nil
	}
}

func commandDir(rel string) string {
	for _, dir := range []string{"commands/", "prompts/", "workflows/", "global_workflows/", "Workflows/"} {
		if strings.Contains(rel, dir) {
			return dir
		}
	}
	return "\x00"
}

// frontMatter splits a leading YAML front matter (--- ... ---) from the
// body; a file without one is all body.
func frontMatter(b []byte) (map[string]any, []byte) {
	s := bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(s, []byte("---")) {
		return nil, s
	}
	rest := s[3:]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 || len(bytes.TrimSpace(rest[:nl])) > 0 {
		return nil, s
	}
	rest = rest[nl+1:]
	end := bytes.Index(rest, []byte("\n---"))
	if end < 0 {
		return nil, s
	}
	var v any
	if yaml.Unmarshal(rest[:end], &v) != nil {
		return nil, s
	}
	body := rest[end+4:]
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	}
	return obj(normYAML(v)), body
}

func firstLine(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxFile)
	for sc.Scan() {
		l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(sc.Text()), "#"))
		if l != "" && l != "```" && !strings.HasPrefix(l, "<!--") {
			return l
		}
	}
	return ""
}

// file returns a decoder listing a file of kind (a hook script, a skill's
// resource, a plugin's code) with its text when it is text.
func file(kind string) decoder {
	return func(d *doc) error {
		c, cut := content(d.b)
		d.add(Item{Kind: kind, Name: path.Base(d.rel), Content: c, ContentCut: cut})
		return nil
	}
}

// dotenvNameRe is a .env line's variable name: KEY=..., export KEY=...,
// KEY: ... (dotenvy's syntax), blanks around it allowed.
var dotenvNameRe = regexp.MustCompile(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*[=:]`)

// dotenv reads a .env file for its variable names only: one environment
// entry listing them, at the first name's line. The values are never read
// into the entry (a .env holds keys and tokens). Lines that are comments,
// blank, or the continuation of a quoted value give no name.
func dotenv(d *doc) error {
	var names []string
	seen := map[string]bool{}
	var first int64
	inQuote := byte(0)
	for i, ln := range strings.Split(string(d.b), "\n") {
		if inQuote != 0 {
			if strings.IndexByte(ln, inQuote) >= 0 {
				inQuote = 0
			}
			continue
		}
		t := strings.TrimSpace(ln)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		m := dotenvNameRe.FindStringSubmatchIndex(ln)
		if m == nil {
			continue
		}
		name := ln[m[2]:m[3]]
		if v := strings.TrimSpace(ln[m[1]:]); len(v) > 0 && (v[0] == '"' || v[0] == '\'') && strings.IndexByte(v[1:], v[0]) < 0 {
			inQuote = v[0] // a multi-line quoted value
		}
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		if first == 0 {
			first = int64(i + 1)
		}
	}
	if len(names) == 0 {
		return nil
	}
	d.add(Item{Kind: KindEnv, Name: path.Base(d.rel), EnvKeys: names, Line: first})
	return nil
}
