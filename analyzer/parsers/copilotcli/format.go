package copilotcli

import "github.com/doubleagent/doubleagent/analyzer/parser/format/copilottools"

// Actions is the Copilot runtime's tool table (parser/format/copilottools),
// which Copilot Desktop shares.
var Actions = copilottools.Actions
