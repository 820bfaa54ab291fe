package catalog

// agents is the table. Keep entries in alphabetical order of Name; each
// agent's targets are documented in ../shared seeds and generated into
// docs/agents.md.
var agents = []Agent{
	{
		Name: "claude-code", Display: "Claude Code", Status: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Claude Code run here against a loopback model (fixtures/roots/real-agents); seed: 2.1.286 to 2.1.310 on Linux, macOS, Windows",
		Targets: []Target{
			{ID: "projects", Root: RootHome, Glob: "{.claude,.claude-*}/projects/**/*.jsonl", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "project-files", Root: RootHome, Glob: "{.claude,.claude-*}/projects/**/*.{json,txt}", Kind: KindOther},
			{ID: "history", Root: RootHome, Glob: "{.claude,.claude-*}/history.jsonl", Kind: KindHistory},
			{ID: "paste-cache", Root: RootHome, Glob: "{.claude,.claude-*}/paste-cache/*.txt", Kind: KindHistory},
			{ID: "sessions", Root: RootHome, Glob: "{.claude,.claude-*}/sessions/*.json", Kind: KindOther},
			{ID: "session-keys", Root: RootHome, Glob: "{.claude,.claude-*}/sessions/*.key", Kind: KindSecret},
			{ID: "settings", Root: RootHome, Glob: "{.claude,.claude-*}/settings{,.local}.json", Kind: KindSettings},
			{ID: "claude-json", Root: RootHome, Glob: "{.claude.json,.claude.json.backup,{.claude,.claude-*}/.claude.json}", Kind: KindSettings, Projects: ProjectsJSONKeys},
			{ID: "credentials", Root: RootHome, Glob: "{.claude,.claude-*}/.credentials.json", Kind: KindSecret},
			{ID: "todos", Root: RootHome, Glob: "{.claude,.claude-*}/todos/*.json", Kind: KindOther},
			{ID: "file-history", Root: RootHome, Glob: "{.claude,.claude-*}/file-history/**", Kind: KindOther},
			{ID: "config", Root: RootHome, Glob: "{.claude,.claude-*}/{agents,commands,skills,plans,plugins,shell-snapshots,session-env}/**", Kind: KindOther, Exclude: []string{"repos", "marketplaces"}},
			{ID: "instructions", Root: RootHome, Glob: "{.claude,.claude-*}/CLAUDE.md", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "CLAUDE.md", Kind: KindSettings},
			{Glob: "CLAUDE.local.md", Kind: KindSettings},
			{Glob: ".mcp.json", Kind: KindSettings},
			{Glob: ".claude/**", Kind: KindSettings},
		},
	},
	{
		Name: "codex-cli", Display: "OpenAI Codex CLI", Status: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Codex CLI run here against a loopback model (fixtures/roots/real-agents); seed: 0.162.x on Windows, macOS, Ubuntu",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: "{.codex,.codex-*}/{sessions,archived_sessions}/**/rollout-*.{jsonl,jsonl.zst,json}", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "history", Root: RootHome, Glob: "{.codex,.codex-*}/history.jsonl", Kind: KindHistory},
			{ID: "state-db", Root: RootHome, Glob: "{.codex,.codex-*}/{*.sqlite,sqlite/*.db,db-backups/*/*.sqlite}", Kind: KindSQLite},
			{ID: "config", Root: RootHome, Glob: "{.codex,.codex-*}/{config.toml,rules/*.rules,.codex-global-state.json,automations/*/automation.toml}", Kind: KindSettings},
			{ID: "auth", Root: RootHome, Glob: "{.codex,.codex-*}/auth.json", Kind: KindSecret},
			{ID: "logs", Root: RootHome, Glob: "{.codex,.codex-*}/log/**", Kind: KindLog},
			{ID: "memories", Root: RootHome, Glob: "{.codex,.codex-*}/memories/**", Kind: KindOther},
			{ID: "instructions", Root: RootHome, Glob: "{.codex,.codex-*}/{AGENTS.md,AGENTS.override.md,prompts/*.md,skills/**}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "AGENTS.md", Kind: KindSettings},
			{Glob: "AGENTS.override.md", Kind: KindSettings},
			{Glob: ".codex/**", Kind: KindSettings},
		},
	},
	{
		Name: "gemini-cli", Display: "Gemini CLI", Status: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Gemini CLI run here against a loopback model (fixtures/roots/real-agents); source at fb972b2",
		Targets: []Target{
			{ID: "chats", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/chats/**/*.{json,jsonl}", Kind: KindTranscript},
			{ID: "logs", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/logs.json", Kind: KindHistory},
			{ID: "project-root", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/.project_root", Kind: KindOther, Projects: ProjectsFileContent},
			{ID: "tmp-history", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/{shell_history,checkpoint-*.json,bug-report-history-*.json}", Kind: KindHistory},
			{ID: "tool-outputs", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/tool-outputs/**", Kind: KindOther},
			{ID: "projects", Root: RootHome, Glob: ".gemini/projects.json", Kind: KindSettings, Projects: ProjectsJSONKeys},
			{ID: "settings", Root: RootHome, Glob: ".gemini/{settings.json,trustedFolders.json,trusted_hooks.json,policies/*.toml,acknowledgments/*.json,GEMINI.md}", Kind: KindSettings},
			{ID: "credentials", Root: RootHome, Glob: ".gemini/{oauth_creds.json,google_accounts.json,mcp-oauth-tokens.json,.env}", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "GEMINI.md", Kind: KindSettings},
			{Glob: ".gemini/**", Kind: KindSettings},
		},
	},
}
