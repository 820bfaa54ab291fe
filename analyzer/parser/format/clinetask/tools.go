package clinetask

import (
	"bytes"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// argKeys are the arguments that best identify a call, in order.
var argKeys = []string{"command", "path", "absolutePath", "file_path", "url", "uri", "regex", "pattern", "query",
	"filePattern", "question", "result", "response", "message", "mode", "mode_slug", "skill_name", "action", "content"}

// ToolArg returns a call's most identifying argument from its JSON input
// (an object): the shell command, the file path, the URL, the pattern...
// For an MCP call, "<server>/<tool>".
func ToolArg(input json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	server := firstString(m, "server_name", "serverName")
	if server != "" {
		if t := firstString(m, "tool_name", "toolName"); t != "" {
			return server + "/" + t
		}
		if u := firstString(m, "uri"); u != "" {
			return server + " " + u
		}
		return server
	}
	if s := firstString(m, argKeys...); s != "" {
		return s
	}
	for _, k := range []string{"args", "files", "paths"} {
		if v, ok := m[k]; ok {
			return parser.CompactJSON(v)
		}
	}
	return ""
}

func firstString(m map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		v, ok := m[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// xmlTools are the tool names older Cline and Roo Code versions wrote as
// XML tags in the assistant's text (<read_file><path>x</path></read_file>).
var xmlTools = map[string]bool{
	"execute_command": true, "read_file": true, "write_to_file": true, "replace_in_file": true, "apply_diff": true,
	"search_files": true, "list_files": true, "list_code_definition_names": true, "browser_action": true,
	"use_mcp_tool": true, "access_mcp_resource": true, "ask_followup_question": true, "attempt_completion": true,
	"new_task": true, "plan_mode_respond": true, "load_mcp_documentation": true, "insert_content": true,
	"search_and_replace": true, "switch_mode": true, "fetch_instructions": true, "codebase_search": true,
	"update_todo_list": true, "web_fetch": true, "new_rule": true, "condense": true, "summarize_task": true,
	"report_bug": true, "use_skill": true, "run_slash_command": true, "generate_image": true, "edit_file": true,
	"apply_patch": true, "focus_chain": true, "web_search": true, "write_file": true,
}

// xmlCall is one XML tool call found in assistant text.
type xmlCall struct {
	name  string
	input json.RawMessage
}

// splitXMLCalls finds XML tool calls (known names only) and <thinking>
// blocks in assistant text. It returns the text left outside them, the
// thinking texts and the calls, in order of appearance of calls.
func splitXMLCalls(s string) (rest string, thinking []string, calls []xmlCall) {
	if !strings.Contains(s, "<") {
		return s, nil, nil
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		j += i
		k := strings.IndexByte(s[j:], '>')
		if k < 0 {
			b.WriteString(s[i:])
			break
		}
		name := s[j+1 : j+k]
		if name == "thinking" || xmlTools[name] {
			closeTag := "</" + name + ">"
			end := strings.Index(s[j+k+1:], closeTag)
			var body string
			next := len(s)
			if end < 0 {
				body = s[j+k+1:] // an unclosed call at the end (cut stream)
			} else {
				body = s[j+k+1 : j+k+1+end]
				next = j + k + 1 + end + len(closeTag)
			}
			b.WriteString(s[i:j])
			if name == "thinking" {
				thinking = append(thinking, strings.TrimSpace(body))
			} else {
				calls = append(calls, xmlCall{name: name, input: xmlParams(body)})
			}
			i = next
			continue
		}
		b.WriteString(s[i : j+1])
		i = j + 1
	}
	return b.String(), thinking, calls
}

// xmlParams reads <param>value</param> children into a JSON object.
func xmlParams(body string) json.RawMessage {
	m := map[string]string{}
	var order []string
	i := 0
	for i < len(body) {
		j := strings.IndexByte(body[i:], '<')
		if j < 0 {
			break
		}
		j += i
		k := strings.IndexByte(body[j:], '>')
		if k < 0 {
			break
		}
		name := body[j+1 : j+k]
		if name == "" || strings.ContainsAny(name, " /\n") {
			i = j + 1
			continue
		}
		closeTag := "</" + name + ">"
		end := strings.LastIndex(body[j+k+1:], closeTag)
		if end < 0 {
			i = j + 1
			continue
		}
		val := body[j+k+1 : j+k+1+end]
		if _, dup := m[name]; !dup {
			order = append(order, name)
		}
		m[name] = strings.Trim(val, "\n")
		i = j + k + 1 + end + len(closeTag)
	}
	// Keep the tag order in the JSON.
	var b strings.Builder
	b.WriteByte('{')
	for n, k := range order {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(quote(k))
		b.WriteByte(':')
		b.WriteString(quote(m[k]))
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// quote renders s as a JSON string without HTML escaping.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(b.String(), "\n")
}
