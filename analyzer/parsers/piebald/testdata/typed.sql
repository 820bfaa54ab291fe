-- Piebald app.db, the typed-parts schema: the shape Piebald-AI/splitrail
-- caa74804 tests (src/analyzers/piebald_schema_tests.rs): messages without
-- model and token columns and with message_kind, message_generations,
-- message_parts.part_subtype (tool parts read_file, mcp; a context part
-- agent_rules on a context_container message), tool_execution_context
-- with message_part_id only, no message_part_tool_call. Synthetic.
CREATE TABLE projects (id INTEGER PRIMARY KEY, directory TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE chats (id INTEGER PRIMARY KEY, title TEXT NOT NULL, model TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, is_deleted BOOLEAN NOT NULL DEFAULT 0, message_count INTEGER NOT NULL DEFAULT 0, current_directory TEXT, project_id INTEGER);
CREATE TABLE messages (id INTEGER PRIMARY KEY, parent_chat_id INTEGER NOT NULL, parent_message_id INTEGER, role TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, status TEXT NOT NULL, error TEXT, enabled INTEGER NOT NULL DEFAULT 1, message_kind TEXT NOT NULL DEFAULT 'normal');
CREATE TABLE message_generations (message_id INTEGER PRIMARY KEY, model TEXT, config_id INTEGER, input_tokens INTEGER, output_tokens INTEGER, reasoning_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER);
CREATE TABLE message_parts (id INTEGER PRIMARY KEY, parent_chat_message_id INTEGER NOT NULL, part_index INTEGER NOT NULL, part_type TEXT NOT NULL, part_subtype TEXT);
CREATE TABLE message_part_text (message_part_id INTEGER PRIMARY KEY, is_thinking BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE message_content_nodes (id INTEGER PRIMARY KEY, parent_text_part_id INTEGER NOT NULL, node_index INTEGER NOT NULL, node_type TEXT NOT NULL);
CREATE TABLE message_node_text (node_id INTEGER PRIMARY KEY, content TEXT NOT NULL);
CREATE TABLE tool_execution_context (message_part_id INTEGER PRIMARY KEY);
INSERT INTO projects VALUES (1, '/home/alice/app', 'app');
INSERT INTO chats VALUES (50, 'Schema compatibility', 'gpt-5.4', '2026-11-27T12:00:00Z', '2026-11-27T12:00:09Z', 0, 4, '/home/alice/app', 1);
INSERT INTO messages VALUES (1, 50, NULL, 'user', '2026-11-27T12:00:00Z', '2026-11-27T12:00:00Z', 'completed', NULL, 1, 'normal');
INSERT INTO messages VALUES (2, 50, 1, 'assistant', '2026-11-27T12:00:01Z', '2026-11-27T12:00:05Z', 'completed', NULL, 1, 'normal');
INSERT INTO messages VALUES (3, 50, 2, 'assistant', '2026-11-27T12:00:02Z', '2026-11-27T12:00:06Z', 'completed', NULL, 1, 'normal');
INSERT INTO messages VALUES (5, 50, 3, 'user', '2026-11-27T12:00:04Z', '2026-11-27T12:00:08Z', 'completed', NULL, 1, 'context_container');
INSERT INTO message_generations VALUES (2, 'gpt-5.5', 20, 1000, 200, 30, 100, 50);
INSERT INTO message_generations VALUES (3, NULL, 30, 500, 100, 10, 0, 0);
INSERT INTO message_generations VALUES (9, 'gpt-5.5', 20, 7, 1, 0, 0, 0);
INSERT INTO message_parts VALUES (1, 1, 0, 'text', NULL);
INSERT INTO message_part_text VALUES (1, 0);
INSERT INTO message_content_nodes VALUES (10, 1, 0, 'text');
INSERT INTO message_node_text VALUES (10, 'Read the config and list the MCP servers.');
INSERT INTO message_parts VALUES (2, 2, 0, 'text', NULL);
INSERT INTO message_part_text VALUES (2, 0);
INSERT INTO message_content_nodes VALUES (20, 2, 0, 'text');
INSERT INTO message_node_text VALUES (20, 'Reading it now.');
INSERT INTO message_parts VALUES (3, 2, 1, 'tool', 'read_file');
INSERT INTO tool_execution_context VALUES (3);
INSERT INTO message_parts VALUES (4, 2, 2, 'tool', 'mcp');
INSERT INTO tool_execution_context VALUES (4);
INSERT INTO message_parts VALUES (6, 3, 0, 'tool', 'streaming');
INSERT INTO message_parts VALUES (7, 5, 0, 'context', 'agent_rules');
INSERT INTO message_parts VALUES (8, 5, 1, 'text', NULL);
INSERT INTO message_part_text VALUES (8, 0);
INSERT INTO message_content_nodes VALUES (80, 8, 0, 'text');
INSERT INTO message_node_text VALUES (80, 'Always run the tests before committing.');
INSERT INTO tool_execution_context VALUES (11);
