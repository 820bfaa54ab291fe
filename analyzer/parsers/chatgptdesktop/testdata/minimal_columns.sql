-- Synthetic: only the two columns the parser needs; a row without a
-- thread_id is a problem, not a crash.
CREATE TABLE local_thread_catalog (thread_id TEXT, source_kind TEXT);
INSERT INTO local_thread_catalog VALUES ('conv-min', 'chatgpt'), (NULL, 'chatgpt'), ('thread-x', 'vscode');
