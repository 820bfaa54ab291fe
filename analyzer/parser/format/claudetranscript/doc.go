// Package claudetranscript reads the Claude Code transcript format: the
// JSON Lines session files (.claude/projects/<slug>/<session>.jsonl, the
// subagent files agent-<id>.jsonl beside them or under
// <session>/subagents/) with their user, assistant, system, progress,
// attachment and bookkeeping records, inline sidechains, forks and
// resumes, persisted tool outputs and permission decisions. Claude Code
// writes it (analyzer/parsers/claudecode), Claude desktop's Cowork and
// Code-tab sessions write it (analyzer/parsers/claudedesktop), and forks
// and look-alikes write flavours of it. An agent package reads a file with
// Parse and its Options (the agent the session states name); its Spec,
// paths and actions stay in the agent's package. Actions is Claude Code's
// tool table; Injected tells the text Claude Code writes into a user
// record from text a person typed.
//
// Rows, record ids, accounting and sources are those listed in
// analyzer/parsers/claudecode/doc.go (Claude Code is closed source: the
// format is learned from real transcripts, releases run here and public
// reports, each named there).
package claudetranscript
