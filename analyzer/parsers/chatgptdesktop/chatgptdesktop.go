package chatgptdesktop

import "github.com/doubleagent/doubleagent/analyzer/parser"

// Agent is the catalog name of the ChatGPT desktop app; rows carry it.
const Agent = "chatgpt-desktop"

// FileAgent is the catalog agent whose target holds codex-dev.db.
const FileAgent = "codex-cli"

// Parsers returns the ChatGPT desktop app parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{ThreadCatalog()}
}
