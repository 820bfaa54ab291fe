package catalog

import "strings"

// agents is the table: one list, assembled from the alphabetical ranges in
// agents_<range>.go. Keep each range in alphabetical order of Name. The
// paths come from the research seed (agents-catalog.md); docs/agents.md is
// generated from this list.
//
// Ownership. A path is reported once per walk. A path the targets of two
// agents both match is its owner's (shared.go: SharedTargets, each pair
// decided by which glob names more of the path; TestSharedPaths computes
// every such pair), and a folder two agents name is its owner's
// (SharedFolders), never the first agent's by name. Otherwise a file one
// agent collects and others read is listed under exactly that one, and
// its Notes say so: the editors' state.vscdb belongs to vscode,
// cursor, windsurf, kiro or pearai (the extensions that keep rows in it,
// cody, cline, roo-code, tabby and twinny, read it from there), Codex's
// sqlite/codex-dev.db belongs to codex-cli (chatgpt-desktop reads it), and
// .copilot/session-state belongs to copilot-cli (copilot-desktop reads it).
// Within an agent, specific targets come before catch-all ones.
var agents = concatAgents(agentsAToC, agentsDToK, agentsLToO, agentsPToZ)

func concatAgents(parts ...[]Agent) []Agent {
	var out []Agent
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// OS sets used by the table.
var (
	unixOS    = []OS{Linux, Darwin}
	linuxOS   = []OS{Linux}
	darwinOS  = []OS{Darwin}
	windowsOS = []OS{Windows}
	macWinOS  = []OS{Darwin, Windows}
)

// Size defaults for targets that can grow without bound.
const (
	mib        = int64(1) << 20
	logMax     = 64 * mib  // rotating logs, event logs
	storeMax   = 256 * mib // catch-all stores and uploads
	sqliteMax  = 2048 * mib
	outputsMax = 32 * mib // copied tool outputs, snapshots, uploads
)

// forksBrace is a glob alternative of every VS Code fork's product folder,
// for paths beside User (logs).
var forksBrace = "{" + strings.Join(VSCodeForks, ",") + "}"

// electronExcludes are the Chromium profile directories of Electron apps
// that hold caches only.
var electronExcludes = []string{"Service Worker", "DawnCache", "DawnGraphiteCache", "DawnWebGPUCache", "ShaderCache", "GrShaderCache", "component_crx_cache", "extensions_crx_cache", "WebStorage", "VideoDecodeStats"}
