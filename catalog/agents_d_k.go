package catalog

// The agent tables repeat the same shapes by design: one literal per agent and target is the catalog's single source of truth, read by people and diffed per agent.

// agentsDToK: dify to kiro.
var agentsDToK = []Agent{
	{
		Name: "deepseek-harness", Display: "DeepSeek Harness (dsh)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "No source or npm release found (npm view deepseek-harness: 404): the event-log format from kenn-io/agentsview internal/parser/deepseek_harness*.go and its tests at 5386007; synthetic fixture built from its test fixtures",
		Notes: "one event log per session, plain or zstd; DSH_HOME moves ~/.dsh and DEEPSEEK_HARNESS_SESSIONS_DIR the sessions (not followed here)",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".dsh/sessions/*/*/session.jsonl{,.zstd}", Kind: KindTranscript},
		},
	},
	{
		Name: "deepseek-tui", Display: "DeepSeek TUI (CodeWhale)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at Hmbown/CodeWhale 75dca2cfb (session_manager.rs SavedSession, request.rs ContentBlock, approval_log.rs), agentsview 5386007; synthetic fixture built from the source (npm deepseek-tui 0.8.47 is a deprecation notice, its binary is on GitHub releases, not reachable here)",
		Notes: "~/.codewhale/sessions, and the legacy ~/.deepseek/sessions, on every OS; DEEPSEEK_TUI_SESSIONS_DIR moves them (not followed here); offline_queue.json (unsent queued prompts) is not collected yet",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".{codewhale,deepseek}/sessions/*-*-*-*-*.json", Kind: KindTranscript},
			{ID: "approvals", Root: RootHome, Glob: ".{codewhale,deepseek}/sessions/*/approval_receipts.jsonl", Kind: KindTranscript},
		},
	},
	{
		Name: "devin", Display: "Devin (Cognition; the local CLI)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source, not on npm (devin, @devin-ai/cli: 404): the cli/sessions.db and cli/transcripts layout kenn-io/agentsview 5386007 reads (internal/parser/devin.go, devin_test.go, types.go); synthetic fixtures built from it (a transcript cut mid-step among them)",
		Notes: "issue 28 (cass users ask for it: coding_agent_session_search #328, #385, #423, #449); DEVIN_DIR moves the store (not followed here); the Windows folder %APPDATA%\\devin is named by docs.devin.ai (the CLI's config.json there) and agent-nexus v0.1.12 (%APPDATA%\\devin\\cli\\sessions.db); the cloud sessions (app.devin.ai) live behind the REST API only: no export file or folder exists to collect (cass #449 declined them for that reason)",
		Targets: []Target{
			{ID: "sessions-db", Root: RootHome, Glob: "{.local/share,Library/Application Support,AppData/Roaming}/devin/cli/sessions.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "transcripts", Root: RootHome, Glob: "{.local/share,Library/Application Support,AppData/Roaming}/devin/cli/transcripts/*.json", Kind: KindTranscript},
		},
	},
	{
		Name: "dify", Display: "Dify (difyctl, agent sandbox)", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source: langgenius/dify dify-agent-runtime, the Go shellctl (internal/server/db.go at 4a3ce25, runtime.go at 4764060, service.go at 0ed63d2; the volumes from docker/docker-compose.yaml at 519ef8b), read through the code index; synthetic fixture",
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
		Name: "flowise", Display: "Flowise", Status: StatusParsed, SeedStatus: StatusBacklog,
		Relocations: []Relocation{
			{Var: "LOG_PATH", Folder: ".npm-global/lib/node_modules/flowise/logs", Source: "FlowiseAI/Flowise@ababf4c packages/server/src/utils/config.ts (logging.dir is $LOG_PATH, default the install's node_modules/flowise/logs)"},
		},
		Evidence: EvidenceSource, EvidenceNote: "Source at ababf4c (FlowiseAI/Flowise, the SQLite migrations and entities), synthetic fixture built from those migrations",
		Notes: "issue 68; encryption.key and the other key files in ~/.flowise are not collected, and the credential table of database.sqlite is never read: they decrypt the stored credentials; the server logs are collected, not parsed; DATABASE_PATH and BLOB_STORAGE_PATH, which move ~/.flowise, are too generic a name to follow from a profile",
		Targets: []Target{
			{ID: "database", Root: RootHome, Glob: ".flowise/database.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "storage", Root: RootHome, Glob: ".flowise/{storage,uploads}/**", Kind: KindOther, MaxSize: outputsMax, Exclude: []string{"vectorstore", "faiss*", "chroma*"}},
			{ID: "logs", Root: RootHome, Glob: "{.npm-global/lib,.nvm/versions/node/*/lib,.npm/_npx/*,AppData/Roaming/npm,.local/share/pnpm/global/*,.volta/tools/image/packages/flowise/lib,.local/share/fnm/node-versions/*/installation/lib}/node_modules/flowise/logs/**", Kind: KindLog, MaxSize: logMax},
		},
	},
	{
		Name: "forge", Display: "Forge (forgecode)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at antinomyhq/forge 54cecac (conversation record types, schema, base path), agentsview 5386007; synthetic fixture built from the record types (the npm packages fetch a binary from GitHub releases)",
		Notes: "base path ~/.forge, or the legacy ~/forge when it exists, or $FORGE_CONFIG (not followed here); messages carry no time of their own",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: "{.forge,forge}/.forge.db", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "gemini-apps", Display: "Gemini Apps (gemini.google.com; a Takeout export in the home)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Cloud only: kenn-io/agentsview 5386007 types.go declares no directory for it and reads only a Google Takeout export (gemini_apps_takeout.go); the My Activity JSON shape as Takeout exports it; synthetic fixture (no Google account here)",
		Notes: "the conversations live in the Google account; a home holds only a downloaded, unpacked Takeout (My Activity/Gemini Apps, or Bard in older exports) under Downloads, Desktop or Documents; its MyActivity.json is parsed, the HTML form collected only; the browser's own data is the browser's",
		Targets: []Target{
			{ID: "takeout", Root: RootHome, Glob: "{Downloads,Desktop,Documents}/{Takeout,takeout-*/Takeout}/My Activity/{Gemini Apps,Bard}/MyActivity.{json,html}", Kind: KindTranscript},
		},
	},
	{
		Name: "gemini-cli", Display: "Gemini CLI", Status: StatusParsed, SeedStatus: StatusParsed,
		Relocations: []Relocation{{Var: "GEMINI_CLI_HOME", Folder: ".gemini", Sub: ".gemini", Source: "google-gemini/gemini-cli packages/core/src/utils/paths.ts homedir() (GEMINI_CLI_HOME replaces the home; state in $GEMINI_CLI_HOME/.gemini)"}},
		Evidence:    EvidenceRealInstall, EvidenceNote: "Gemini CLI 0.61.0 run here against a loopback model (fixtures/roots/real-agents); /rewind, policies/*.toml, trusted_hooks.json, acknowledgments/agents.json and /bug exports from source at 5411f11 (0.56.0-nightly), synthetic fixture",
		Notes: "tool-outputs/ and GEMINI.md are collected, not parsed",
		Targets: []Target{
			{ID: "chats", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/chats/**/*.{json,jsonl}", Kind: KindTranscript},
			{ID: "logs", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/logs.json", Kind: KindHistory},
			{ID: "project-root", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/{tmp,history}/*/.project_root", Kind: KindOther, Projects: ProjectsFileContent},
			{ID: "tmp-history", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/{shell_history,checkpoint-*.json,bug-report-history-*.json}", Kind: KindHistory},
			{ID: "restore-checkpoints", Root: RootHome, Glob: "{.gemini,.cache/.gemini}/tmp/*/checkpoints/*.json", Kind: KindHistory},
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
		Relocations: []Relocation{
			{Var: "GOOSE_PATH_ROOT", Folder: ".config/goose", Sub: "config", Source: "block/goose@0780e22 crates/goose/src/config/paths.rs (GOOSE_PATH_ROOT/{config,data,state})"},
			{Var: "GOOSE_PATH_ROOT", Folder: ".local/share/goose", Sub: "data", Source: "block/goose@0780e22 crates/goose/src/config/paths.rs"},
			{Var: "GOOSE_PATH_ROOT", Folder: ".local/state/goose", Sub: "state", Source: "block/goose@0780e22 crates/goose/src/config/paths.rs"},
		},
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
		Name: "gptme", Display: "gptme", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at gptme/gptme d27f98d (message.py, dirs.py, tools/base.py), agentsview 5386007; synthetic fixture built from the source (a PyPI package, not run here)",
		Notes: "times are the host's local time with no zone (datetime.now().isoformat()); $GPTME_LOGS_HOME or $XDG_DATA_HOME move the logs (not followed here)",
		Targets: []Target{
			{ID: "logs", OS: linuxOS, Root: RootXDGData, Glob: "gptme/logs/*/conversation.jsonl", Kind: KindTranscript},
			{ID: "logs-macos", OS: darwinOS, Root: RootAppSupport, Glob: "gptme/logs/*/conversation.jsonl", Kind: KindTranscript},
			{ID: "logs-windows", OS: windowsOS, Root: RootLocalAppData, Glob: "gptme/gptme/logs/*/conversation.jsonl", Kind: KindTranscript},
		},
	},
	{
		Name: "grok", Display: "Grok (Grok Build CLI; @vibe-kit/grok-cli)", Status: StatusParsed, SeedStatus: StatusParsed,
		Relocations: []Relocation{{Var: "GROK_HOME", Folder: ".grok", Source: "xai-org/grok-build@19d42e3 crates/codegen/xai-grok-pager/docs/user-guide/17-sessions.md (GROK_HOME overrides ~/.grok)"}},
		Evidence:    EvidenceSource, EvidenceNote: "Grok Build source at 19d42e3 (session layout; the updates.jsonl envelope, rewind markers and replay rules, rewind points, feedback and plan from xai-grok-shell session/storage, persistence.rs and xai-grok-workspace file_state.rs) and the rows agentsview generated through its types (kenn-io/agentsview@538600744 internal/parser/testdata/grok-build); npm @vibe-kit/grok-cli 0.0.34 read: it keeps no session files, only ~/.grok/user-settings.json; synthetic fixture",
		Notes: "issue 28; updates.jsonl (per-turn usage and cost, the times of chat_history.jsonl's rows, the turns a /rewind cut off), signals.json, prompt_context.json (headless run), rewind_points.jsonl, feedback.jsonl, plan.json, btw_history.jsonl (/btw side questions) and subagents/<id>/meta.json and output.json (the child session's link to its parent, the task and the output) are parsed; the plan-mode state is collected, not parsed yet; compaction_checkpoints/ is not collected",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".grok/sessions/*/*/chat_history.jsonl", Kind: KindTranscript},
			{ID: "session-summary", Root: RootHome, Glob: ".grok/sessions/*/*/summary.json", Kind: KindOther},
			{ID: "session-files", Root: RootHome, Glob: ".grok/sessions/*/*/*.{jsonl,json}", Kind: KindOther},
			{ID: "subagents", Root: RootHome, Glob: ".grok/sessions/*/*/subagents/*/{meta,output}.json", Kind: KindOther},
			{ID: "instructions", Root: RootHome, Glob: ".grok/GROK.md", Kind: KindSettings},
			{ID: "user-settings", Root: RootHome, Glob: ".grok/user-settings.json", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".grok/{settings.json,GROK.md}", Kind: KindSettings},
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
		Name: "icodemate", Display: "IcodeMate", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "No public source or npm package (npm view icodemate: 404): layout from kenn-io/agentsview 5386007 icodemate.go and discovery.go icodemateFmt (OpenCode's store, sessions under storage/session_diff); synthetic fixture",
		Notes: "issue 28; read by the opencode package (icodemate/db, icodemate/storage, icodemate/export): an OpenCode fork",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: ".local/share/icodemate/icodemate*.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "storage", Root: RootHome, Glob: ".local/share/icodemate/storage/**/*.json", Kind: KindTranscript, Projects: ProjectsJSONPaths},
		},
	},
	{
		Name: "iflow", Display: "iFlow CLI", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceBundle, EvidenceNote: "iFlow CLI's bundle as kept in The-Sunder-islands/iflow-cli-ce at be76597 (transcript writer) and kenn-io/agentsview at 5386007 (iflow parser and test file); synthetic fixture (npm @iflow-ai/iflow-cli is no longer served; not run here)",
		Notes: "issue 28; a Gemini CLI fork writing Claude Code-style transcripts; IFLOW_HOME moves ~/.iflow elsewhere (not followed); tmp/ (checkpoints, shell history) is not collected yet; settings.json holds the API key (secret kind: only its hooks and MCP server names reach the control surface)",
		Targets: []Target{
			{ID: "projects", Root: RootHome, Glob: ".iflow/projects/*/*.jsonl", Kind: KindTranscript},
			{ID: "config", Root: RootHome, Glob: ".iflow/{settings.json,oauth_creds.json,iflow_accounts.json,.env}", Kind: KindSecret},
			{ID: "customizations", Root: RootHome, Glob: ".iflow/{IFLOW.md,commands/**,agents/**,skills/**,extensions/**,hooks/**}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "IFLOW.md", Kind: KindSettings},
			{Glob: ".iflow/**", Kind: KindSettings},
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
		Name: "kimi-cli", Display: "Kimi CLI (Moonshot AI)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source MoonshotAI/kimi-cli at 4a550ef (2026-07-16), synthetic fixture (the CLI is on PyPI, not reachable here); no real install",
		Notes: "issue 28; KIMI_SHARE_DIR moves ~/.kimi elsewhere (not followed); context*.jsonl (the model's context, which wire.jsonl repeats) is collected, not parsed yet",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".kimi/sessions/*/*/{wire.jsonl,subagents/*/wire.jsonl}", Kind: KindTranscript},
			{ID: "context", Root: RootHome, Glob: ".kimi/sessions/*/*/{context*.jsonl,subagents/*/context*.jsonl}", Kind: KindTranscript},
			{ID: "session-state", Root: RootHome, Glob: ".kimi/sessions/*/*/state.json", Kind: KindOther},
			{ID: "subagent-meta", Root: RootHome, Glob: ".kimi/sessions/*/*/subagents/*/{meta.json,prompt.txt,output}", Kind: KindOther},
			{ID: "work-dirs", Root: RootHome, Glob: ".kimi/kimi.json", Kind: KindOther},
			{ID: "user-history", Root: RootHome, Glob: ".kimi/user-history/*.jsonl", Kind: KindHistory},
			{ID: "logs", Root: RootHome, Glob: ".kimi/logs/*.log*", Kind: KindLog, MaxSize: logMax},
			{ID: "config", Root: RootHome, Glob: ".kimi/{config.toml,config.json,mcp.json,credentials/**,mcp-oauth/**,device_id}", Kind: KindSecret},
			{ID: "customizations", Root: RootHome, Glob: ".kimi/{skills/**,plans/**,plugins/**,AGENTS.md}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".kimi/**", Kind: KindSettings},
		},
	},
	{
		Name: "kimi-work", Display: "Kimi Work (kimi-desktop)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "kenn-io/agentsview at 5386007 (kimi_work_provider.go: the daimon runtime's kimi-code sessions, conv-* conversations, agents/<agent>/wire.jsonl) and the wire format of MoonshotAI/kimi-cli at 4a550ef; synthetic fixture (a desktop app, not on a registry; not run)",
		Notes: "issue 28; the runtime's own sessions (ctitle-* title generation, sklsum-* skill summaries, dvlt-* dev-loop tasks) are collected as aux-sessions, not parsed",
		Targets: []Target{
			{ID: "sessions", OS: AllOS, Root: RootAppConfig, Glob: "kimi-desktop/daimon-share/daimon/runtime/kimi-code/home/sessions/*/conv-*/{wire.jsonl,agents/*/wire.jsonl}", Kind: KindTranscript},
			{ID: "sessions-xdg-data", OS: []OS{Linux}, Root: RootUserData, Glob: "kimi-desktop/daimon-share/daimon/runtime/kimi-code/home/sessions/*/conv-*/{wire.jsonl,agents/*/wire.jsonl}", Kind: KindTranscript},
			{ID: "aux-sessions", OS: AllOS, Root: RootAppConfig, Glob: "kimi-desktop/daimon-share/daimon/runtime/kimi-code/home/sessions/*/{ctitle-*,sklsum-*,dvlt-*}/**/wire.jsonl", Kind: KindOther},
		},
	},
	{
		Name: "kiro", Display: "Kiro (IDE and CLI, formerly Amazon Q Developer CLI)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 15cc8f3 (conversations_v2: migration 008 at 33494e8, and kenn-io/agentsview 5386007), synthetic fixture; .kiro/sessions/cli and the IDE's kiro.kiroagent from agentsview 5386007 (kiro.go, kiro_ide.go) and third-party readers (closed source, synthetic fixtures); denial rows, standing grants, prompt history, history copies and delegate records from the same commit and kkawakam/rustyline at bc06b3e (v15.0.0)",
		Notes: "issue 212, issue 28; the IDE's .kiro/sessions/<workspace>/<session>/session.json and messages.jsonl are read from the shapes a third-party reader of Kiro IDE 1.0.242 describes (its snapshots/ are collected, not read); Kiro CLI's permission files wait for a real install; the CLI store's <id>.lock and sess_<id>.history are named by cass 28b3191; /save exports land wherever the user names",
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
