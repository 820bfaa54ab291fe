package codexhome

import json "github.com/go-json-experiment/json/v1"

// MaxConfigBytes bounds how much of a Codex home's TOML or text file
// (config.toml, rules, memories, automations) is read.
const MaxConfigBytes = maxConfigBytes

// RenderValue renders a decoded TOML or JSON value as config rows show it:
// a string as itself, nil as "", anything else as compact JSON.
func RenderValue(v any) string { return renderValue(v) }

// PolicyName renders an approval or sandbox policy: a string, or an object
// whose "type" (or "mode") names it.
func PolicyName(raw json.RawMessage) string { return policyName(raw) }
