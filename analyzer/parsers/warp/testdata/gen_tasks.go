//go:build ignore

// gen_tasks writes typical.sql: Warp's tables (crates/persistence/src/schema.rs
// at warpdotdev/warp 19548ae) with task blobs encoded by the field numbers of
// task.proto (warp-proto-apis 00f7916). Run: go run gen_tasks.go > typical.sql
package main

import (
	"encoding/hex"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

func s(n protowire.Number, v string) []byte { return by(n, []byte(v)) }
func by(n protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, n, protowire.BytesType), v)
}
func vi(n protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, n, protowire.VarintType), v)
}
func cat(bs ...[]byte) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}
func ts(sec uint64) []byte { return by(14, cat(vi(1, sec), vi(2, 500000000))) }

// msg builds a Message: id 1, the content oneof field, task_id 11, timestamp 14.
func msg(id string, kind protowire.Number, body []byte, task string, sec uint64) []byte {
	m := cat(s(1, id), by(kind, body), s(11, task), s(13, "req-1"))
	if sec > 0 {
		m = append(m, ts(sec)...)
	}
	return by(5, m)
}

const t0 = 1795510800 // 2026-11-24T09:00:00Z

func main() {
	root := cat(s(1, "task-root"), s(2, "Root task"),
		msg("m1", 2, s(1, "find the leaked key and delete it"), "task-root", t0),
		msg("m2", 15, s(1, "Search the repo first."), "task-root", t0+5),
		msg("m3", 3, s(1, "Searching for keys."), "task-root", t0+5),
		msg("m4", 4, cat(s(1, "call-1"), by(2, s(1, "grep -rn AKIA ."))), "task-root", t0+6),
		msg("m5", 5, cat(s(1, "call-1"), by(2, s(1, "./.env:3:AKIA_REDACTED"))), "task-root", t0+7),
		msg("m6", 4, cat(s(1, "call-2"), by(5, by(1, s(1, "/home/ex/proj/.env")))), "task-root", t0+8),
		msg("m7", 5, cat(s(1, "call-2"), by(14, nil)), "task-root", t0+9),
		msg("m8", 4, cat(s(1, "call-3"), by(19, cat(s(1, "task-sub"), s(2, "research key rotation")))), "task-root", t0+10),
		msg("m9", 6, s(1, "opaque"), "task-root", t0+10),
		msg("m10", 25, s(1, "claude-4-sonnet"), "task-root", t0+11),
		by(5, cat(s(1, "m11"), s(11, "task-root"))),
		msg("m12", 16, by(1, cat(s(1, "User wants the key gone."), vi(2, 120))), "task-root", 0),
	)
	child := cat(s(1, "task-sub"), s(2, "Research"), by(3, s(1, "task-root")),
		msg("c1", 3, s(1, "Rotate the key in the console."), "task-sub", t0+20),
	)
	fmt.Print(`CREATE TABLE agent_conversations (id INTEGER PRIMARY KEY NOT NULL, conversation_id TEXT NOT NULL, conversation_data TEXT NOT NULL, last_modified_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, summary TEXT);
CREATE TABLE agent_tasks (id INTEGER PRIMARY KEY NOT NULL, conversation_id TEXT NOT NULL, task_id TEXT NOT NULL, task BLOB NOT NULL, last_modified_at TIMESTAMP NOT NULL);
CREATE TABLE ai_queries (id INTEGER PRIMARY KEY NOT NULL, exchange_id TEXT NOT NULL, conversation_id TEXT NOT NULL, start_ts DATETIME NOT NULL, input TEXT NOT NULL, working_directory TEXT, output_status TEXT NOT NULL, model_id TEXT NOT NULL DEFAULT '', planning_model_id TEXT NOT NULL DEFAULT '', coding_model_id TEXT NOT NULL DEFAULT '');
CREATE TABLE commands (id INTEGER PRIMARY KEY NOT NULL, command TEXT NOT NULL, exit_code INTEGER, start_ts DATETIME, completed_ts DATETIME, pwd TEXT, shell TEXT, username TEXT, hostname TEXT, session_id BIGINT, git_branch TEXT, cloud_workflow_id TEXT, workflow_command TEXT, is_agent_executed BOOLEAN);
INSERT INTO agent_conversations VALUES (1, 'conv-1', '{"server_conversation_token":"tok-SECRET","conversation_usage_metadata":{"token_usage":[{"model_id":"Claude 4 Sonnet","warp_tokens":1200,"byok_tokens":0}],"tool_usage_metadata":{"run_command_stats":{"count":1,"commands_executed":1},"read_files_stats":{"count":1},"grep_stats":{"count":0}}},"reverted_action_ids":["call-9"]}', '2026-11-24 09:05:00', 'Deleting a leaked key');
INSERT INTO agent_conversations VALUES (2, 'conv-2', 'not json', '2026-11-24 10:00:00', NULL);
INSERT INTO agent_conversations VALUES (3, 'conv-child', '{"parent_conversation_id":"conv-1","agent_name":"Researcher"}', '2026-11-24 09:06:00', NULL);
`)
	fmt.Printf("INSERT INTO agent_tasks VALUES (1, 'conv-1', 'task-root', X'%s', '2026-11-24 09:05:00');\n", hex.EncodeToString(root))
	fmt.Printf("INSERT INTO agent_tasks VALUES (2, 'conv-1', 'task-sub', X'%s', '2026-11-24 09:05:01');\n", hex.EncodeToString(child))
	fmt.Print(`INSERT INTO agent_tasks VALUES (3, 'conv-1', 'task-bad', X'ffffffff', '2026-11-24 09:05:02');
INSERT INTO ai_queries VALUES (1, 'ex-1', 'conv-1', '2026-11-24 08:59:58.250000', '[{"Query":{"text":"find the leaked key and delete it","context":[]}}]', '/home/ex/proj', '"Completed"', 'auto', '', '');
INSERT INTO ai_queries VALUES (2, 'ex-2', 'conv-1', '2026-11-24 09:00:06', '[]', '/home/ex/proj', '"Completed"', 'auto', '', '');
INSERT INTO ai_queries VALUES (3, 'ex-3', 'conv-2', '2026-11-24 10:00:00', '[{"Query":{"text":"a query whose task is gone","context":[]}}]', NULL, '"Completed"', 'auto', '', '');
INSERT INTO ai_queries VALUES (4, 'ex-4', 'conv-2', '2026-11-24 10:00:01', '{broken', NULL, '"Failed"', '', '', '');
INSERT INTO commands VALUES (1, 'grep -rn AKIA .', 0, '2026-11-24 09:00:06', '2026-11-24 09:00:07', '/home/ex/proj', 'bash', 'ex', 'box', 7, 'main', NULL, NULL, 1);
INSERT INTO commands VALUES (2, 'ls -la', 0, '2026-11-24 09:10:00', '2026-11-24 09:10:00', '/home/ex', 'bash', 'ex', 'box', 7, NULL, NULL, NULL, 0);
`)
}
