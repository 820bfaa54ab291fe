// Package surface reads the agents' control surface, the "autoruns" of AI
// agents: every hook, MCP server, skill, custom agent, slash command,
// plugin, rules file and helper command an agent would load or run, per
// user and per project, and the backup copies (.bak, .backup, .old, .orig)
// beside rewritten settings.
//
// One parser per agent ("<agent>/surface", registered with the agent's
// other parsers) reads the files its table names (table.go): settings
// files (hooks, MCP servers, status-line and key-helper commands,
// environment names, enabled plugins, marketplaces), MCP configurations,
// plugin and extension manifests, Markdown skills, agents, commands, rules
// and output styles (front matter name and description, the text up to
// ContentMax), TOML commands, YAML configurations, and the files of hooks
// folders. Each entry is one system row at the file's modification time
// (time_basis file-mtime; none when unknown) whose text starts
// "control surface: " and whose tool_input is the entry (Item) as JSON:
// kind, scope (user, project, local, plugin, extension), project, name,
// event and matcher of a hook, command and arguments, environment and
// header NAMES (never values), URL, the file's path, SHA-256 of the bytes
// read, size, modification time and the line of the entry. `doubleagent
// surface` lists them (analyzer/surface) with the access, change and birth
// times from the manifest (for a loose tree, from the file's stat).
//
// Secrets: values of env, environment and headers maps are never read into
// a row; arguments after or in a flag naming a token, key, secret,
// password or credential, user info and secret-named query values of URLs,
// and credential-shaped substrings (parser.RedactSecrets) are written
// "[redacted]". Secret-kind files (Continue's config.yaml, Crush's
// crush.json, Factory's settings.json, a project's .env for Codex) are read
// for these named keys only.
//
// Formats, from each agent's own documentation, checked November 2026:
//   - Claude Code (code.claude.com/docs: settings, hooks, mcp, skills,
//     sub-agents, slash-commands, plugins, output-styles, memory), and the
//     real 2.1.332 install of fixtures/roots/s1ngularity (settings.json
//     hooks.Stop[].hooks[] {type, command}, skills/<name>/SKILL.md with
//     name and description front matter, backups/.claude.json.backup.<ms>,
//     plugins/store);
//   - Codex CLI (developers.openai.com/codex: config.toml [mcp_servers.*]
//     command, args, env, url, bearer_token_env_var, enabled; notify;
//     hooks.json and inline [hooks] tables; AGENTS.md, prompts, skills; a
//     project's .env, secret kind, read for its variable NAMES only, one
//     environment entry: Codex before the CVE-2025-61260 fix loaded the
//     working directory's .env (codex-rs arg0 load_dotenv, openai/codex PR
//     #1653: dotenvy::dotenv()), so CODEX_HOME there moved the agent's
//     home into the repository; current source loads CODEX_HOME/.env only
//     and drops CODEX_* names (ILLEGAL_ENV_VAR_PREFIX); the commit was not
//     resolved here, the snapshot being too large to fetch; codex-cli/surface
//     is version 3 for it);
//   - Gemini CLI and Qwen Code (docs/cli/configuration.md: mcpServers
//     command/args/env/url/httpUrl/headers, hooks, tools.discoveryCommand,
//     tools.callCommand; commands/*.toml; extensions/<name>/
//     gemini-extension.json; GEMINI.md / QWEN.md);
//   - Cursor (cursor.com/docs: ~/.cursor/mcp.json and .cursor/mcp.json,
//     hooks.json {version, hooks: {event: [{command}]}}, .cursor/rules
//     *.mdc, .cursor/commands, .cursorrules);
//   - VS Code Copilot Chat (mcp.json {servers}, settings.json mcp.servers,
//     prompts/*.prompt.md, *.instructions.md, *.chatmode.md, *.agent.md,
//     .github/copilot-instructions.md);
//   - GitHub Copilot CLI (~/.copilot/mcp-config.json, agents, skills,
//     .github/hooks/*.json {version, hooks: {event: [{type, bash,
//     powershell}]}});
//   - Amazon Q Developer CLI / Kiro (.aws/amazonq/mcp.json, cli-agents/*.json
//     {name, prompt, mcpServers, hooks: {agentSpawn, userPromptSubmit,
//     ...: [{command}]}}, .kiro/settings/mcp.json, .kiro/steering,
//     .kiro/hooks/*.kiro.hook {when, then});
//   - Windsurf (mcp_config.json, hooks.json {hooks: {event: [{command}]}},
//     memories/global_rules.md, workflows, .windsurfrules, .windsurf/rules);
//   - Cline, Roo Code, Kilo Code (MCP settings files, .clinerules,
//     Documents/Cline/{Rules,Workflows,Hooks}, .roo/rules, .roomodes,
//     custom_modes.yaml);
//   - Continue (config.yaml mcpServers, rules, prompts;
//     .continue/mcpServers/*.yaml), opencode (opencode.json mcp with
//     command arrays and environment, plugin, agent, command; agent/,
//     command/, plugin/ folders), Goose (config.yaml extensions cmd, args,
//     envs, env_keys), Crush (crush.json mcp), Zed (settings.json
//     context_servers), Amp (amp.mcpServers), Auggie (.augment), Factory
//     droid (.factory: settings.json hooks, mcp.json, droids, commands,
//     skills), Claude Desktop (claude_desktop_config.json mcpServers,
//     Claude Extensions/*/manifest.json server.mcp_config), Antigravity
//     (mcp_config.json, .agent/rules, .agent/workflows);
//   - OpenClaude and Qoder, Claude Code forks with its layout under their
//     own folders (openclaude/surface, qoder/surface): settings.json and
//     settings.local.json hooks, mcpServers, env names; the global JSON
//     (.openclaude.json; .qoder.json, .qoder-cn.json) MCP servers; agents,
//     commands, skills, output-styles, rules, hooks/; the memory file
//     (~/.openclaude/CLAUDE.md; ~/.qoder/AGENTS.md). Sources:
//     Gitlawb/openclaude at 421f45992c440420775ff28e3a8a060869195034
//     (src/utils/claudemd.ts, envUtils.ts, env.ts) and the shipped bundle of
//     @qoder-ai/qodercli 1.1.52 (.qoder/settings.json, settings.local.json,
//     .qoder.json, AGENTS.md under the user dir, the agents, commands,
//     skills, hooks, output-styles, rules folders). Their settings and
//     global JSON hold API keys: read for the named keys only;
//   - iFlow CLI (Gemini CLI's layout under .iflow, IFLOW.md; its
//     settings.json holds the API key and is read for the named keys only);
//   - Kimi Code and Kimi CLI (kimi-cli/surface): config.toml [[hooks]]
//     {event, matcher, command, timeout} (MoonshotAI/kimi-code at
//     d723cc47ee43, packages/agent-core-v2/src/features/externalHooks/
//     configSection.ts, docs/en/customization/hooks.md; MoonshotAI/kimi-cli
//     at 4a550ef, src/kimi_cli/hooks/config.py), read for that key only
//     (the file holds the providers' API keys); mcp.json {mcpServers:
//     command, args, env, cwd, url, transport, headers, bearerTokenEnvVar,
//     enabled} user and project (.kimi-code/mcp.json;
//     docs/en/customization/mcp.md, kimi-cli src/kimi_cli/cli/mcp.py);
//     tui.toml [status_line].command and [editor].command
//     (docs/en/configuration/config-files.md); AGENTS.md, skills, hooks/.
//     The real root fixtures/roots/real-agents-kimi-code holds a
//     config.toml without hooks, a tui.toml without commands and no
//     mcp.json: the entries' tests are synthetic (testdata/kimi-code-*);
//   - shared, the cross-agent folders (the AGENTS.md convention at
//     agents.md: ~/.config/AGENTS.md and the project's AGENTS.md as rules;
//     .agents/skills/*/SKILL.md and ~/.config/agents/skills as skills;
//     .agents/agents/*.md as agent definitions): the agent of these rows is
//     "shared", beside the rows of each agent that reads the same file.
//
// What is not read: managed (system-wide) settings outside the homes, which
// the catalog does not collect; the bodies of plugin code beyond
// ContentMax; binary files (listed with their hash, no content).
package surface
