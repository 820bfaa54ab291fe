package catalog

// The agent tables repeat the same shapes by design: one literal per agent and target is the catalog's single source of truth, read by people and diffed per agent.

// agentsDToK: dify to kiro.
var agentsDToK = []Agent{
	{
		Name: "dify", Display: "Dify (difyctl, agent sandbox)", Status: StatusBacklog, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source",
		Notes: "issue 142; the sandbox volume's shellctl.db and job logs hold the shell jobs the agent ran; chats are in PostgreSQL",
		Targets: []Target{
			{ID: "cli-config", Root: RootHome, Glob: "{.config,AppData/Roaming,AppData/Local}/difyctl/config.yml", Kind: KindSettings},
			{ID: "cli-tokens", Root: RootHome, Glob: "{.config,AppData/Roaming,AppData/Local}/difyctl/{login,tokens,login-pending}.yml", Kind: KindSecret},
		},
		Volumes: []string{"*dify_agent_local_sandbox_home", "*dify_agent_local_sandbox_workspace"},
	},
	{
		Name: "factory-droid", Display: "Factory Droid", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceRealInstall, EvidenceNote: "Real install of droid 0.225.2 (@factory/cli-linux-x64) run against a loopback mock in BYOK mode (fixtures/roots/real-agents-5, December 2026); the prompt history from the shipped binary's code, synthetic fixture",
		Notes: "issue 14; .factory/bin (the ripgrep binary droid downloads) and .factory/certs (a cache of the system CA bundle) are not collected: tools and caches, no evidence",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".factory/sessions/*/*.jsonl", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "session-settings", Root: RootHome, Glob: ".factory/sessions/*/*.settings.json{,.bak}", Kind: KindOther},
			{ID: "session-index", Root: RootHome, Glob: ".factory/cache/session-index/index.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "session-discovery", Root: RootHome, Glob: ".factory/cache/session-discovery-index.json", Kind: KindOther},
			{ID: "history", Root: RootHome, Glob: ".factory/state/history.json", Kind: KindHistory},
			{ID: "state", Root: RootHome, Glob: ".factory/state/**", Kind: KindOther},
			{ID: "droids", Root: RootHome, Glob: ".factory/droids/**", Kind: KindSettings},
			{ID: "missions", Root: RootHome, Glob: ".factory/missions/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "logs", Root: RootHome, Glob: ".factory/logs/**", Kind: KindLog, MaxSize: logMax},
			{ID: "settings", Root: RootHome, Glob: ".factory/{settings.json,config.json}", Kind: KindSecret},
			{ID: "config", Root: RootHome, Glob: ".factory/{mcp.json,hooks.json,settings.local.json,commands/**,skills/**,hooks/**}", Kind: KindSettings},
			{ID: "other", Root: RootHome, Glob: ".factory/**", Kind: KindOther, MaxSize: outputsMax, Exclude: []string{"bin", "certs"}},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".factory/**", Kind: KindSettings},
		},
	},
	{
		Name: "flowise", Display: "Flowise", Status: StatusBacklog, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source",
		Notes: "issue 68; database.sqlite with chat_message (tool use and agent reasoning) and execution",
		Targets: []Target{
			{ID: "database", Root: RootHome, Glob: ".flowise/database.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "secrets", Root: RootHome, Glob: ".flowise/{encryption.key,*secret*,*.key}", Kind: KindSecret},
			{ID: "storage", Root: RootHome, Glob: ".flowise/{storage,uploads}/**", Kind: KindOther, MaxSize: outputsMax, Exclude: []string{"vectorstore", "faiss*", "chroma*"}},
			{ID: "logs", Root: RootHome, Glob: ".flowise/logs/**", Kind: KindLog, MaxSize: logMax},
		},
	},
	{
		Name: "gemini-cli", Display: "Gemini CLI", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Gemini CLI 0.61.0 run here against a loopback model (fixtures/roots/real-agents); /rewind, policies/*.toml, trusted_hooks.json, acknowledgments/agents.json and /bug exports from source at 5411f11 (0.56.0-nightly), synthetic fixture",
		Notes: "tool-outputs/ and GEMINI.md are collected, not parsed",
		Targets: []Target{
			{ID: "chats", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/chats/**/*.{json,jsonl}", Kind: KindTranscript},
			{ID: "logs", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/logs.json", Kind: KindHistory},
			{ID: "project-root", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/{tmp,history}/*/.project_root", Kind: KindOther, Projects: ProjectsFileContent},
			{ID: "tmp-history", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/{shell_history,checkpoint-*.json,bug-report-history-*.json}", Kind: KindHistory},
			{ID: "tool-outputs", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/tool-outputs/**", Kind: KindOther},
			{ID: "projects", Root: RootHome, Glob: ".gemini/projects.json", Kind: KindSettings, Projects: ProjectsJSONKeys},
			{ID: "settings", Root: RootHome, Glob: ".gemini/{settings.json,trustedFolders.json,trusted_hooks.json,policies/*.toml,acknowledgments/*.json,GEMINI.md}", Kind: KindSettings},
			{ID: "customizations", Root: RootHome, Glob: ".gemini/{commands/**,extensions/**,agents/**,skills/**,hooks/**,settings.json.{bak,backup,old,orig}{,.*}}", Kind: KindSettings},
			{ID: "credentials", Root: RootHome, Glob: ".gemini/{oauth_creds.json,google_accounts.json,mcp-oauth-tokens.json,.env}", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "GEMINI.md", Kind: KindSettings},
			{Glob: ".gemini/**", Kind: KindSettings},
		},
	},
	{
		Name: "goose", Display: "Goose (Block)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 591edd4, synthetic fixture; tool confirmation, permission.yaml, roaming_trust.json, schedule.json and request logs from source at fb9e3c8",
		Targets: []Target{
			{ID: "sessions-db", Root: RootHome, Glob: "{.local/share/goose,AppData/Roaming/Block/goose/data}/sessions/sessions.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "sessions", Root: RootHome, Glob: "{.local/share/goose,AppData/Roaming/Block/goose/data}/sessions/*.jsonl", Kind: KindTranscript, Projects: ProjectsJSONPaths},
			{ID: "llm-requests", Root: RootHome, Glob: "{.local/state/goose,AppData/Roaming/Block/goose/data}/logs/llm_request.*.jsonl", Kind: KindLog, MaxSize: logMax},
			{ID: "logs", Root: RootHome, Glob: "{.local/state/goose,AppData/Roaming/Block/goose/data}/logs/**", Kind: KindLog, MaxSize: logMax},
			{ID: "history", Root: RootHome, Glob: "{.config/goose,AppData/Roaming/Block/goose/config}/history.txt", Kind: KindHistory},
			{ID: "settings", Root: RootHome, Glob: "{.config/goose,AppData/Roaming/Block/goose/config}/{permission.yaml,roaming_trust.json,config.yaml}", Kind: KindSettings},
			{ID: "secrets", Root: RootHome, Glob: "{.config/goose,AppData/Roaming/Block/goose/config}/secrets.yaml", Kind: KindSecret},
			{ID: "schedule", Root: RootHome, Glob: "{.local/share/goose,AppData/Roaming/Block/goose/data}/schedule.json", Kind: KindOther},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".goosehints", Kind: KindSettings},
		},
	},
	{
		Name: "hermes", Display: "Hermes Agent (Nous Research)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 00704d0 (hermes_state_common.py, schema 30) read through the code index; synthetic fixture, no real install",
		Notes: "issue 208; the nested config.yaml approvals settings, response_store.db and the trajectory files are not parsed",
		Targets: []Target{
			{ID: "state-db", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}{state.db,state-snapshots/*/state.db,response_store.db}", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "sessions", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}sessions/*.jsonl", Kind: KindTranscript},
			{ID: "prompt-history", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}.hermes_history", Kind: KindHistory},
			{ID: "cron-output", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}cron/output/**/*.md", Kind: KindOther, MaxSize: outputsMax},
			{ID: "pastes", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}pastes/pending.json", Kind: KindOther},
			{ID: "approvals", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}{config.yaml,pairing/*-approved.json,platforms/pairing/*-approved.json}", Kind: KindSettings},
			{ID: "env", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}{.env,auth.json}", Kind: KindSecret},
			{ID: "logs", Root: RootHome, Glob: "{.hermes*,AppData/Local/hermes*}/{,profiles/*/}logs/*.log", Kind: KindLog, MaxSize: logMax},
			{ID: "desktop-connections", OS: AllOS, Root: RootAppConfig, Glob: "Hermes*/connections.json", Kind: KindSecret},
		},
		Volumes: []string{"*hermes*"},
		ProjectFiles: []ProjectFile{
			{Glob: "{trajectory_samples,failed_trajectories}.jsonl", Kind: KindTranscript},
		},
	},
	{
		Name: "kilo-code", Display: "Kilo Code (CLI and VS Code extension)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 76bcfd4, synthetic fixture; permission, past-use, remote control, scratch directory and retention rows from source at 87cc35c; no real install",
		Notes: "issue 192; issue 221; the session pull request links are not parsed yet",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: ".local/share/kilo/{kilo*.db,opencode-*.db}", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "storage", Root: RootHome, Glob: ".local/share/kilo/{storage,project}/**/*.json", Kind: KindTranscript, Projects: ProjectsJSONPaths},
			{ID: "auth", Root: RootHome, Glob: ".local/share/kilo/{auth,mcp-auth}.json", Kind: KindSecret},
			{ID: "retention", Root: RootHome, Glob: ".local/share/kilo/retention/state.json", Kind: KindOther},
			{ID: "logs", Root: RootHome, Glob: ".local/share/kilo/log/*.log", Kind: KindLog, MaxSize: logMax},
			{ID: "prompt-history", Root: RootHome, Glob: ".local/state/kilo/{prompt-history.jsonl,prompt-stash.jsonl,session.json}", Kind: KindHistory},
			{ID: "sandbox", Root: RootHome, Glob: ".local/state/{kilo-sandbox-policy,kilo-sandbox-preference}{,/**}", Kind: KindSettings},
			{ID: "config", Root: RootHome, Glob: ".config/kilo/*.{json,jsonc}", Kind: KindSettings},
			{ID: "extension-tasks", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/kilocode.kilo-code/tasks/*/*.json", Kind: KindTranscript},
			{ID: "extension-settings", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/kilocode.kilo-code/settings/*", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".kilocode/**", Kind: KindSettings},
			{Glob: ".kilo/**", Kind: KindSettings},
			{Glob: ".kilocodemodes", Kind: KindSettings},
		},
	},
	{
		Name: "kiro", Display: "Kiro (IDE and CLI, formerly Amazon Q Developer CLI)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 15cc8f3, synthetic fixture; denial rows, standing grants, prompt history, history copies and delegate records from the same commit and kkawakam/rustyline at bc06b3e (v15.0.0)",
		Notes: "issue 212; Kiro CLI's own sessions and permission files wait for a real install; /save exports land wherever the user names",
		Targets: []Target{
			{ID: "cli-db", OS: AllOS, Root: RootUserData, Glob: "{amazon-q,kiro-cli}/data.sqlite3", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "prompt-history", Root: RootHome, Glob: ".aws/amazonq/.cli_bash_history", Kind: KindHistory},
			{ID: "cli-agents", Root: RootHome, Glob: ".aws/amazonq/{cli-agents/*.json,mcp.json,profiles/**}", Kind: KindSettings},
			{ID: "sso-token", Root: RootHome, Glob: ".aws/sso/cache/kiro-auth-token.json", Kind: KindSecret},
			{ID: "kiro-sessions", Root: RootHome, Glob: ".kiro/sessions/**", Kind: KindTranscript},
			{ID: "kiro-config", Root: RootHome, Glob: ".kiro/{settings,steering,agents,hooks}/**", Kind: KindSettings},
			{ID: "ide-agent", OS: AllOS, Root: RootAppConfig, Glob: "Kiro/User/globalStorage/kiro.kiroagent/**", Kind: KindTranscript, MaxSize: outputsMax, Exclude: []string{"index"}},
			{ID: "ide-state", OS: AllOS, Root: RootAppConfig, Glob: "Kiro/User/{globalStorage,workspaceStorage/*}/state.vscdb", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "ide-workspace-json", OS: AllOS, Root: RootAppConfig, Glob: "Kiro/User/workspaceStorage/*/workspace.json", Kind: KindOther, Projects: ProjectsWorkspaceJSON},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".amazonq/**", Kind: KindSettings},
			{Glob: ".kiro/**", Kind: KindSettings},
		},
	},
}
