package catalog

// The agent tables repeat the same shapes by design: one literal per agent and target is the catalog's single source of truth, read by people and diffed per agent.

// agentsPToZ: pearai to zed.
var agentsPToZ = []Agent{
	{
		Name: "pearai", Display: "PearAI", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 51eceef6 and 0b6df736, synthetic fixture; permission texts, task list, standing settings and chat use logs from the same commits and d930f023 (the editor)",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".pearai/sessions/*.json", Kind: KindTranscript, Projects: ProjectsJSONPaths},
			{ID: "dev-data", Root: RootHome, Glob: ".pearai/dev_data/*.jsonl", Kind: KindHistory},
			{ID: "config", Root: RootHome, Glob: ".pearai/{config.json,config.ts,.env}", Kind: KindSecret},
			{ID: "tasks", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/pearai.pearai-roo-cline/tasks/*/*.json", Kind: KindTranscript},
			{ID: "extension-settings", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/pearai.pearai-roo-cline/settings/*", Kind: KindSettings},
			{ID: "state-db", OS: AllOS, Root: RootAppConfig, Glob: "PearAI/User/{globalStorage,workspaceStorage/*}/state.vscdb", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "workspace-json", OS: AllOS, Root: RootAppConfig, Glob: "PearAI/User/workspaceStorage/*/workspace.json", Kind: KindOther, Projects: ProjectsWorkspaceJSON},
			{ID: "output-log", OS: AllOS, Root: RootAppConfig, Glob: forksBrace + "/logs/*/window*/exthost/output_logging_*/*-PearAI.log", Kind: KindLog, MaxSize: logMax},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".pearai/**", Kind: KindSettings},
			{Glob: ".pearairules", Kind: KindSettings},
		},
	},
	{
		Name: "pi", Display: "pi (coding agent)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 2003871, synthetic fixture; defaultProjectTrust, debug and crash logs and permission-gate rows from source at 5c1736f (coding-agent 1.3.0)",
		Notes: "little-coder's transcripts are pi sessions and are collected here",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".pi/agent/{sessions/**/*.jsonl,*.jsonl}", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "experimental-meta", Root: RootHome, Glob: ".pi/agent/experimental/sessions/*/meta.json", Kind: KindOther},
			{ID: "experimental-db", Root: RootHome, Glob: ".pi/agent/experimental/sessions/*/session.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "trust", Root: RootHome, Glob: ".pi/agent/trust.json", Kind: KindSettings, Projects: ProjectsJSONPaths},
			{ID: "settings", Root: RootHome, Glob: ".pi/agent/settings.json", Kind: KindSettings},
			{ID: "auth", Root: RootHome, Glob: ".pi/agent/{auth,models}.json", Kind: KindSecret},
			{ID: "debug", Root: RootHome, Glob: ".pi/agent/{pi-debug.log,crashes.json}", Kind: KindLog, MaxSize: logMax},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".pi/**", Kind: KindSettings},
		},
	},
	{
		Name: "piebald", Display: "Piebald (desktop agent app)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source, desktop only (npm piebald: 404): the app.db schema kenn-io/agentsview 5386007 reads (internal/parser/piebald.go, types.go, piebald_test.go) and the typed-parts schema of Piebald's own Piebald-AI/splitrail caa74804 (src/analyzers/piebald_schema_tests.rs: message_generations, message_kind, tool_execution_context); synthetic fixtures built from both",
		Notes: "issue 28; PIEBALD_DIR moves the store (not followed here); the data directory on each OS (splitrail 56e4be4: dirs::data_dir()/piebald, %APPDATA%\\piebald on Windows)",
		Targets: []Target{
			{ID: "app-db", Root: RootHome, Glob: "{.local/share,Library/Application Support,AppData/Roaming}/piebald/app.db", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "poolside", Display: "Poolside Agent CLI (pool)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source, not on npm (npm poolside is an unrelated automation tool): format from kenn-io/agentsview 5386007 poolside.go, poolside_provider.go and tests; synthetic fixture built from them",
		Notes: "issue 28; the state folder differs per OS (XDG state on Linux, Application Support on macOS, AppData/Roaming on Windows)",
		Targets: []Target{
			{ID: "trajectories", Root: RootHome, Glob: "{.local/state/poolside,Library/Application Support/poolside,AppData/Roaming/poolside}/trajectories/trajectory-*.ndjson", Kind: KindTranscript},
		},
	},
	{
		Name: "posit-assistant", Display: "Posit Assistant", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "posit-dev/assistant is not public and has no npm package: format from kenn-io/agentsview internal/parser/posit_assistant_provider.go and its testdata at 5386007 (ConversationManagerDisk's V3 conversation.json, Vercel AI SDK ModelMessages in lm-messages.jsonl); synthetic fixture built from it",
		Notes: "issue 28; ~/.posit/assistant/workspaces on every OS, distinct from the Positron IDE's built-in assistant (read as vscode); ui-messages.jsonl, a render log of the same messages, is collected, not parsed",
		Targets: []Target{
			{ID: "conversations", Root: RootHome, Glob: ".posit/assistant/workspaces/**/{conversation.json,lm-messages.jsonl,ui-messages.jsonl,index.json,workspace.json}", Kind: KindTranscript},
		},
	},
	{
		Name: "prime-agent", Display: "Prime Agent (Prime Intellect; a pi fork)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "No public source or npm release (npm view prime-agent: 404): the format from kenn-io/agentsview internal/parser/pi.go and prime_agent_provider_test.go at 5386007 (pi sessions plus child_usage_attributed); synthetic fixture built from it",
		Notes: "a pi fork: its sessions are pi sessions, read by the pi package; PRIME_AGENT_SESSION_DIR moves them (not followed here)",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".prime/agent/sessions/**/*.jsonl", Kind: KindTranscript},
		},
	},
	{
		Name: "pydantic-clai", Display: "Pydantic AI CLAI", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source (pydantic/pydantic-ai 4fda389, clai v1; pydantic/pydantic-ai-harness 131e227 step_persistence/conversations.py, CLAI 2.0's sessions.db writer), PyPI wheel, synthetic fixtures",
		Notes: "issue 66; CLAI 2.0 sessions.db conversations and the prompt histories; sessions.db may hold Claude Code and Codex sessions imported by /resume (stored as pydantic-ai messages, not marked); the clai v1 prompt history and sessions.db (with deleted conversations carved) are parsed; CLAI 2.0's other stores are collected",
		Targets: []Target{
			{ID: "prompt-history", Root: RootHome, Glob: ".pydantic-ai/prompt-history.txt", Kind: KindHistory},
			{ID: "sessions-db", OS: unixOS, Root: RootXDGConfig, Glob: "pydantic-clai2/{sessions,config}.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "input-history", OS: unixOS, Root: RootXDGConfig, Glob: "pydantic-clai2/input-history", Kind: KindHistory},
			{ID: "credentials", OS: unixOS, Root: RootXDGConfig, Glob: "pydantic-clai2/credentials-*", Kind: KindSecret},
			{ID: "mcp", OS: unixOS, Root: RootXDGConfig, Glob: "pydantic-clai2/mcp.json", Kind: KindSettings},
			{ID: "orchestrator", OS: unixOS, Root: RootXDGState, Glob: "pydantic-clai2/orchestrator.json", Kind: KindOther},
			{ID: "workspaces", OS: unixOS, Root: RootXDGState, Glob: "pydantic-clai2/**/workspace.json", Kind: KindOther, Projects: ProjectsJSONPaths, Exclude: []string{"repo", "repos", "clone", "clones", "checkout"}},
			{ID: "workspace-tokens", OS: unixOS, Root: RootXDGState, Glob: "pydantic-clai2/**/token", Kind: KindSecret, Exclude: []string{"repo", "repos", "clone", "clones", "checkout"}},
			{ID: "workspace-logs", OS: unixOS, Root: RootXDGState, Glob: "pydantic-clai2/**/session.log", Kind: KindLog, MaxSize: logMax, Exclude: []string{"repo", "repos", "clone", "clones", "checkout"}},
		},
	},
	{
		Name: "qoder", Display: "Qoder (CLI and IDE)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceBundle, EvidenceNote: "The shipped bundle of npm @qoder-ai/qodercli 1.1.52 (bundle/qodercli.js: projects/<cwd with non-alphanumerics as ->/<session>.jsonl, <session>/subagents/agent-<id>.jsonl and .meta.json) and kenn-io/agentsview at 5386007 (the IDE's SharedClientCache paths, <session>-session.json); synthetic fixture (the CLI answers 'Not logged in' without a Qoder account; not run)",
		Notes: "issue 28; the CLI writes Claude Code's transcript format; QODER_CONFIG_DIR moves ~/.qoder elsewhere (not followed); the session and subagent meta files are parsed (qoder/meta)",
		Targets: []Target{
			{ID: "projects", Root: RootHome, Glob: "{.qoder,.qoderwork}/projects/**/*.jsonl", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "ide-projects", OS: AllOS, Root: RootAppConfig, Glob: "Qoder/SharedClientCache/cli/projects/**/*.jsonl", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "session-meta", Root: RootHome, Glob: "{.qoder,.qoderwork}/projects/**/*{.meta,-session}.json", Kind: KindOther},
			{ID: "ide-session-meta", OS: AllOS, Root: RootAppConfig, Glob: "Qoder/SharedClientCache/cli/projects/**/*{.meta,-session}.json", Kind: KindOther},
			{ID: "config", Root: RootHome, Glob: "{.qoder/{settings.json,settings.local.json,mcp-oauth-tokens.json,.auth/**},.qoder.json,.qoder-cn.json}", Kind: KindSecret},
			{ID: "customizations", Root: RootHome, Glob: ".qoder/{agents/**,commands/**,skills/**,output-styles/**,rules/**,hooks/**,AGENTS.md}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".qoder/**", Kind: KindSettings},
		},
	},
	{
		Name: "qwen-code", Display: "Qwen Code", Status: StatusParsed, SeedStatus: StatusParsed,
		Relocations: []Relocation{{Var: "QWEN_HOME", Folder: ".qwen", Source: "QwenLM/qwen-code (QWEN_HOME names the folder ~/.qwen otherwise is; its channel-pairing tests and launcher docs)"}},
		Evidence:    EvidenceRealInstall, EvidenceNote: "Qwen Code 0.24.4 run here against a loopback model (fixtures/roots/real-agents-2); executionContext, session_approval_mode and ui_telemetry rows, settings.json and usage_record.jsonl from source at 5dcf7c7 (0.25.3); rewind, /branch and session_source rows from source at 015346f, synthetic fixture",
		Notes: "usage/token-usage-*.jsonl and QWEN.md are collected, not parsed",
		Targets: []Target{
			{ID: "chats", Root: RootHome, Glob: ".qwen/projects/*/{chats/**/*.jsonl,subagents/*/agent-*.jsonl}", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "token-usage", Root: RootHome, Glob: ".qwen/usage/token-usage-*.jsonl", Kind: KindHistory},
			{ID: "logs", Root: RootHome, Glob: ".qwen/tmp/*/logs.json", Kind: KindHistory},
			{ID: "legacy-chats", Root: RootHome, Glob: ".qwen/tmp/*/chats/*.json", Kind: KindTranscript},
			{ID: "trusted-folders", Root: RootHome, Glob: ".qwen/trustedFolders.json", Kind: KindSettings, Projects: ProjectsJSONPaths},
			{ID: "channels", Root: RootHome, Glob: ".qwen/channels/{sessions.json,daemon/*/routes.json}", Kind: KindOther},
			{ID: "settings", Root: RootHome, Glob: ".qwen/{settings.json,QWEN.md}", Kind: KindSettings},
			{ID: "customizations", Root: RootHome, Glob: ".qwen/{commands/**,extensions/**,agents/**,skills/**,hooks/**,settings.json.{bak,backup,old,orig}{,.*}}", Kind: KindSettings},
			{ID: "usage", Root: RootHome, Glob: ".qwen/usage_record.jsonl", Kind: KindHistory},
			{ID: "credentials", Root: RootHome, Glob: ".qwen/{oauth_creds.json,.env}", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "QWEN.md", Kind: KindSettings},
			{Glob: ".qwen/**", Kind: KindSettings},
		},
	},
	{
		Name: "qwenpaw", Display: "QwenPaw (CoPaw)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at agentscope-ai/QwenPaw dcbc894 (constant.py, runner/session.py, agent_context.py, runner/models.py), agentsview 5386007; synthetic fixture built from the source (a PyPI package needing a model provider, not run here)",
		Notes: "issue 28; ~/.copaw is the older working folder, used when it exists; QWENPAW_WORKING_DIR moves it (not followed here); jobs.json (cron jobs), config.json, HEARTBEAT.md and token_usage.json are collected, not parsed; the .secret folder is never collected",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: "{.qwenpaw,.copaw}/workspaces/*/sessions/**/*.json", Kind: KindTranscript},
			{ID: "chats", Root: RootHome, Glob: "{.qwenpaw,.copaw}/workspaces/*/chats.json", Kind: KindHistory},
			{ID: "dialog", Root: RootHome, Glob: "{.qwenpaw,.copaw}/workspaces/*/dialog/*.jsonl", Kind: KindTranscript},
			{ID: "config", Root: RootHome, Glob: "{.qwenpaw,.copaw}/{config.json,token_usage.json,workspaces/*/{jobs.json,agent.json,HEARTBEAT.md}}", Kind: KindSettings},
		},
	},
	{
		Name: "reasonix", Display: "Reasonix", Status: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "reasonix 1.38.11 (npm, binary of 11f9705) run here against a loopback model; the sessions-v4 frames it wrote are analyzer/parsers/reasonix/testdata/home; the older JSONL layout from agentsview 5386007, synthetic fixture",
		Notes: "issue 28; REASONIX_HOME moves ~/.reasonix (not followed here); the global .env holds provider keys and is never collected; stats/ and config.toml are collected, not parsed",
		Targets: []Target{
			{ID: "sessions-v4", Root: RootHome, Glob: "{.reasonix,AppData/Roaming/reasonix}/{projects/*/,}{sessions-v4,.content-v1}/**", Kind: KindTranscript},
			{ID: "sessions", Root: RootHome, Glob: "{.reasonix,AppData/Roaming/reasonix}/{sessions/**,projects/*/sessions/**,archive}/*.{jsonl,jsonl.meta}", Kind: KindTranscript},
			{ID: "stats", Root: RootHome, Glob: "{.reasonix,AppData/Roaming/reasonix}/stats/*.jsonl", Kind: KindLog, MaxSize: logMax},
			{ID: "config", Root: RootHome, Glob: "{.reasonix,AppData/Roaming/reasonix}/config.toml", Kind: KindSettings},
		},
	},
	{
		Name: "roo-code", Display: "Roo Code", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at b867ec91, synthetic fixture; Roo Code Cloud settings cache and retry queue from source at 44f6bba2 (3.53.0)",
		Notes: "the extension's global and workspace state rows of state.vscdb are collected with vscode (or the fork's own agent)",
		Targets: []Target{
			{ID: "tasks", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/rooveterinaryinc.roo-cline/tasks/{*/*.json,_index.json}", Kind: KindTranscript},
			{ID: "settings", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/rooveterinaryinc.roo-cline/settings/*", Kind: KindSettings},
			{ID: "cli-tasks", Root: RootHome, Glob: ".vscode-mock/global-storage/tasks/{*/*.json,_index.json}", Kind: KindTranscript},
			{ID: "cli-global-state", Root: RootHome, Glob: ".vscode-mock/global-storage/{global-state.json,settings/*}", Kind: KindSettings},
			{ID: "cli-workspace-state", Root: RootHome, Glob: ".vscode-mock/workspace-storage/*/workspace-state.json", Kind: KindOther},
			{ID: "cli-history", Root: RootHome, Glob: ".roo/cli-history.json", Kind: KindHistory},
			{ID: "cli-settings", Root: RootHome, Glob: ".roo/cli-settings.json", Kind: KindSettings},
			{ID: "customizations", Root: RootHome, Glob: ".roo/{rules/**,rules-*/**,commands/**,mcp.json}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".roo/**", Kind: KindSettings},
			{Glob: ".roomodes", Kind: KindSettings},
			{Glob: ".rooignore", Kind: KindSettings},
		},
	},
	{
		Name: "shared", Display: "Cross-agent instructions and skills", Status: StatusParsed, SeedStatus: StatusCollected,
		Evidence: EvidenceDocs, EvidenceNote: "Derived from the per-agent documents",
		Notes: "cross-agent instruction and skill directories with no transcripts; read into the control surface (shared/surface: AGENTS.md as rules, skills, agent definitions)",
		Targets: []Target{
			{ID: "agents-dir", Root: RootHome, Glob: ".agents/**", Kind: KindSettings},
			{ID: "config-agents", Root: RootHome, Glob: ".config/agents/**", Kind: KindSettings},
			{ID: "agents-md", Root: RootHome, Glob: ".config/AGENTS.md", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "AGENTS.md", Kind: KindSettings},
			{Glob: ".agents/**", Kind: KindSettings},
		},
	},
	{
		Name: "shelley", Display: "Shelley (exe.dev)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at boldsoftware/shelley a38c350 (db/schema 001-037, llm/llm.go, claudetool), agentsview 5386007; synthetic fixture built from the schema (a Go server, not on npm)",
		Notes: "issue 28; --db names the store (default shelley.db in the working directory, not found by the home walk); the models table holds API keys and is never read",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: ".config/shelley/shelley.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "config", Root: RootHome, Glob: ".config/shelley/{AGENTS.md,hooks/**}", Kind: KindSettings},
		},
	},
	{
		Name: "shellgpt", Display: "ShellGPT", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at a082bd5, synthetic fixture; settings, function store and response cache rows from the same source",
		Notes: "on Linux and macOS the chat cache is in /tmp, outside the home: give it as loose input",
		Targets: []Target{
			{ID: "chat-cache", OS: windowsOS, Root: RootLocalAppData, Glob: "Temp/{chat_cache,shell_gpt/chat_cache}/*", Kind: KindTranscript},
			{ID: "response-cache", OS: windowsOS, Root: RootLocalAppData, Glob: "Temp/shell_gpt/cache/*", Kind: KindHistory},
			{ID: "config", Root: RootHome, Glob: ".config/shell_gpt/.sgptrc", Kind: KindSecret},
			{ID: "functions", Root: RootHome, Glob: ".config/shell_gpt/{functions/*.py,roles/*.json}", Kind: KindSettings},
		},
	},
	{
		Name: "tabby", Display: "Tabby (TabbyML)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 21b2904, synthetic fixture; pages, source-host, model, command-history and volume rows from the same commit (2026-10-21), not observed on any real install",
		Notes: "the VS Code extension's command history is the TabbyML.vscode-tabby row of state.vscdb, collected as vscode",
		Targets: []Target{
			{ID: "server-db", Root: RootHome, Glob: ".tabby/ee/{db,dev-db,db.backup-*}.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "events", Root: RootHome, Glob: ".tabby/events/*.json", Kind: KindLog, MaxSize: logMax},
			{ID: "config", Root: RootHome, Glob: ".tabby/config.toml", Kind: KindSecret},
			{ID: "client-config", Root: RootHome, Glob: ".tabby-client/agent/config.toml", Kind: KindSecret},
			{ID: "jetbrains-history", OS: AllOS, Root: RootAppConfig, Glob: "JetBrains/*/options/intellij-tabby-command-history.xml", Kind: KindHistory},
		},
		Volumes: []string{"*tabby*"},
	},
	{
		Name: "trae", Display: "Trae (ByteDance IDE)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source, desktop only: format from kenn-io/agentsview internal/parser/trae_provider.go and trae_layout.go at 5386007; synthetic fixtures built from it",
		Notes: "the Trae, Trae CN and TRAE SOLO CN builds; state.vscdb's memento/icube-ai-agent-storage row is plain, the modern builds' ModularData/ai-agent/database.db is encrypted (one \"encrypted, not read\" row); TRAE_DIR moves it (not followed here)",
		Targets: []Target{
			{ID: "state", OS: AllOS, Root: RootAppConfig, Glob: "{Trae,Trae CN,TRAE SOLO CN}/User/{globalStorage,workspaceStorage/*}/state.vscdb", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "modular-data", OS: AllOS, Root: RootAppConfig, Glob: "{Trae,Trae CN,TRAE SOLO CN}/ModularData/ai-agent/database.db", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "traex", Display: "TraeX (TRAE CLI 2.0; a Codex fork)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source with no npm release (npm view traex: 404): paths and format from kenn-io/agentsview internal/parser/types.go, traex.go and traex_test.go at 5386007 (Codex rollouts byte for byte); synthetic fixture built from it",
		Notes: "a Codex fork: read by Codex's readers (parser/format/codexhome) under its own name; the Trae IDE is trae; the SQLite stores agentsview notes in ~/.trae/cli are collected, read where their names are Codex's; TRAEX_SESSIONS_DIR moves the sessions (not followed here)",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".trae/cli/{sessions,archived_sessions}/**/rollout-*.{jsonl,jsonl.zst,json}", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "state-db", Root: RootHome, Glob: ".trae/cli/*.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "twinny", Display: "twinny", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 9339bd10, synthetic fixture; tool step of 4.3.5 and later, standing grants, team policy, file changes, agent-changes records, log channel and review repository from source at 0337b265 (4.3.15)",
		Notes: "its conversations are the rjmacarthy.twinny row of state.vscdb, collected as vscode (or the fork's own agent)",
		Targets: []Target{
			{ID: "agent-changes", OS: AllOS, Root: RootVSCodeUser, Glob: "{workspaceStorage/*,globalStorage}/rjmacarthy.twinny/agent-changes/*.json", Kind: KindOther, Projects: ProjectsJSONPaths},
			{ID: "extension-storage", OS: AllOS, Root: RootVSCodeUser, Glob: "globalStorage/rjmacarthy.twinny/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "log", OS: AllOS, Root: RootAppConfig, Glob: forksBrace + "/logs/**/rjmacarthy.twinny/Twinny.log*", Kind: KindLog, MaxSize: logMax},
		},
	},
	{
		Name: "vibe", Display: "Mistral Vibe", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at mistralai/mistral-vibe ac8f1a0 (types.py LLMMessage and SessionMetadata, session_logger.py, paths), agentsview 5386007; synthetic fixture built from the source (a PyPI package, not run here)",
		Notes: "VIBE_HOME or session_logging.save_dir move the logs (not followed here); messages carry no time, their rows take meta.json's start_time as inherited",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".vibe/logs/session/*/{messages.jsonl,meta.json}", Kind: KindTranscript},
		},
	},
	{
		Name: "visualstudio-copilot", Display: "GitHub Copilot in Visual Studio (Windows IDE)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source, Windows only, nothing to run here: paths and OpenTelemetry span shapes from kenn-io/agentsview internal/parser/types.go, visualstudio_copilot.go and its tests at 5386007; synthetic fixture built from them",
		Notes: "agent mode writes OTLP trace lines to %TEMP%\\VSGitHubCopilotLogs\\traces (temp: a cleanup may remove them); Visual Studio 2026's copilot-chat sessions files are not collected (agentsview names no home path for them); VISUALSTUDIO_COPILOT_DIR moves the traces (not followed here)",
		Targets: []Target{
			{ID: "traces", Root: RootHome, Glob: "{AppData/Local/Temp,Library/Caches,.cache}/VSGitHubCopilotLogs/traces/*_VSGitHubCopilot_traces.jsonl", Kind: KindTranscript},
		},
	},
	{
		Name: "vscode", Display: "VS Code chat (GitHub Copilot Chat)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at d7622a5, synthetic fixture; permission level, model options, standing grants, settings, GitHub account records and chat editing state from source at 4d22f4f",
		Notes: "state.vscdb here also holds the rows of cody, cline, roo-code, tabby and twinny; Positron (Posit's IDE) is read here: its built-in Positron Assistant writes these chatSessions files (issue 28, agentsview 5386007 positron_provider.go)",
		Targets: []Target{
			{ID: "chat-sessions", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "workspaceStorage/*/chatSessions/*.{json,jsonl}", Kind: KindTranscript},
			{ID: "global-chats", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "globalStorage/{emptyWindowChatSessions/*,transferredChatSessions/*.json}", Kind: KindTranscript},
			{ID: "chat-editing", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "workspaceStorage/*/chatEditingSessions/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "copilot-transcripts", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "workspaceStorage/*/{GitHub,github}.copilot-chat/transcripts/*.jsonl", Kind: KindTranscript},
			{ID: "workspace-json", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "workspaceStorage/*/workspace.json", Kind: KindOther, Projects: ProjectsWorkspaceJSON},
			{ID: "state-db", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "{globalStorage,profiles/*/globalStorage,workspaceStorage/*}/state.vscdb{,.backup}", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "cloud-sessions", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "globalStorage/github.copilot-chat/cloudSessions.json", Kind: KindOther},
			{ID: "settings", OS: AllOS, Root: RootVSCodeEditorUser, Glob: "{settings.json,mcp.json,profiles/*/settings.json,profiles/*/mcp.json,prompts/*}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".vscode/{settings,mcp}.json", Kind: KindSettings},
			{Glob: ".github/copilot-instructions.md", Kind: KindSettings},
			{Glob: ".github/{instructions,prompts,chatmodes}/**", Kind: KindSettings},
		},
	},
	{
		Name: "warp", Display: "Warp (terminal agent mode)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at warpdotdev/warp 19548ae (persistence schema, paths) and warp-proto-apis task.proto at 00f7916, agentsview 5386007; synthetic fixture built from the schema",
		Notes: "one warp.sqlite per channel holds the agent conversations (agent_tasks protobuf messages), typed queries (ai_queries) and the terminal's command history; user-typed terminal commands are counted, not emitted",
		Targets: []Target{
			{ID: "db", OS: linuxOS, Root: RootXDGState, Glob: "warp-terminal{,-preview}/{,tui/}warp.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "db-macos", OS: darwinOS, Root: RootGroupContainers, Glob: "2BBY89MBSN.dev.warp/Library/Application Support/dev.warp.Warp-{Stable,Preview}/{,tui/}warp.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "db-windows", OS: windowsOS, Root: RootLocalAppData, Glob: "warp/{Warp,WarpPreview}/data/{,tui/}warp.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "windsurf", Display: "Windsurf (Cascade) and Devin CLI", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceDocs, EvidenceNote: "Official docs (Cascade Hooks transcript format), community write-ups",
		Notes: "issue 52; parsed as far as the hook transcripts (.windsurf/transcripts/*.jsonl, fully) and a schemaless protobuf wire decoding of Cascade's .pb files reach: the .pb turn structure has no published schema, so decoded strings are system rows and undecodable (encrypted or compressed) files are problem rows; memories, workflows and the editor state are collected and inventoried, not parsed",
		Targets: []Target{
			{ID: "cascade", Root: RootHome, Glob: ".codeium/windsurf{,-next}/cascade/*.pb", Kind: KindTranscript},
			{ID: "memories", Root: RootHome, Glob: ".codeium/windsurf{,-next}/memories/**", Kind: KindOther},
			{ID: "workflows", Root: RootHome, Glob: ".codeium/windsurf{,-next}/{global_workflows,workflows,global_rules}/**", Kind: KindSettings},
			{ID: "mcp-config", Root: RootHome, Glob: ".codeium/windsurf{,-next}/mcp_config.json", Kind: KindSettings},
			{ID: "hooks", Root: RootHome, Glob: ".codeium/{windsurf{,-next}/hooks.json,hooks.json}", Kind: KindSettings},
			{ID: "hook-transcripts", Root: RootHome, Glob: ".windsurf/transcripts/*.jsonl", Kind: KindTranscript},
			{ID: "state-db", OS: AllOS, Root: RootAppConfig, Glob: "{Windsurf,Windsurf - Next,Devin}/User/{globalStorage,workspaceStorage/*}/state.vscdb{,.backup}", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "workspace-json", OS: AllOS, Root: RootAppConfig, Glob: "{Windsurf,Windsurf - Next,Devin}/User/workspaceStorage/*/workspace.json", Kind: KindOther, Projects: ProjectsWorkspaceJSON},
			{ID: "user-settings", OS: AllOS, Root: RootAppConfig, Glob: "{Windsurf,Windsurf - Next,Devin}/User/{settings.json,keybindings.json}", Kind: KindSettings},
			{ID: "editor-logs", OS: AllOS, Root: RootAppConfig, Glob: "{Windsurf,Windsurf - Next,Devin}/logs/**", Kind: KindLog, MaxSize: logMax},
			{ID: "remote-state", OS: linuxOS, Root: RootHome, Glob: ".windsurf-server/data/User/{globalStorage,workspaceStorage/*}/state.vscdb", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "portable-state", OS: windowsOS, Root: RootLocalAppData, Glob: "Programs/Windsurf/data/user-data/User/{globalStorage,workspaceStorage/*}/state.vscdb", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "devin-config", Root: RootHome, Glob: "{.config/devin,AppData/Roaming/devin}/{*.json,*.toml,*.yaml}", Kind: KindSettings},
			{ID: "devin-credentials", Root: RootHome, Glob: "{.local/share/devin,AppData/Roaming/devin,.config/devin}/credentials.toml", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".windsurfrules", Kind: KindSettings},
			{Glob: ".windsurf/**", Kind: KindSettings},
		},
	},
	{
		Name: "workbuddy", Display: "WorkBuddy (Tencent CodeBuddy desktop agent)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source with no npm or CLI release (npm view workbuddy: 404): format from kenn-io/agentsview internal/parser/workbuddy.go at 5386007; synthetic fixture built from it",
		Notes: "the desktop app writes ~/.workbuddy/projects on every OS; WORKBUDDY_PROJECTS_DIR moves it (not followed here)",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".workbuddy/projects/*/{*.jsonl,*/subagents/*.jsonl}", Kind: KindTranscript},
			{ID: "tool-results", Root: RootHome, Glob: ".workbuddy/projects/*/*/tool-results/*", Kind: KindOther, MaxSize: outputsMax},
		},
	},
	{
		Name: "zcode", Display: "ZCode (CLI)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "No public source or npm release (npm zcode is an unrelated placeholder): format from kenn-io/agentsview internal/parser/zcode.go and zcode_test.go at 5386007 (OpenCode-style session, message and part rows, model_usage); synthetic fixture built from it",
		Notes: "issue 28; read by the opencode package (zcode/db): the store keeps OpenCode's tables, with RFC 3339 text times and older Anthropic-style blocks",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: ".zcode/cli/db/db.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "zed", Display: "Zed (agent panel)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at a846890, synthetic fixture; settings files, the other db.sqlite stores, denied calls, scratch directories and draft prompts from source at 9cd14da",
		Targets: []Target{
			{ID: "threads", Root: RootHome, Glob: "{.local/share/zed,Library/Application Support/Zed,AppData/Local/Zed,.var/app/dev.zed.Zed*/data/zed}/threads/threads.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "db", Root: RootHome, Glob: "{.local/share/zed,Library/Application Support/Zed,AppData/Local/Zed,.var/app/dev.zed.Zed*/data/zed}/db/*/db.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "prompts", Root: RootHome, Glob: "{.local/share/zed,Library/Application Support/Zed,AppData/Local/Zed,.var/app/dev.zed.Zed*/data/zed}/prompts/*", Kind: KindOther, MaxSize: outputsMax},
			{ID: "settings", Root: RootHome, Glob: "{.config/zed,AppData/Roaming/Zed,.var/app/dev.zed.Zed*/config/zed}/{settings.json,global_settings.json,keymap.json}", Kind: KindSettings},
			{ID: "conversations", Root: RootHome, Glob: "{.config/zed,AppData/Roaming/Zed,.var/app/dev.zed.Zed*/config/zed}/conversations/*.json", Kind: KindTranscript},
			{ID: "logs", Root: RootHome, Glob: "{.local/share/zed/logs,Library/Logs/Zed,AppData/Local/Zed/logs}/*.log", Kind: KindLog, MaxSize: logMax},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".zed/**", Kind: KindSettings},
			{Glob: ".rules", Kind: KindSettings},
		},
	},
	{
		Name: "zencoder", Display: "Zencoder", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Closed source with no CLI release (npm's zencoder is an unrelated video library): format from kenn-io/agentsview internal/parser/zencoder.go at 5386007; synthetic fixture built from it",
		Notes: "the VS Code and JetBrains extensions write ~/.zencoder/sessions on every OS; ZENCODER_DIR moves it (not followed here)",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".zencoder/sessions/*.jsonl", Kind: KindTranscript},
		},
	},
}
