package findings

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const lockerLua = `{"file_path":"/home/u/vault/lock.lua","content":"for name in lfs.dir(dir) do\n local w = io.open(p .. \".locked\", \"wb\"); w:write(encrypt(data))\nend\n"}`

const scanLua = `{"file_path":"/home/u/vault/scan.lua","content":"local t = io.open(home .. \"/vault/target_file_list.log\", \"w\")\nfor name in lfs.dir(dir) do t:write(name) end\n"}`

// TestPromptLock: a locker-shaped write by a gpt-oss session, or by any
// session on a host holding a gpt-oss manifest, is reported with the rows
// that tie it to the model; either half alone is not. So is the scan
// phase: a call enumerating files into PromptLock's scan logs
// (scan.log, target_file_list.log), or a write of such a log, alone or
// with the locker (one finding, rows in order); the names as whole file
// names only, and a shell call merely naming a log is not one.
func TestPromptLock(t *testing.T) {
	manifest := &timeline.Row{Host: "h", User: "u", Agent: "ollama", TurnType: "system", Parser: "ollama/manifest", Model: "gpt-oss:20b",
		TimestampUTC: "2026-11-30T08:00:00.000Z", Text: "model manifest: gpt-oss:20b (registry.ollama.ai/library/gpt-oss:20b)"}
	other := &timeline.Row{Host: "h", User: "u", Agent: "ollama", TurnType: "system", Parser: "ollama/manifest", Model: "llama3.2:latest", Text: "model manifest: llama3.2:latest"}
	reply := func(model string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", TurnType: "assistant", Model: model, Text: "ok"}
	}
	call := func(action, input, text string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", TurnType: "tool_use", Action: action, ToolName: "Write", ToolInput: input, Text: text}
	}
	lock := call("file_write", lockerLua, "/home/u/vault/lock.lua")
	for _, c := range []struct {
		name string
		rows []*timeline.Row
		want string
	}{
		{"session model", []*timeline.Row{reply("gpt-oss:20b"), lock},
			`2,1 row 2 (file_write Write) enumerates files ("lfs.dir") and encrypts or locks them (".locked"); the session's model is gpt-oss:20b (row 1): the PromptLock shape (a local gpt-oss model writing a file locker); check whether the script ran and what it touched`},
		{"host manifest", []*timeline.Row{reply("claude-sonnet-4-5"), lock, manifest},
			`2,3 row 2 (file_write Write) enumerates files ("lfs.dir") and encrypts or locks them (".locked"); this host's Ollama holds gpt-oss:20b (row 3: 2026-11-30T08:00:00.000Z): the PromptLock shape (a local gpt-oss model writing a file locker); check whether the script ran and what it touched`},
		{"shell, both", []*timeline.Row{manifest, reply("gpt-oss:120b"), call("execute", `{"command":"find ~ -type f -name '*.docx' -exec openssl enc -aes-256-cbc -in {} -out {}.enc \\;"}`, "find ~ -type f ... openssl enc")},
			`3,2,1 row 3 (execute Write) enumerates files ("find ~ -type f") and encrypts or locks them ("openssl enc"); the session's model is gpt-oss:120b (row 2); this host's Ollama holds gpt-oss:20b (row 1: 2026-11-30T08:00:00.000Z)`},
		{"no gpt-oss", []*timeline.Row{other, reply("qwen3:8b"), lock}, ""},
		{"manifest on another host", []*timeline.Row{{Host: "h2", Agent: "ollama", TurnType: "system", Parser: "ollama/manifest", Model: "gpt-oss:20b"}, lock}, ""},
		{"enumeration only", []*timeline.Row{reply("gpt-oss:20b"), call("file_write", `{"content":"for name in lfs.dir(dir) do print(name) end"}`, "ls.lua")}, ""},
		{"encryption only", []*timeline.Row{reply("gpt-oss:20b"), call("file_write", `{"content":"local c = encrypt(io.read('a'))"}`, "enc.lua")}, ""},
		{"words, not parts of words", []*timeline.Row{reply("gpt-oss:20b"), call("file_write", `{"content":"for d, _, fs in os.walk(top): print(caesar(speckle), subtle_btcx)"}`, "walk.py")}, ""},
		{"case and a shape after find", []*timeline.Row{reply("GPT-OSS:20B"), call("execute", `{"command":"FIND / -type f | xargs -I{} mv {} {}.ENCRYPTED"}`, "FIND / -type f")},
			`2,1 row 2 (execute Write) enumerates files ("FIND / -type f") and encrypts or locks them (".ENCRYPTED"); the session's model is GPT-OSS:20B (row 1)`},
		{"a read is not a write", []*timeline.Row{reply("gpt-oss:20b"), call("file_read", lockerLua, "/home/u/vault/lock.lua")}, ""},
		{"scan script", []*timeline.Row{reply("gpt-oss:20b"), call("file_write", scanLua, "/home/u/vault/scan.lua")},
			`2,1 row 2 (file_write Write) enumerates files ("lfs.dir") and writes what it finds to "target_file_list.log" (PromptLock's scan logs are scan.log, the file-system inventory, and target_file_list.log, the files picked for their contents); the session's model is gpt-oss:20b (row 1): the PromptLock shape, its scan phase (a local gpt-oss model listing the files a locker would take; no locker call in this session's records); check whether the logs exist, what they list, and what ran next`},
		{"scan by shell, then the locker", []*timeline.Row{manifest, call("execute", `{"command":"find ~ -type f > ~/vault/scan.log"}`, "find ~ -type f > ~/vault/scan.log"), lock},
			`2,3,1 row 3 (file_write Write) enumerates files ("lfs.dir") and encrypts or locks them (".locked"); row 2 (execute Write) enumerates files ("find ~ -type f") and writes what it finds to "scan.log" (PromptLock's scan logs are`},
		{"the log written itself", []*timeline.Row{reply("gpt-oss:20b"), call("file_write", `{"file_path":"/home/u/vault/Scan.log","content":"/home/u/Documents/q3.txt\n"}`, "/home/u/vault/Scan.log")},
			`2,1 row 2 (file_write Write) writes /home/u/vault/Scan.log (PromptLock's`},
		{"a scan log without enumeration, by shell", []*timeline.Row{reply("gpt-oss:20b"), call("execute", `{"command":"tail -n 5 scan.log"}`, "tail -n 5 scan.log")}, ""},
		{"another log name", []*timeline.Row{reply("gpt-oss:20b"), call("execute", `{"command":"find . -type f > portscan.log"}`, "find . -type f > portscan.log"), call("file_write", `{"file_path":"/x/myscan.log"}`, "/x/myscan.log")}, ""},
		{"scan log on another model", []*timeline.Row{other, reply("qwen3:8b"), call("file_write", scanLua, "/home/u/vault/scan.lua")}, ""},
	} {
		got := strings.Join(runDetector(NewPromptLock(), c.rows), "\n")
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q...", c.name, got, c.want)
		}
	}
}
