package surface

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	json "github.com/go-json-experiment/json/v1"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/catalog"
)

// Prefix starts the text of every control-surface row.
const Prefix = "control surface: "

// Version of every surface parser; bumped when rows change.
const Version = 2

// Limits of what one file gives.
const (
	maxFile    = 8 << 20  // a control-surface file larger than this is not read (a problem says so)
	ContentMax = 32 << 10 // text of a skill, agent, command, rules file or script kept in the row
	maxSummary = 200      // characters of a description in the row's text
)

// Kinds of control-surface entries.
const (
	KindHook       = "hook"           // a command (or prompt) the agent runs on an event, without the model
	KindHelper     = "helper_command" // another command a setting makes the agent run (status line, key helper, notify)
	KindMCP        = "mcp_server"     // an MCP server the agent starts or connects to
	KindSkill      = "skill"          // a skill's SKILL.md
	KindSkillFile  = "skill_file"     // another file of a skill (scripts, references)
	KindAgent      = "agent"          // a custom agent, subagent, droid, mode or chat mode
	KindCommand    = "command"        // a custom slash command, prompt or workflow
	KindPlugin     = "plugin"         // a plugin or extension (installed, enabled, or its manifest)
	KindMarket     = "marketplace"    // a plugin marketplace the agent trusts
	KindRules      = "rules"          // an instructions file loaded into the model's context
	KindStyle      = "output_style"   // an output style loaded into the system prompt
	KindEnv        = "environment"    // environment variables a setting injects (names only)
	KindHookScript = "hook_script"    // a file in a hooks folder
	KindPluginFile = "plugin_file"    // a plugin's code file
	KindBackup     = "backup"         // a backup copy beside a settings file
)

// Kinds lists the kinds in documentation order.
var Kinds = []string{KindHook, KindHelper, KindMCP, KindSkill, KindSkillFile, KindAgent, KindCommand, KindPlugin, KindMarket, KindRules, KindStyle, KindEnv, KindHookScript, KindPluginFile, KindBackup}

// Item is one entry of an agent's control surface: what the agent would
// load or run, where it comes from, and the file's identity. It is the
// tool_input of its timeline row and, with the file's access, change and
// birth times and where it was collected, one line of surface.jsonl
// (analyzer/surface). Those three times are not in the row: they change
// each time a file is read or copied, and a timeline row depends only on
// the evidence.
type Item struct {
	Kind       string   `json:"kind"`
	Agent      string   `json:"agent"`
	Scope      string   `json:"scope"`   // user, project, local (a user's setting for one project), plugin, extension, bundled (shipped with the agent)
	Project    string   `json:"project"` // the project directory, for project and local scope
	Name       string   `json:"name"`
	Event      string   `json:"event"`   // a hook's event
	Matcher    string   `json:"matcher"` // a hook's matcher (tool name pattern)
	Type       string   `json:"type"`    // a hook's type (command, prompt), an MCP server's transport
	Command    string   `json:"command"`
	Args       []string `json:"args"`
	EnvKeys    []string `json:"env_keys"` // names only, never values
	URL        string   `json:"url"`
	HeaderKeys []string `json:"header_keys"` // names only
	Disabled   bool     `json:"disabled"`
	Desc       string   `json:"description"`
	Content    string   `json:"content"` // a text file's content, up to ContentMax
	ContentCut bool     `json:"content_cut"`
	BackupOf   string   `json:"backup_of"` // for a backup copy: the settings file it copies
	File       string   `json:"file"`      // original host path
	Pointer    string   `json:"pointer"`   // where in the file (JSON pointer, TOML or YAML key)
	Line       int64    `json:"line"`      // 1-based line of the entry, 0 for the whole file
	SHA256     string   `json:"sha256"`    // of the bytes read
	Size       int64    `json:"size"`
	MTime      string   `json:"mtime"` // the file's modification time (the row's time, here to the nanosecond)
}

// doc is one file being read.
type doc struct {
	f        *parser.File
	b        []byte
	b2       []byte // b as standard JSON (JSONC comments blanked), when read as JSON
	sum      string
	scope    string
	project  string
	rel      string // the path matched (home-relative, or project-relative)
	backupOf string
	lines    map[string]int64 // JSON pointer -> line, filled on demand
	items    []Item
	unread   []string // JSON pointers of entries not of the shape their key holds
}

// notRead names an entry a decoder found but cannot read (a hook that is
// neither a table nor a command string, say): each becomes a counted
// skipped_record problem, never a silent drop.
func (d *doc) notRead(pointer, what string) {
	d.unread = append(d.unread, pointer+": "+what)
}

func (d *doc) add(it Item) {
	it.Agent = d.f.Agent
	if it.Scope == "" {
		it.Scope = d.scope
	}
	if it.Project == "" && (it.Scope == "project" || it.Scope == "local") {
		it.Project = d.project
	}
	it.BackupOf = d.backupOf
	it.File = d.f.Path
	it.SHA256, it.Size = d.sum, int64(len(d.b))
	it.MTime = fullTime(d.f.MTime)
	it.Command = redactText(it.Command)
	it.Content = redactText(it.Content)
	it.Desc = redactText(it.Desc)
	it.Args = redactArgs(it.Args)
	it.URL = redactURL(it.URL)
	sort.Strings(it.EnvKeys)
	sort.Strings(it.HeaderKeys)
	for _, l := range []*[]string{&it.Args, &it.EnvKeys, &it.HeaderKeys} {
		if *l == nil { // every field present: an empty list, never null
			*l = []string{}
		}
	}
	d.items = append(d.items, it)
}

// fullTime renders a file time as RFC 3339 UTC with the precision the
// manifest recorded (nanoseconds), "" when unknown.
func fullTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// decoder reads one file format into items.
type decoder func(d *doc) error

// entry is one row of the table: files of an agent whose path (relative to
// the home, or the tail of a project artifact's path) matches Glob are
// read with dec. A backup copy (Glob + a backup suffix) is read with dec
// too, and listed as a backup.
type entry struct {
	glob   string
	dec    decoder
	what   string // for the docs
	backup bool   // backup copies of this file are listed and read
	scope  string // overrides user/project (plugin, extension)
}

// backupSuffix is what a backup copy's name adds.
const backupSuffix = ".{bak,backup,old,orig}{,.*}"

// spec is one agent's surface parser.
type spec struct {
	agent   string
	targets []string
	secret  bool // reads a secret-kind file (named non-secret keys only)
	version int  // the parser's Version when its output changed alone (else Version)
	entries []entry
	// notTargets are catalog targets of the agent that hold no control
	// surface file (routed elsewhere, or listed as not read).
	notTargets []string
}

type surfaceParser struct {
	s  spec
	ps parser.Spec
}

// Parsers returns one surface parser per agent the table knows.
func Parsers() []parser.Parser {
	var out []parser.Parser
	for _, s := range table() {
		v := Version
		if s.version != 0 {
			v = s.version
		}
		out = append(out, &surfaceParser{s: s, ps: parser.Spec{
			ID: s.agent + "/surface", Agent: s.agent, Version: v, Targets: s.targets,
			ReadsSecretKind: s.secret,
			Doc:             "control surface (hooks, MCP servers, skills, agents, commands, plugins, rules files, backup copies): " + docList(s.entries) + " (system rows \"control surface: ...\" at the file mtime, the entry as tool_input)",
		}})
	}
	return out
}

func docList(es []entry) string {
	var parts []string
	seen := map[string]bool{}
	for _, e := range es {
		if !seen[e.what] {
			seen[e.what] = true
			parts = append(parts, e.what)
		}
	}
	return strings.Join(parts, "; ")
}

func (p *surfaceParser) ID() string        { return p.ps.ID }
func (p *surfaceParser) Agent() string     { return p.s.agent }
func (p *surfaceParser) Version() int      { return p.ps.Version }
func (p *surfaceParser) Spec() parser.Spec { return p.ps }

func (p *surfaceParser) Match(f *parser.File) bool {
	if f.Agent != p.s.agent {
		return false
	}
	_, _, _, ok := p.lookup(f)
	return ok
}

// lookup finds the table entry for f: the entry, the matched relative
// path, the project directory (for a project artifact) and whether the
// file is a backup copy.
func (p *surfaceParser) lookup(f *parser.File) (e entry, rel, project string, ok bool) {
	p2 := strings.ReplaceAll(f.Path, "\\", "/")
	if f.Target == catalog.ProjectTarget {
		parts := strings.Split(strings.TrimPrefix(p2, "/"), "/")
		for i := 1; i < len(parts); i++ {
			tail := strings.Join(parts[i:], "/")
			if en, ok := p.match(tail); ok {
				dir := "/" + strings.Join(parts[:i], "/")
				if len(parts[0]) == 2 && parts[0][1] == ':' { // C:/...
					dir = strings.Join(parts[:i], "/")
				}
				return en, tail, dir, true
			}
		}
		return entry{}, "", "", false
	}
	rel = f.Rel
	if rel == "" {
		rel = strings.TrimPrefix(p2, "/")
	}
	en, ok := p.match(rel)
	return en, rel, "", ok
}

func (p *surfaceParser) match(rel string) (entry, bool) {
	for _, e := range p.s.entries {
		if mayMatch(e.glob, rel, true) {
			if m, _ := doublestar.Match(e.glob, rel); m {
				return e, true
			}
		}
	}
	for _, e := range p.s.entries {
		if !e.backup {
			continue
		}
		if !mayMatch(e.glob, rel, false) {
			continue
		}
		if m, _ := doublestar.Match(e.glob+backupSuffix, rel); m {
			e.backup = true
			e.what = "backup"
			return e, true
		}
	}
	return entry{}, false
}

// mayMatch is false when rel cannot match glob (doublestar syntax): a
// match starts with the glob's text before its first special character
// and, when whole is set (glob is the whole pattern, not one a suffix is
// added to), ends with its text after its last. The route stage asks
// every agent file (a transcript too) of every surface entry, so most
// are told apart here without running the matcher.
func mayMatch(glob, rel string, whole bool) bool {
	if i := strings.IndexAny(glob, globSpecial); i >= 0 {
		if !strings.HasPrefix(rel, glob[:i]) {
			return false
		}
	} else if whole {
		return rel == glob
	} else if !strings.HasPrefix(rel, glob) {
		return false
	}
	if whole {
		return strings.HasSuffix(rel, glob[strings.LastIndexAny(glob, globSpecial+"]}")+1:])
	}
	return true
}

// globSpecial are the characters that open a doublestar construct.
const globSpecial = "*?[{\\"

func (p *surfaceParser) Parse(ctx context.Context, in *parser.Input, out parser.Sink) error {
	e, rel, project, ok := p.lookup(&in.File)
	if !ok {
		out.Skip(0, "no_evidence:not_a_control_surface_file")
		return nil
	}
	if parser.IsGitSampleHook(in.Path) {
		// git's pre-commit.sample and the rest, in a clone under an
		// agent's folder (a plugin marketplace): git never runs them
		out.Skip(0, "no_evidence:git_sample_hook")
		return nil
	}
	rc, err := in.OpenRaw() // the hash is the file's own; the text has no BOM
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxFile+1))
	if err != nil {
		return err
	}
	if len(b) > maxFile {
		out.Report(0, parser.KindSkippedRecord, fmt.Sprintf("control-surface file over %d bytes: not read", maxFile))
		return nil
	}
	sum := sha256.Sum256(b)
	d := &doc{f: &in.File, b: parser.TrimBOM(b), sum: hex.EncodeToString(sum[:]), scope: "user", rel: rel, project: project}
	if project != "" {
		d.scope = "project"
	}
	if e.scope != "" {
		d.scope = e.scope
	}
	if strings.Contains(rel, "/skills/.system/") { // Codex's own bundled skills
		d.scope = "bundled"
	}
	if e.what == "backup" {
		d.backupOf = backupOriginal(in.Path)
		d.add(Item{Kind: KindBackup, Name: path.Base(d.backupOf)})
	}
	if err := e.dec(d); err != nil {
		out.Problem(0, err.Error())
	}
	for _, u := range d.unread {
		out.Report(0, parser.KindSkippedRecord, "control-surface entry "+u+": not read")
	}
	if len(d.items) == 0 {
		out.Skip(0, "no_evidence:no_control_surface_entry")
		return nil
	}
	for _, it := range d.items {
		ev := parser.SettingEvent(&in.File)
		ev.ProjectPath = it.Project
		ev.SourceLine = it.Line
		ev.Text = Prefix + Summary(&it) + " (from " + parser.DisplayFile(&in.File)
		if it.BackupOf != "" && it.Kind != KindBackup {
			ev.Text += ", a backup copy"
		}
		ev.Text += ", file mtime)"
		bi, err := json.Marshal(it)
		if err != nil {
			return err
		}
		ev.ToolInput = string(bi)
		out.Event(ev)
	}
	return nil
}

// backupOriginal names the file a backup copy copies: the path without
// its backup suffix (settings.json.bak, settings.json.backup.1700000000).
// Claude Code keeps its own copies of ~/.claude.json in
// ~/.claude/backups/.claude.json.backup.<ms>.
func backupOriginal(p string) string {
	for _, suf := range []string{".bak", ".backup", ".old", ".orig"} {
		if i := strings.LastIndex(p, suf); i > 0 && (i+len(suf) == len(p) || p[i+len(suf)] == '.') {
			o := p[:i]
			if path.Base(o) == ".claude.json" && path.Base(path.Dir(o)) == "backups" {
				return path.Dir(path.Dir(path.Dir(o))) + "/.claude.json"
			}
			return o
		}
	}
	return p
}

// Detail is what an entry runs (command and arguments), where it
// connects (URL) or what it says (description), for a listing.
func Detail(it *Item) string {
	switch {
	case it.Kind == KindBackup:
		return "backup of " + it.BackupOf
	case it.Kind == KindEnv:
		return strings.Join(it.EnvKeys, ", ")
	case it.Command != "":
		return strings.TrimSpace(it.Command + " " + strings.Join(it.Args, " "))
	case it.URL != "":
		return it.URL
	case it.Type == "prompt":
		return "prompt: " + cutRunes(it.Desc, maxSummary)
	}
	return cutRunes(it.Desc, maxSummary)
}

// Summary is the row text of an item after the prefix.
func Summary(it *Item) string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(it.Kind, "_", " "))
	if it.Kind == KindBackup {
		b.WriteString(" of " + it.BackupOf)
		return b.String()
	}
	name := it.Name
	if it.Kind == KindHook {
		name = it.Event
		if it.Matcher != "" && it.Matcher != "*" {
			name += "[" + it.Matcher + "]"
		}
	}
	if name != "" {
		b.WriteString(" " + name)
	}
	if it.Kind == KindEnv {
		return b.String() + ": " + strings.Join(it.EnvKeys, ", ")
	}
	detail := ""
	switch {
	case it.Kind == KindPlugin && it.Desc != "":
		detail = cutRunes(it.Desc, maxSummary)
	case it.Command != "":
		detail = strings.TrimSpace(it.Command + " " + strings.Join(it.Args, " "))
	case it.URL != "":
		detail = it.URL
	case it.Desc != "":
		detail = cutRunes(it.Desc, maxSummary)
	}
	if it.Kind == KindHook && it.Type == "prompt" && it.Command == "" {
		detail = "prompt: " + cutRunes(it.Desc, maxSummary)
	}
	if detail == "" && it.Type != "" {
		detail = it.Type
	}
	if detail != "" {
		b.WriteString(": " + detail)
	}
	if len(it.EnvKeys) > 0 {
		b.WriteString(" [env " + strings.Join(it.EnvKeys, ", ") + "]")
	}
	if it.Disabled {
		b.WriteString(" (disabled)")
	}
	if it.Scope != "user" && it.Scope != "project" {
		b.WriteString(" (" + it.Scope)
		if it.Project != "" {
			b.WriteString(" " + it.Project)
		}
		b.WriteString(")")
	}
	return b.String()
}

func cutRunes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}

// content returns a text file's content for the row (valid UTF-8 only),
// redacted, cut at ContentMax.
func content(b []byte) (string, bool) {
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return "", false
	}
	// Redacted whole, before the cut, so a secret across ContentMax is
	// not left half written.
	b = []byte(redactText(string(b)))
	if len(b) <= ContentMax {
		return string(b), false
	}
	c := b[:ContentMax]
	for len(c) > 0 && !utf8.Valid(c) {
		c = c[:len(c)-1]
	}
	return string(c), true
}
