package surface

import (
	"slices"
	"sort"

	"github.com/doubleagent/doubleagent/catalog"
)

// Globs are matched against a file's path relative to its home, or the
// tail of a project artifact's path (the project directory is what comes
// before it). The first entry that matches reads the file; an entry marked
// backup also reads its backup copies (name + .bak, .backup, .old, .orig,
// each optionally followed by .<anything>).
const (
	claudeDir  = "{.claude,.claude-*}"
	codexDir   = "{.codex,.codex-*}"
	copilotDir = "{.copilot,.local/state/.copilot,.config/.copilot}"
	windsurf   = ".codeium/{windsurf,windsurf-next}"
)

var (
	skill   = markdown(KindSkill)
	agentMD = markdown(KindAgent)
	command = markdown(KindCommand)
	rules   = markdown(KindRules)
)

func e(glob string, dec decoder, what string) entry { return entry{glob: glob, dec: dec, what: what} }
func eb(glob string, dec decoder, what string) entry {
	return entry{glob: glob, dec: dec, what: what, backup: true}
}
func es(glob string, dec decoder, what, scope string) entry {
	return entry{glob: glob, dec: dec, what: what, scope: scope}
}

// skillEntries are the entries of a folder of skills (<dir>/skills/<name>/SKILL.md).
func skillEntries(dir, scope string) []entry {
	return []entry{
		es(dir+"/skills/*/SKILL.md", skill, dir+"/skills/*/SKILL.md", scope),
		es(dir+"/skills/**", file(KindSkillFile), dir+"/skills/** (other skill files)", scope),
	}
}

// table is every agent's control surface, from the agents' own
// documentation and source (see doc.go).
func table() []spec {
	claude := []entry{
		e(claudeDir+"/plugins/installed_plugins.json", claudePlugins, "plugins/installed_plugins.json"),
		e(claudeDir+"/plugins/known_marketplaces.json", claudeMarketplaces, "plugins/known_marketplaces.json"),
		es(claudeDir+"/plugins/**/.claude-plugin/plugin.json", pluginManifest, "plugin manifests", "plugin"),
		es(claudeDir+"/plugins/**/hooks/hooks.json", settingsJSON, "plugin hooks", "plugin"),
		es(claudeDir+"/plugins/**/.mcp.json", settingsJSON, "plugin MCP servers", "plugin"),
		es(claudeDir+"/plugins/**/skills/*/SKILL.md", skill, "plugin skills", "plugin"),
		es(claudeDir+"/plugins/**/agents/**/*.md", agentMD, "plugin agents", "plugin"),
		es(claudeDir+"/plugins/**/commands/**/*.md", command, "plugin commands", "plugin"),
		es(claudeDir+"/plugins/**/hooks/**", file(KindHookScript), "plugin hook scripts", "plugin"),
		eb(claudeDir+"/{settings,settings.local}.json", settingsJSON, "settings.json and settings.local.json (user and project; hooks, statusLine, apiKeyHelper, env names, enabledPlugins, extraKnownMarketplaces, mcpServers)"),
		eb("{.claude.json,"+claudeDir+"/.claude.json}", claudeJSON, ".claude.json (user and local-scope MCP servers)"),
		eb(claudeDir+"/backups/.claude.json", claudeJSON, "backups/.claude.json.backup.<ms>"),
		e(".mcp.json", settingsJSON, "project .mcp.json"),
	}
	claude = append(claude, skillEntries(claudeDir, "")...)
	claude = append(claude,
		e(claudeDir+"/agents/**/*.md", agentMD, "agents/*.md"),
		e(claudeDir+"/commands/**/*.md", command, "commands/**/*.md"),
		e(claudeDir+"/output-styles/**/*.md", markdown(KindStyle), "output-styles/*.md"),
		e(claudeDir+"/rules/**/*.md", rules, "rules/*.md"),
		e("{"+claudeDir+"/CLAUDE.md,CLAUDE.md,CLAUDE.local.md}", rules, "CLAUDE.md, CLAUDE.local.md"),
		e(claudeDir+"/hooks/**", file(KindHookScript), "hooks/ scripts"),
	)

	codex := []entry{
		eb(codexDir+"/config.toml", codexConfig, "config.toml (mcp_servers, notify, [hooks]; user and project)"),
		eb(codexDir+"/hooks.json", settingsJSON, "hooks.json (user and project)"),
		e(codexDir+"/hooks/**", file(KindHookScript), "hooks/ scripts"),
		e("{"+codexDir+"/AGENTS.md,"+codexDir+"/AGENTS.override.md,AGENTS.md,AGENTS.override.md}", rules, "AGENTS.md, AGENTS.override.md"),
		e(codexDir+"/prompts/**/*.md", command, "prompts/*.md"),
		e(codexDir+"/skills/**/SKILL.md", skill, "skills/**/SKILL.md"),
		e(codexDir+"/skills/**", file(KindSkillFile), "skills/** (other skill files)"),
		e(".env", dotenv, "project .env (variable names only, never values; CODEX_HOME there is CVE-2025-61260)"),
	}

	geminiLike := func(dir, ctxFile, extManifest string) []entry {
		out := []entry{
			eb(dir+"/settings.json", settingsJSON, dir+"/settings.json (hooks, mcpServers, tools.discoveryCommand, tools.callCommand; user and project)"),
			e("{"+dir+"/"+ctxFile+","+ctxFile+"}", rules, ctxFile),
			es(dir+"/extensions/*/"+extManifest, pluginManifest, "extensions/*/"+extManifest, "extension"),
			es(dir+"/extensions/*/"+ctxFile, rules, "extensions/*/"+ctxFile, "extension"),
			es(dir+"/extensions/*/commands/**/*.toml", tomlCommand, "extensions/*/commands/**/*.toml", "extension"),
			e(dir+"/commands/**/*.toml", tomlCommand, "commands/**/*.toml"),
			e(dir+"/agents/**/*.md", agentMD, "agents/*.md"),
		}
		out = append(out, skillEntries(dir, "")...)
		return append(out, e(dir+"/hooks/**", file(KindHookScript), "hooks/ scripts"))
	}

	// shared is the cross-agent folders several agents read: AGENTS.md
	// (~/.config/AGENTS.md and the project's), skills under .agents/skills
	// and ~/.config/agents/skills, agent definitions under agents/.
	shared := []entry{
		e("{.config/AGENTS.md,AGENTS.md}", rules, "AGENTS.md (~/.config/AGENTS.md, project AGENTS.md)"),
		e("{.agents,.config/agents}/agents/**/*.md", agentMD, ".agents/agents/*.md, ~/.config/agents/agents/*.md"),
	}
	shared = append(shared, skillEntries(".agents", "")...)
	shared = append(shared, skillEntries(".config/agents", "")...)

	copilot := []entry{
		eb(copilotDir+"/{mcp-config,settings}.json", settingsJSON, "mcp-config.json, settings.json"),
		e("{"+copilotDir+"/agents/**/*.md,.github/agents/**/*.md}", agentMD, "agents/*.md, .github/agents/*.md"),
		e("{"+copilotDir+"/hooks/*.json,.github/hooks/*.json}", settingsJSON, "hooks/*.json, .github/hooks/*.json"),
		e("{"+copilotDir+"/hooks/**,.github/hooks/**}", file(KindHookScript), "hook scripts"),
		e("{"+copilotDir+"/copilot-instructions.md,"+copilotDir+"/instructions/**/*.md,.github/copilot-instructions.md,.github/instructions/**/*.md}", rules, "copilot-instructions.md, instructions/*.md"),
	}
	copilot = append(copilot, skillEntries(copilotDir, "")...)
	copilot = append(copilot, skillEntries(".github", "")...)

	cursor := []entry{
		eb("{.cursor/mcp.json,**/Cursor/User/mcp.json}", settingsJSON, ".cursor/mcp.json (user and project)"),
		eb(".cursor/hooks.json", settingsJSON, ".cursor/hooks.json"),
		e("{.cursor/rules/**/*.{md,mdc},.cursorrules}", rules, ".cursor/rules, .cursorrules"),
		e(".cursor/commands/**/*.md", command, ".cursor/commands/*.md"),
		e(".cursor/agents/**/*.md", agentMD, ".cursor/agents/*.md"),
		e(".cursor/hooks/**", file(KindHookScript), ".cursor/hooks/ scripts"),
	}
	cursor = append(cursor, skillEntries(".cursor", "")...)

	vscode := []entry{
		eb("{**/User/mcp.json,**/User/profiles/*/mcp.json,.vscode/mcp.json}", settingsJSON, "mcp.json (user, profiles, project .vscode)"),
		eb("{**/User/settings.json,**/User/profiles/*/settings.json,.vscode/settings.json}", settingsJSON, "settings.json mcp.servers"),
		e("{**/User/prompts/*.prompt.md,.github/prompts/**/*.md}", command, "prompts/*.prompt.md"),
		e("{**/User/prompts/*.instructions.md,.github/copilot-instructions.md,.github/instructions/**/*.md}", rules, "instructions files, .github/copilot-instructions.md"),
		e("{**/User/prompts/*.{chatmode,agent}.md,.github/chatmodes/**/*.md,.github/agents/**/*.md}", agentMD, "chat modes and agents"),
	}

	kiro := []entry{
		eb("{.aws/amazonq/mcp.json,.amazonq/mcp.json,.kiro/settings/mcp.json}", settingsJSON, "mcp.json (Amazon Q, Kiro; user and project)"),
		e("{.aws/amazonq/cli-agents/*.json,.amazonq/cli-agents/*.json,.kiro/agents/*.json}", amazonQAgent, "agents (cli-agents/*.json, .kiro/agents/*.json: prompt, MCP servers, hooks)"),
		e("{.kiro/steering/**/*.md,.amazonq/rules/**/*.md}", rules, "steering and rules files"),
		e(".kiro/hooks/*.kiro.hook", kiroHook, ".kiro/hooks/*.kiro.hook"),
	}

	windsurfE := []entry{
		eb(windsurf+"/mcp_config.json", settingsJSON, "mcp_config.json"),
		eb("{"+windsurf+"/hooks.json,.codeium/hooks.json,.windsurf/hooks.json}", settingsJSON, "hooks.json"),
		e("{"+windsurf+"/memories/global_rules.md,"+windsurf+"/global_rules/**,.windsurfrules,.windsurf/rules/**/*.md}", rules, "global_rules.md, .windsurfrules, .windsurf/rules"),
		e("{"+windsurf+"/{global_workflows,workflows}/**/*.md,.windsurf/workflows/**/*.md}", command, "workflows"),
	}

	cline := []entry{
		e("{**/saoudrizwan.claude-dev/settings/cline_mcp_settings.json,.cline/data/settings/cline_mcp_settings.json}", settingsJSON, "cline_mcp_settings.json"),
		e("{Documents/Cline/Hooks/**,.cline/hooks/**,.clinerules/hooks/**}", file(KindHookScript), "hooks"),
		e("{Documents/Cline/Workflows/**,.cline/workflows/**,.clinerules/workflows/**}", command, "workflows"),
		e("{Documents/Cline/Rules/**,.cline/rules/**,.clinerules,.clinerules/**}", rules, "rules (.clinerules)"),
	}
	cline = append(cline, skillEntries(".cline", "")...)

	roo := []entry{
		e("{**/rooveterinaryinc.roo-cline/settings/mcp_settings.json,.roo/mcp.json}", settingsJSON, "mcp_settings.json, .roo/mcp.json"),
		e("{**/rooveterinaryinc.roo-cline/settings/custom_modes.{yaml,yml,json},.roomodes}", modesFile, "custom modes"),
		e(".roo/commands/**/*.md", command, ".roo/commands"),
		e("{.roo/rules/**,.roo/rules-*/**}", rules, ".roo/rules"),
	}

	cont := []entry{
		e("{.continue/config.yaml,.continue/mcpServers/*.{yaml,yml}}", yamlConfig, "config.yaml and mcpServers/*.yaml (mcpServers, rules, prompts)"),
		e(".continue/mcpServers/*.json", settingsJSON, "mcpServers/*.json"),
		e("{.continue/rules/**/*.md,.continuerules}", rules, "rules"),
		e(".continue/prompts/**", command, "prompts"),
	}

	opencode := []entry{
		eb("{.config/opencode/{opencode,config}.{json,jsonc},opencode.{json,jsonc}}", settingsJSON, "opencode.json (mcp, plugin, agent, command)"),
		e("{.config/opencode,.opencode}/{agent,agents}/**/*.md", agentMD, "agent/*.md"),
		e("{.config/opencode,.opencode}/{command,commands}/**/*.md", command, "command/*.md"),
		e("{.config/opencode,.opencode}/{plugin,plugins}/**", file(KindPluginFile), "plugin/ code"),
		e(".config/opencode/AGENTS.md", rules, "AGENTS.md"),
	}

	kilo := []entry{
		eb(".config/kilo/*.{json,jsonc}", settingsJSON, ".config/kilo/*.json"),
		e("{.kilocode,.kilo}/mcp.json", settingsJSON, "project mcp.json"),
		e(".kilocodemodes", modesFile, ".kilocodemodes"),
		e("{.kilocode,.kilo}/workflows/**/*.md", command, "workflows"),
		e("{.kilocode,.kilo}/rules/**", rules, "rules"),
	}

	augment := []entry{
		eb(".augment/settings.json", settingsJSON, ".augment/settings.json (hooks, mcpServers)"),
		e(".augment/rules/**/*.md", rules, "rules"),
		e(".augment/commands/**/*.md", command, "commands"),
		e(".augment/agents/**/*.md", agentMD, "agents"),
		e(".augment/hooks/**", file(KindHookScript), "hook scripts"),
		e(".augment-guidelines", rules, ".augment-guidelines"),
	}
	augment = append(augment, skillEntries(".augment", "")...)

	factory := []entry{
		eb(".factory/{settings,settings.local,mcp,hooks}.json", settingsJSON, ".factory/settings.json, mcp.json, hooks.json"),
		e(".factory/droids/**/*.md", agentMD, "droids"),
		e(".factory/commands/**/*.md", command, "commands"),
		e(".factory/hooks/**", file(KindHookScript), "hook scripts"),
	}
	factory = append(factory, skillEntries(".factory", "")...)

	// claudeFork is the layout of a Claude Code fork under its own home
	// folder (OpenClaude ~/.openclaude, Qoder ~/.qoder): settings.json and
	// settings.local.json, the global JSON file's MCP servers, agents,
	// commands, skills, output styles, rules, the memory file and hooks.
	claudeFork := func(dir, globalJSON, memory string) []entry {
		out := []entry{
			eb(dir+"/{settings,settings.local}.json", settingsJSON, dir+"/settings.json and settings.local.json (user and project; hooks, statusLine, apiKeyHelper, env names, enabledPlugins, extraKnownMarketplaces, mcpServers)"),
			eb(globalJSON, claudeJSON, globalJSON+" (user and local-scope MCP servers)"),
		}
		out = append(out, skillEntries(dir, "")...)
		return append(out,
			e(dir+"/agents/**/*.md", agentMD, dir+"/agents/*.md"),
			e(dir+"/commands/**/*.md", command, dir+"/commands/**/*.md"),
			e(dir+"/output-styles/**/*.md", markdown(KindStyle), dir+"/output-styles/*.md"),
			e(dir+"/rules/**/*.md", rules, dir+"/rules/*.md"),
			e(dir+"/"+memory, rules, dir+"/"+memory),
			e(dir+"/hooks/**", file(KindHookScript), dir+"/hooks/ scripts"),
		)
	}

	// kimi is Kimi Code (~/.kimi-code, a project's .kimi-code) and Kimi CLI
	// (~/.kimi): hooks in config.toml, MCP servers in mcp.json, the TUI's
	// helper commands, skills, AGENTS.md, hook scripts.
	kimi := []entry{
		eb("{.kimi-code,.kimi}/config.toml", kimiConfig, "config.toml [[hooks]] (~/.kimi-code, ~/.kimi; no other key read)"),
		eb(".kimi/config.json", kimiConfig, ".kimi/config.json hooks (Kimi CLI's older config)"),
		eb("{.kimi-code,.kimi}/mcp.json", settingsJSON, "mcp.json mcpServers (user and project .kimi-code/mcp.json)"),
		eb(".kimi-code/tui.toml", kimiTUI, "tui.toml [status_line].command, [editor].command"),
		e("{.kimi-code,.kimi}/AGENTS.md", rules, "AGENTS.md"),
		e(".kimi-code/hooks/**", file(KindHookScript), "hooks/ scripts"),
	}
	kimi = append(kimi, skillEntries(".kimi-code", "")...)
	kimi = append(kimi, skillEntries(".kimi", "")...)

	specs := []spec{
		{agent: "claude-code", entries: claude},
		{agent: "claude-desktop", entries: []entry{
			eb("**/{Claude,Claude-3p}/claude_desktop_config.json", settingsJSON, "claude_desktop_config.json (mcpServers)"),
			es("**/{Claude,Claude-3p}/Claude Extensions/*/manifest.json", pluginManifest, "Claude Extensions/*/manifest.json", "extension"),
		}},
		// The project .env is secret kind (read for its names only); auth.json
		// holds no control surface.
		{agent: "codex-cli", entries: codex, secret: true, notTargets: []string{"auth"}, version: 3},
		{agent: "gemini-cli", entries: geminiLike(".gemini", "GEMINI.md", "gemini-extension.json")},
		{agent: "qwen-code", entries: geminiLike(".qwen", "QWEN.md", "{qwen-extension,gemini-extension}.json")},
		{agent: "shared", entries: shared},
		{agent: "openclaude", entries: claudeFork(".openclaude", "{.openclaude.json,.openclaude/.openclaude.json}", "CLAUDE.md"), secret: true},
		{agent: "qoder", entries: claudeFork(".qoder", "{.qoder.json,.qoder-cn.json}", "AGENTS.md"), secret: true,
			notTargets: []string{"session-meta", "ide-session-meta"}}, // transcript side files, no control surface
		{agent: "iflow", entries: geminiLike(".iflow", "IFLOW.md", "{iflow-extension,gemini-extension}.json"), secret: true},
		{agent: "kimi-cli", entries: kimi, secret: true,
			notTargets: []string{"code-session-files", "code-file-history", "code-index-cache", "subagent-meta"}}, // session side files and copies, no control surface
		{agent: "copilot-cli", entries: copilot},
		{agent: "cursor", entries: cursor},
		{agent: "vscode", entries: vscode},
		{agent: "kiro", entries: kiro},
		{agent: "windsurf", entries: windsurfE},
		{agent: "cline", entries: cline},
		{agent: "roo-code", entries: roo},
		{agent: "continue", entries: cont, secret: true},
		{agent: "opencode", entries: opencode},
		{agent: "kilo-code", entries: kilo},
		{agent: "goose", entries: []entry{
			e("{.config/goose,AppData/Roaming/Block/goose/config}/config.yaml", yamlConfig, "config.yaml extensions"),
			e(".goosehints", rules, ".goosehints"),
		}},
		{agent: "crush", secret: true, entries: []entry{
			e("{.config/crush/crush.json,.local/share/crush/crush.json,AppData/Local/crush/crush.json,.crush/crush.json,crush.json,.crush.json}", settingsJSON, "crush.json mcp"),
			e("CRUSH.md", rules, "CRUSH.md"),
		}},
		{agent: "zed", entries: []entry{
			eb("{{.config/zed,AppData/Roaming/Zed,.var/app/dev.zed.Zed*/config/zed}/settings.json,.zed/settings.json}", settingsJSON, "settings.json context_servers"),
			e(".rules", rules, ".rules"),
		}},
		{agent: "amp", entries: []entry{
			eb(".config/amp/settings.{json,jsonc}", settingsJSON, "settings.json amp.mcpServers"),
			e("AGENT.md", rules, "AGENT.md"),
		}},
		{agent: "augment", entries: augment},
		{agent: "factory-droid", entries: factory, secret: true},
		{agent: "antigravity", entries: []entry{
			e(".gemini/{antigravity-cli,antigravity,antigravity-ide,config}/mcp_config.json", settingsJSON, "mcp_config.json"),
			e(".agent/workflows/**/*.md", command, ".agent/workflows"),
			e("{.agent/rules/**/*.md,GEMINI.md}", rules, ".agent/rules, GEMINI.md"),
		}},
	}
	for i := range specs {
		for _, t := range surfaceTargets(specs[i].agent) {
			if !slices.Contains(specs[i].notTargets, t) {
				specs[i].targets = append(specs[i].targets, t)
			}
		}
	}
	return specs
}

// surfaceTargets are an agent's catalog targets that may hold control
// surface files: every target but transcripts, stores, histories and logs,
// and the project artifacts.
func surfaceTargets(agent string) []string {
	a, ok := catalog.Lookup(agent)
	if !ok {
		return nil
	}
	var out []string
	for _, t := range a.Targets {
		switch t.Kind {
		case catalog.KindSettings, catalog.KindOther, catalog.KindSecret:
			out = append(out, t.ID)
		}
	}
	if len(a.ProjectFiles) > 0 {
		out = append(out, catalog.ProjectTarget)
	}
	sort.Strings(out)
	return out
}
