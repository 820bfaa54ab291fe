package catalog

// The agent tables repeat the same shapes by design: one literal per agent and target is the catalog's single source of truth, read by people and diffed per agent.

// agentsLToO: langflow to openhands.
var agentsLToO = []Agent{
	{
		Name: "langflow", Display: "Langflow (server and Desktop)", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source (langflow-ai/langflow message/model.py d6f801e, settings/base.py set_database_url), platformdirs source; Desktop from docs only; synthetic fixture",
		Notes: "issue 141; Langflow Desktop's database.db; the server's langflow.db sits in the installed package (save_db_in_config_dir false, the default) or in the config directory: both collected; a project virtualenv's copy is not reached (.venv and venv are pruned)",
		Targets: []Target{
			{ID: "server-db", OS: unixOS, Root: RootXDGCache, Glob: "langflow/langflow{,-pre}.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "server-db-windows", OS: windowsOS, Root: RootLocalAppData, Glob: "langflow/langflow/Cache/langflow{,-pre}.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "server-db-package", Root: RootHome, Glob: "{.local/lib/python3*,.local/share/uv/tools/langflow/lib/python3*,.local/pipx/venvs/langflow/lib/python3*,.local/share/pipx/venvs/langflow/lib/python3*,Library/Python/3*/lib/python,AppData/Roaming/Python/Python3*,AppData/Local/Programs/Python/Python3*/Lib}/site-packages/langflow/langflow{,-pre}.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "config-dir", OS: unixOS, Root: RootXDGCache, Glob: "langflow/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "config-dir-windows", OS: windowsOS, Root: RootLocalAppData, Glob: "langflow/langflow/Cache/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "desktop-db", Root: RootHome, Glob: ".langflow/data/*.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "desktop-env", Root: RootHome, Glob: ".langflow/data/.env", Kind: KindSecret},
			{ID: "fs-sandbox", Root: RootHome, Glob: ".langflow/fs_tool/fs_sandbox/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "desktop-app", OS: AllOS, Root: RootAppConfig, Glob: "com.LangflowDesktop/**", Kind: KindOther, MaxSize: storeMax, Exclude: electronExcludes},
		},
		Volumes: []string{"*langflow-data"},
	},
	{
		Name: "letta", Display: "Letta Code", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Letta Code 0.32.18 run here offline with --backend local against a loopback model (fixtures/roots/real-agents-4); source at 1f4d3e3ea (0.30.29); seed: source at 77faf36 and 2a46615 (0.34.17)",
		Notes: "local backend parsed (conversations, agents, memory repository, settings, providers); the cloud backend's transcripts, sessions.jsonl, runs, crons, channels and listener-state are collected, not parsed yet (not written by 0.32.18's local backend)",
		Targets: []Target{
			{ID: "conversations", Root: RootHome, Glob: ".letta/lc-local-backend/conversations/*/messages.jsonl{,.pre-pi-backup-*}", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "conversation-meta", Root: RootHome, Glob: ".letta/lc-local-backend/conversations/*/{conversation,manifest,system-prompt}.json", Kind: KindOther},
			{ID: "local-agents", Root: RootHome, Glob: ".letta/lc-local-backend/agents/*.json", Kind: KindSettings},
			{ID: "memfs", Root: RootHome, Glob: ".letta/lc-local-backend/memfs/*/memory/**", Kind: KindOther, MaxSize: outputsMax},
			// The memory folder is a git repository Letta commits every
			// memory edit to (and may push to a remote): its .git is
			// collected whole (the literal segment is never pruned).
			{ID: "memfs-git", Root: RootHome, Glob: ".letta/lc-local-backend/memfs/*/memory/.git/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "local-secrets", Root: RootHome, Glob: ".letta/lc-local-backend/{providers,secrets}/*.json", Kind: KindSecret},
			{ID: "transcripts", Root: RootHome, Glob: ".letta/transcripts/*/*/transcript.jsonl", Kind: KindTranscript},
			{ID: "sessions", Root: RootHome, Glob: ".letta/sessions.jsonl", Kind: KindHistory, Projects: ProjectsJSONPaths},
			{ID: "runs", Root: RootHome, Glob: ".letta/runs/*.jsonl", Kind: KindTranscript},
			{ID: "listener-state", Root: RootHome, Glob: ".letta/listener-state/*/*.json", Kind: KindOther},
			{ID: "settings", Root: RootHome, Glob: "{.letta/settings.json,.letta/crons.json,.letta/channels/*/routing.json,.config/letta/settings.json}", Kind: KindSettings},
			{ID: "server-db", Root: RootHome, Glob: ".letta/*.db", Kind: KindSQLite, MaxSize: sqliteMax},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".letta/settings{,.local}.json", Kind: KindSettings},
			{Glob: ".letta/**", Kind: KindOther},
		},
	},
	{
		Name: "little-coder", Display: "little-coder", Status: StatusParsed, SeedStatus: StatusParsed,
		RowsUnder: "pi",
		Evidence:  EvidenceSource, EvidenceNote: "Source at 89d4fa0, synthetic fixture; the v0.0.x layout from source at 424f7a4 (tag v0.0.5)",
		Notes: "its current transcripts are pi sessions, collected as pi; the retired v0.0.x Python layout (saved sessions, their history.json and session_latest.json copies, input_history.txt, checkpoint snapshots, three config.json keys) is read; config.json also holds API keys, so it is collected as secret",
		Targets: []Target{
			{ID: "prompt-history", Root: RootHome, Glob: ".pi/agent/little-coder-prompt-history.json", Kind: KindHistory},
			{ID: "checkpoints", Root: RootHome, Glob: ".little-coder/checkpoints/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "sessions", Root: RootHome, Glob: ".little-coder/sessions/**/*.json", Kind: KindTranscript},
			{ID: "input-history", Root: RootHome, Glob: ".little-coder/input_history.txt", Kind: KindHistory},
			{ID: "config", Root: RootHome, Glob: ".little-coder/config.json", Kind: KindSecret},
		},
	},
	{
		Name: "local-deep-research", Display: "Local Deep Research", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source (the timothybrush fork of LearningCircuit/local-deep-research, auth_db.py d0a0e28), platformdirs source, synthetic fixture",
		Notes: "issue 56; history and chat in per-user SQLCipher databases keyed from the login password: each is an \"encrypted, not read\" row; the account list, the pre-1.0 ldr.db and the reports are read",
		Targets: []Target{
			{ID: "databases", OS: AllOS, Root: RootUserData, Glob: "local-deep-research/**/*.db", Kind: KindSQLite, MaxSize: sqliteMax, Exclude: []string{"cache"}},
			{ID: "outputs", OS: AllOS, Root: RootUserData, Glob: "local-deep-research/**/research_outputs/**", Kind: KindOther, MaxSize: outputsMax, Exclude: []string{"cache"}},
			{ID: "logs", OS: AllOS, Root: RootUserData, Glob: "local-deep-research/**/logs/**", Kind: KindLog, MaxSize: logMax, Exclude: []string{"cache"}},
			{ID: "documents", Root: RootHome, Glob: "Documents/LocalDeepResearch/**", Kind: KindOther, MaxSize: outputsMax},
		},
		Volumes: []string{"*ldr_data"},
	},
	{
		Name: "metagpt", Display: "MetaGPT", Status: StatusParsed, SeedStatus: StatusCollected,
		Evidence: EvidenceSource, EvidenceNote: "Source: geekan/MetaGPT e3bb4d5 (metagpt/configs/llm_config.py LLMConfig, config/config2.example.yaml); synthetic fixture with fake keys",
		Notes: "configuration only, parsed to one model row per LLM block (never the key); its workspace and team.json are under the working directory",
		Targets: []Target{
			{ID: "config", Root: RootHome, Glob: ".metagpt/{config2.yaml,config2.bak}", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: "config/config2.yaml", Kind: KindSecret},
		},
	},
	{
		Name: "mimocode", Display: "MiMoCode (Xiaomi; an OpenCode fork)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "No public source or npm release found (npm view mimocode: 404): the layout from kenn-io/agentsview 5386007 internal/parser/discovery.go (mimoFmt: mimocode.db, storage/session_diff) and mimocode.go, which reads it with OpenCode's parser; the fixture is OpenCode's tree moved to MiMoCode's paths",
		Notes: "an OpenCode fork: read by the opencode package; its session infos sit in storage/session_diff/<project>/ where OpenCode's sit in storage/session/; MIMOCODE_DIR moves it (not followed here)",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: ".local/share/mimocode/mimocode*.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "storage", Root: RootHome, Glob: ".local/share/mimocode/storage/**/*.json", Kind: KindTranscript, Projects: ProjectsJSONPaths},
			{ID: "auth", Root: RootHome, Glob: ".local/share/mimocode/{auth,mcp-auth}.json", Kind: KindSecret},
		},
	},
	{
		Name: "muse-code", Display: "Muse Code", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Shipped binary 1.4.2 strings, vendor skills and a real install (Linux), October 2026; synthetic fixture",
		Targets: []Target{
			{ID: "sessions", OS: unixOS, Root: RootXDGData, Glob: "muse/sessions/**/session.jsonl", Kind: KindTranscript},
			{ID: "tui-history", OS: unixOS, Root: RootXDGData, Glob: "muse/tui-history.jsonl", Kind: KindHistory},
			{ID: "indexes", OS: unixOS, Root: RootXDGData, Glob: "muse/**/*.{db,sqlite,sqlite3}", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "approval-review", OS: unixOS, Root: RootXDGData, Glob: "muse/{approval-review,tool-outputs}/**", Kind: KindOther, MaxSize: outputsMax},
			{ID: "trust", OS: unixOS, Root: RootXDGConfig, Glob: "muse/trust.json", Kind: KindSettings, Projects: ProjectsJSONPaths},
			{ID: "config", OS: unixOS, Root: RootXDGConfig, Glob: "muse/*.{json,toml,yaml}", Kind: KindSettings},
		},
	},
	{
		Name: "n8n", Display: "n8n", Status: StatusParsed, SeedStatus: StatusBacklog,
		Evidence: EvidenceSource, EvidenceNote: "Source (n8n-io/n8n entities execution-entity.ts b1d4cbd, execution-data.ts 14e1012, chat-hub entities 7fff6db and 96eebe9, computer-use logger.ts), synthetic fixture",
		Notes: "issue 67; database.sqlite executions and chat messages, and the computer-use gateway's log of every tool call; .n8n/config (the encryption key) is not collected and credentials_entity is never read; the event log and the gateway settings are collected, not parsed",
		Targets: []Target{
			{ID: "database", Root: RootHome, Glob: ".n8n/database.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "event-log", Root: RootHome, Glob: ".n8n/{n8nEventLog*.log,crash.journal}", Kind: KindLog, MaxSize: logMax},
			{ID: "gateway-log", Root: RootHome, Glob: ".n8n-local-gateway/log{,/**}", Kind: KindLog, MaxSize: logMax},
			{ID: "gateway-settings", Root: RootHome, Glob: ".n8n-gateway/settings.json", Kind: KindSettings},
		},
		Volumes: []string{"*n8n_data", "*n8n-data"},
	},
	{
		Name: "nanobot", Display: "nanobot", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 3852956, synthetic fixture (the seed's acdae3d and 909b277 not in the snapshot read)",
		Notes: "the session database sessions.sqlite3 is collected but not parsed yet: its writer is not in the source read",
		Targets: []Target{
			{ID: "sessions-db", Root: RootHome, Glob: ".nanobot*/sessions/*/sessions.sqlite3", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "sessions", Root: RootHome, Glob: ".nanobot*/{sessions,.migration-conflicts}/**/*.jsonl", Kind: KindTranscript},
			{ID: "workspace", Root: RootHome, Glob: ".nanobot*/sessions/*/.workspace", Kind: KindOther, Projects: ProjectsFileContent},
			{ID: "webui-index", Root: RootHome, Glob: ".nanobot*/sessions/*/.webui_session_index.json", Kind: KindOther},
			{ID: "webui", Root: RootHome, Glob: ".nanobot*/webui/**/*.jsonl", Kind: KindTranscript},
			{ID: "cli-history", Root: RootHome, Glob: ".nanobot*/history/cli_history", Kind: KindHistory},
			{ID: "memory-history", Root: RootHome, Glob: ".nanobot*/**/memory/history.jsonl", Kind: KindHistory, Exclude: []string{"sessions", "webui"}},
			{ID: "runs", Root: RootHome, Glob: ".nanobot*/**/{cron,triggers}/runs/*.json", Kind: KindOther, Exclude: []string{"sessions", "webui"}},
			{ID: "config", Root: RootHome, Glob: ".nanobot*/config.json", Kind: KindSecret},
			{ID: "pairing", Root: RootHome, Glob: ".nanobot*/pairing.json", Kind: KindSettings},
		},
	},
	{
		Name: "ollama", Display: "Ollama", Status: StatusParsed, SeedStatus: StatusParsed,
		Relocations: []Relocation{{Var: "OLLAMA_MODELS", Folder: ".ollama/models", Source: "ollama/ollama@fb30760 envconfig/config.go Models() (OLLAMA_MODELS, else ~/.ollama/models)"}},
		Evidence:    EvidenceSource, EvidenceNote: "Source at v0.35.1 (b0c1ca4), synthetic fixture; auto-mode settings from source at 6787222 (after v0.40.6); model manifests (models/manifests/<host>/<namespace>/<model>/<tag>) from source at fb30760 (manifest/manifest.go, types/model/name.go), synthetic fixture (fixtures/roots/promptlock); no real db.sqlite (no desktop app on Linux)",
		Notes: "the model blobs (models/blobs) are not collected, only the manifests naming them; OLLAMA_MODELS moves the models folder (followed as a relocation, from start files and from systemd units: ollama.service's Environment= or a drop-in, for the home of the unit's User=, the ollama user of Ollama's Linux installer, home /usr/share/ollama)",
		Targets: []Target{
			{ID: "app-db", OS: macWinOS, Root: RootUserData, Glob: "Ollama/db.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "history", Root: RootHome, Glob: ".ollama/history", Kind: KindHistory},
			{ID: "config", Root: RootHome, Glob: ".ollama/config.json", Kind: KindSettings},
			{ID: "keys", Root: RootHome, Glob: ".ollama/id_ed25519{,.pub}", Kind: KindSecret},
			{ID: "claude-profile", Root: RootHome, OS: macWinOS, Glob: "{Library/Application Support,AppData/Local}/Claude-3p/configLibrary/00000000-0000-4000-8000-000000000114.json", Kind: KindSettings},
			{ID: "logs", Root: RootHome, Glob: "{.ollama/logs,AppData/Local/Ollama}/*.log", Kind: KindLog, MaxSize: logMax},
			{ID: "manifests", Root: RootHome, Glob: ".ollama/models/manifests/*/*/*/*", Kind: KindSettings, MaxSize: mib},
		},
	},
	{
		Name: "omnigent", Display: "Omnigent (meta-harness)", Status: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at omnigent-ai/omnigent 79ee2e9 (db/db_models.py, enum_codecs.py, entities/conversation.py, chat.py), kenn-io/agentsview 5386007 (omnigent.go); synthetic fixture built from the models (a PyPI package, not reachable here)",
		Notes: "issue 28; OMNIGENT_DATA_DIR moves chat.db (not followed here); ~/.omnigents and ~/.omniagents are the names before the rename, moved on first run; session_usage and session_state (zstd-framed: accounting, and the policy engine's per-conversation state) are read; the users, account_tokens and device_grants tables are not",
		Targets: []Target{
			{ID: "chat-db", Root: RootHome, Glob: ".{omnigent,omnigents,omniagents}/chat.db", Kind: KindSQLite, MaxSize: sqliteMax},
		},
	},
	{
		Name: "omp", Display: "OhMyPi (omp; a pi fork)", Status: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "Real install of npm @oh-my-pi/pi-coding-agent 18.2.3 (18.3.4's dependencies are not all served here) under Bun 1.4.5 (npm @oven/bun-linux-x64) run against a loopback mock (analyzer/parsers/pi/testdata/omp-real, December 2026); OhMyPi's own entry types from the source shipped in 18.3.4 (src/session/session-entries.ts, session-manager.ts) and kenn-io/agentsview at 5386007, synthetic fixture",
		Notes: "a pi fork: its sessions are pi sessions with OhMyPi's own entry types, read by the pi package; subagent transcripts sit in a folder named for the parent's file; OMP_DIR moves them (not followed here); the real run also writes agent/agent.db (auth_credentials, usage_history, command_usage, model_usage: collected as a secret, not parsed), agent/models.yml (providers, may hold keys: secret), logs/ (debug JSON lines: collected, not parsed); agent/models.db (the model catalog cache) and gpu_cache.json are not collected",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".omp/agent/sessions/**/*.jsonl", Kind: KindTranscript},
			{ID: "agent-db", Root: RootHome, Glob: ".omp/agent/agent.db{,-wal,-shm}", Kind: KindSecret, MaxSize: sqliteMax},
			{ID: "config", Root: RootHome, Glob: ".omp/agent/{models.yml,config.yml,settings.json}", Kind: KindSecret},
			{ID: "logs", Root: RootHome, Glob: ".omp/logs/**", Kind: KindLog, MaxSize: logMax},
		},
	},
	{
		Name: "open-interpreter", Display: "Open Interpreter", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 5b07159 (openinterpreter/openinterpreter 0.0.40, Codex fork) and 073636f (the legacy Python tool), synthetic fixture",
		Notes: "issue 70; Codex's readers on its paths: rollouts, history, config and rules, state_5.sqlite and db-backups, thread_history_1.sqlite, logs_2.sqlite, memories/rollout_summaries",
		Targets: []Target{
			{ID: "sessions", Root: RootHome, Glob: ".openinterpreter/{sessions,archived_sessions}/**/rollout-*.{jsonl,jsonl.zst,json}", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "history", Root: RootHome, Glob: ".openinterpreter/history.jsonl", Kind: KindHistory},
			{ID: "state-db", Root: RootHome, Glob: ".openinterpreter/{*.sqlite,db-backups/*/*.sqlite}", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "imports", Root: RootHome, Glob: ".openinterpreter/external_agent_session_imports.json", Kind: KindOther},
			{ID: "config", Root: RootHome, Glob: ".openinterpreter/{config.toml,rules/*.rules}", Kind: KindSettings},
			{ID: "auth", Root: RootHome, Glob: ".openinterpreter/auth.json", Kind: KindSecret},
			{ID: "memories", Root: RootHome, Glob: ".openinterpreter/memories/**", Kind: KindOther},
			{ID: "legacy-conversations", Root: RootHome, Glob: "{.config/open-interpreter,Library/Application Support/open-interpreter,AppData/Local/open-interpreter/open-interpreter}/conversations/*.json", Kind: KindTranscript},
			{ID: "legacy-profiles", Root: RootHome, Glob: "{.config/open-interpreter,Library/Application Support/open-interpreter,AppData/Local/open-interpreter/open-interpreter}/profiles/*.{yaml,py}", Kind: KindSecret},
		},
	},
	{
		Name: "openclaude", Display: "OpenClaude (Claude Code fork)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source Gitlawb/openclaude at 421f459 (0.29.1: Claude Code's session storage under ~/.openclaude) and kenn-io/agentsview at 5386007; synthetic fixture (npm @gitlawb/openclaude is not served here; not run)",
		Notes: "issue 28; OPENCLAUDE_CONFIG_DIR moves ~/.openclaude elsewhere (not followed); history.jsonl is collected, not parsed yet; settings, .openclaude.json MCP servers, agents, commands, skills, rules, CLAUDE.md and hooks are read into the control surface (openclaude/surface)",
		Targets: []Target{
			{ID: "projects", Root: RootHome, Glob: ".openclaude/projects/**/*.jsonl", Kind: KindTranscript, Projects: ProjectsJSONLCwd},
			{ID: "history", Root: RootHome, Glob: ".openclaude/history.jsonl", Kind: KindHistory},
			{ID: "settings", Root: RootHome, Glob: ".openclaude/settings{,.local}.json", Kind: KindSettings},
			{ID: "customizations", Root: RootHome, Glob: ".openclaude/{agents/**,commands/**,skills/**,output-styles/**,rules/**,hooks/**,CLAUDE.md,settings.json.{bak,backup,old,orig}{,.*},settings.local.json.{bak,backup,old,orig}{,.*}}", Kind: KindSettings},
			{ID: "config", Root: RootHome, Glob: "{.openclaude.json,.openclaude/.openclaude.json,.openclaude/.credentials.json,.openclaude/.openclaude-profile.json,.openclaude-profile.json}", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".openclaude/**", Kind: KindSettings},
		},
	},
	{
		Name: "openclaw", Display: "OpenClaw (formerly Clawdbot, Moltbot)", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceRealInstall, EvidenceNote: "OpenClaw 2026.9.6 (eb377ac) run here offline with agent --local against a loopback model (fixtures/roots/real-agents-4); seed: source at 3b16db7 (checkpoint and backup writers at 6814525 and 6559e3f) and 146284a (2026.10.5)",
		Notes: "2026.9.6 keeps transcripts in the agent database (agents/<id>/sessions/ was not written; legacy files still parsed); " +
			"its lock databases (openclaw-agent.sqlite.*.sqlite) are collected with their journals but hold no tables; " +
			"not collected: tmp/ (gateway and state lock files) and cache/ (generated shell environment snapshots); " +
			"the log under /tmp/openclaw/ is outside the home; " +
			"QClaw (Tencent's OpenClaw distribution) keeps the same tree under ~/.qclaw (kenn-io/agentsview 5386007 qclaw.go reads ~/.qclaw/agents/<id>/sessions/*.jsonl with OpenClaw's session format), so it is collected and read here as openclaw, its files named by their .qclaw path",
		Targets: []Target{
			{ID: "agent-db", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/agents/*/agent/openclaw-agent.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "agent-db-locks", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/agents/*/agent/openclaw-agent.sqlite.*.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "state-db", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/state/openclaw.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "quarantine-db", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/state/openclaw-quarantine.sqlite", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "sessions", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/{agents/*/sessions,sessions}/**", Kind: KindTranscript},
			{ID: "auth-profiles", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/agents/*/agent/*auth*", Kind: KindSecret},
			{ID: "config", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/{openclaw,clawdbot,moltbot}.json{,.bak*}", Kind: KindSecret},
			// The config journal's HMAC key: flagged, never read.
			{ID: "config-key", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/config-journal-fingerprint.key", Kind: KindSecret},
			{ID: "credentials", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/credentials/**", Kind: KindSecret},
			{ID: "workspace", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/workspace/*.md", Kind: KindSettings},
			// plugin-skills/<name> are links into the install: recorded, never followed.
			{ID: "plugin-skills", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/plugin-skills/*", Kind: KindOther},
			{ID: "logs", Root: RootHome, Glob: "{.openclaw,.openclaw-*,.clawdbot,.moltbot,.qclaw}/logs/**", Kind: KindLog, MaxSize: logMax},
		},
	},
	{
		Name: "opencode", Display: "OpenCode", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 907b3bc (1.x) and cb07c55 (CLI 2.0.32), synthetic fixture; permission, past-use, scratch directory and archive rows from the same commits (2026-10-21 review); no real install",
		Notes: "issue 139; issue 194; issue 213; the desktop app's drafts.sqlite is not parsed yet",
		Targets: []Target{
			{ID: "db", Root: RootHome, Glob: ".local/share/opencode/opencode*.db", Kind: KindSQLite, MaxSize: sqliteMax},
			{ID: "storage", Root: RootHome, Glob: ".local/share/opencode/{storage,project/*/storage}/**/*.json", Kind: KindTranscript, Projects: ProjectsJSONPaths},
			{ID: "auth", Root: RootHome, Glob: ".local/share/opencode/{auth,mcp-auth}.json", Kind: KindSecret},
			{ID: "logs", Root: RootHome, Glob: ".local/share/opencode/log/*.log", Kind: KindLog, MaxSize: logMax},
			{ID: "tui-state", Root: RootHome, Glob: ".local/state/opencode/{prompt-history.jsonl,prompt-stash.jsonl,session.json}", Kind: KindHistory},
			{ID: "config", Root: RootHome, Glob: ".config/opencode/{*.json,*.jsonc,agent/**,command/**,agents/**,commands/**,plugin/**,plugins/**,AGENTS.md,*.json.{bak,backup,old,orig}{,.*},*.jsonc.{bak,backup,old,orig}{,.*}}", Kind: KindSettings},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".opencode/**", Kind: KindSettings},
			{Glob: "opencode.json{,c}", Kind: KindSettings},
		},
	},
	{
		Name: "openhands", Display: "OpenHands", Status: StatusParsed, SeedStatus: StatusParsed,
		Evidence: EvidenceSource, EvidenceNote: "Source at 611629e (SDK) and 6b3838c (CLI prompt history), synthetic fixture (the seed's b347047, 33d8aa2 and 0403f1a not in the snapshots read)",
		Notes: "issue 205; Agent Canvas browser storage (cloud origin, archive) needs a LevelDB reader",
		Targets: []Target{
			{ID: "events", Root: RootHome, Glob: ".openhands/{agent-canvas/dev_conversations,agent-canvas/conversations,conversations}/*/events/*.json", Kind: KindTranscript},
			{ID: "meta", Root: RootHome, Glob: ".openhands/{agent-canvas/dev_conversations,agent-canvas/conversations,conversations}/*/meta.json", Kind: KindOther, Projects: ProjectsJSONPaths},
			{ID: "base-state", Root: RootHome, Glob: ".openhands/{agent-canvas/dev_conversations,agent-canvas/conversations,conversations}/*/base_state.json", Kind: KindOther},
			{ID: "prompt-history", Root: RootHome, Glob: ".openhands/projects/*/prompt_history.json", Kind: KindHistory},
			{ID: "legacy-sessions", Root: RootHome, Glob: ".openhands/{,file_store/}sessions/*/events/*.json", Kind: KindTranscript},
			{ID: "settings", Root: RootHome, Glob: ".openhands/{settings.json,agent_settings.json,secrets.json,config.toml,.env}", Kind: KindSecret},
		},
		ProjectFiles: []ProjectFile{
			{Glob: ".openhands/**", Kind: KindSettings},
		},
	},
}
