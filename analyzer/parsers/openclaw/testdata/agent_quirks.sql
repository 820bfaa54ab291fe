CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY,
  current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  legacy_acp_migration_json TEXT,
  entry_valid INTEGER NOT NULL DEFAULT 0 CHECK (entry_valid IN (-1, 0, 1)),
  updated_at INTEGER NOT NULL,
  status TEXT CHECK (status IS NULL OR status IN ('running', 'done', 'failed', 'killed', 'timeout')),
  created_at INTEGER,
  created_via TEXT CHECK (created_via IS NULL OR created_via IN ('operator', 'spawn', 'channel', 'cron', 'talk', 'run', 'plugin', 'internal')),
  created_actor_type TEXT CHECK (created_actor_type IS NULL OR created_actor_type IN ('human', 'agent', 'system')),
  created_actor_id TEXT,
  owner_actor_type TEXT,
  owner_actor_id TEXT,
  owner_assigned_by_type TEXT,
  owner_assigned_by_id TEXT,
  owner_assigned_at INTEGER,
  project_id TEXT,
  parent_session_key TEXT,
  spawned_by TEXT,
  fork_source_session_key TEXT,
  fork_source_session_id TEXT,
  fork_source_entry_id TEXT,
  label TEXT,
  display_name TEXT,
  category TEXT,
  icon TEXT,
  pinned_at INTEGER,
  archived_at INTEGER,
  last_read_at INTEGER,
  last_interaction_at INTEGER,
  last_activity_at INTEGER
) STRICT;
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY,
  session_key TEXT NOT NULL,
  previous_session_id TEXT,
  reason TEXT CHECK (reason IS NULL OR reason IN ('initial', 'reset', 'rollover', 'fork', 'rewind', 'switch', 'recovery', 'compaction')),
  session_scope TEXT NOT NULL DEFAULT 'conversation' CHECK (session_scope IN ('conversation', 'shared-main', 'group', 'channel')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  transcript_updated_at INTEGER DEFAULT NULL,
  transcript_observed_at INTEGER DEFAULT NULL,
  session_entry_provenance INTEGER NOT NULL DEFAULT 0 CHECK (session_entry_provenance IN (0, 1)),
  acp_owned INTEGER NOT NULL DEFAULT 0 CHECK (acp_owned IN (0, 1)),
  plugin_owner_id TEXT,
  hook_external_content_source TEXT CHECK (hook_external_content_source IS NULL OR hook_external_content_source IN ('gmail', 'webhook')),
  started_at INTEGER,
  ended_at INTEGER,
  status TEXT CHECK (status IS NULL OR status IN ('running', 'done', 'failed', 'killed', 'timeout')),
  chat_type TEXT CHECK (chat_type IS NULL OR chat_type IN ('direct', 'group', 'channel')),
  channel TEXT,
  account_id TEXT,
  primary_conversation_id TEXT,
  model_provider TEXT,
  model TEXT,
  agent_harness_id TEXT,
  parent_session_key TEXT,
  spawned_by TEXT,
  display_name TEXT,
  FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE,
  FOREIGN KEY (primary_conversation_id) REFERENCES conversations(conversation_id) ON DELETE SET NULL
) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT,
  created_at INTEGER NOT NULL,
  event_zstd BLOB,
  event_utf8_bytes INTEGER CHECK (event_utf8_bytes IS NULL OR event_utf8_bytes >= 0),
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE,
  CHECK (
    (event_json IS NOT NULL AND event_zstd IS NULL)
    OR (
      event_json IS NULL AND event_zstd IS NOT NULL
      AND event_utf8_bytes IS NOT NULL
      AND event_utf8_bytes BETWEEN 1 AND 4194304
      AND length(event_zstd) BETWEEN 1 AND 4194304
      AND navigation_json IS NOT NULL
    )
  ),
  CHECK (
    navigation_json IS NULL OR CASE WHEN json_valid(navigation_json) THEN coalesce(
      octet_length(navigation_json) <= 16384
      AND json_type(navigation_json, '$.version') = 'integer'
      AND json_extract(navigation_json, '$.version') = 1
      AND json_type(navigation_json, '$.report') = 'object'
      AND json_extract(navigation_json, '$.report.kind') IN ('canonical', 'leaf', 'link', 'ignored')
      AND json_type(navigation_json, '$.navigation') = 'object'
      AND json_type(navigation_json, '$.reset') = 'object'
      AND json_type(navigation_json, '$.model') = 'object'
      AND json_type(navigation_json, '$.modelBytes') = 'integer'
      AND json_extract(navigation_json, '$.modelBytes') BETWEEN 0 AND 4194304
      AND json_type(navigation_json, '$.modelWithoutCheckpointBytes') = 'integer'
      AND json_extract(navigation_json, '$.modelWithoutCheckpointBytes') BETWEEN 0 AND 4194304
      AND json_type(navigation_json, '$.withoutCustomDataBytes') = 'integer'
      AND json_extract(navigation_json, '$.withoutCustomDataBytes') BETWEEN 0 AND 4194304,
      0) ELSE 0 END
  )
) STRICT;
CREATE TABLE session_pending_inputs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  input_id TEXT NOT NULL UNIQUE,
  session_key TEXT NOT NULL,
  session_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  run_id TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  message_json TEXT NOT NULL,
  lifecycle_generation TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'interrupted', 'cancelled')),
  accepted_at INTEGER NOT NULL,
  consumed_event_id TEXT,
  UNIQUE (session_id, idempotency_key),
  FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE,
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE
) STRICT;
CREATE TABLE conversations (
  conversation_id TEXT NOT NULL PRIMARY KEY,
  channel TEXT NOT NULL,
  account_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('direct', 'group', 'channel')),
  peer_id TEXT NOT NULL,
  delivery_target TEXT NOT NULL,
  parent_conversation_id TEXT,
  thread_id TEXT,
  native_channel_id TEXT,
  native_direct_user_id TEXT,
  label TEXT,
  metadata_json TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE session_conversations (
  session_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'primary' CHECK (role IN ('primary', 'participant', 'related')),
  route_context_json TEXT,
  first_seen_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, conversation_id, role),
  FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE,
  FOREIGN KEY (conversation_id) REFERENCES conversations(conversation_id) ON DELETE CASCADE
) STRICT;
CREATE TABLE conversation_deliveries (
  operation_id TEXT NOT NULL PRIMARY KEY,
  operation_kind TEXT NOT NULL CHECK (operation_kind IN ('send', 'turn')),
  conversation_id TEXT NOT NULL,
  source_session_key TEXT,
  message_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('created', 'queued', 'sent', 'suppressed', 'rejected', 'unknown', 'replied')),
  prepared_message_id TEXT,
  platform_message_id TEXT,
  queue_id TEXT,
  rejection_error TEXT,
  reply_message_id TEXT,
  reply_to_id TEXT,
  reply_thread_id TEXT,
  reply_text TEXT,
  reply_timestamp INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK (
    (status = 'rejected' AND rejection_error IS NOT NULL) OR
    (status != 'rejected' AND rejection_error IS NULL)
  ),
  FOREIGN KEY (conversation_id) REFERENCES conversations(conversation_id) ON DELETE CASCADE
) STRICT;
CREATE TABLE session_transcript_archives (
  session_id TEXT NOT NULL,
  generation TEXT NOT NULL,
  session_key TEXT NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('deleted', 'reset')),
  encoding TEXT NOT NULL CHECK (encoding IN ('identity', 'zstd')),
  archive_blob BLOB NOT NULL,
  archive_sha256 TEXT NOT NULL CHECK (length(archive_sha256) = 64),
  archive_name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  published_at INTEGER,
  publish_attempts INTEGER NOT NULL DEFAULT 0 CHECK (publish_attempts >= 0),
  last_publish_attempt_at INTEGER,
  last_publish_error TEXT,
  PRIMARY KEY (session_id, generation),
  CHECK (archive_name NOT LIKE '%/%' AND archive_name NOT LIKE '%\%')
) STRICT;
CREATE TABLE session_transcript_cold_archives (
  session_id TEXT NOT NULL PRIMARY KEY,
  generation TEXT NOT NULL,
  archive_name TEXT NOT NULL UNIQUE,
  archive_sha256 TEXT NOT NULL CHECK (length(archive_sha256) = 64),
  event_count INTEGER NOT NULL CHECK (event_count >= 1),
  raw_bytes INTEGER NOT NULL CHECK (raw_bytes >= 0),
  archive_bytes INTEGER NOT NULL CHECK (archive_bytes >= 0),
  last_seq INTEGER NOT NULL,
  archived_at INTEGER NOT NULL,
  storage TEXT NOT NULL CHECK (storage IN ('file', 'sqlite')),
  archive_blob BLOB,
  FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE,
  CHECK (length(archive_name) > 0 AND archive_name NOT IN ('.', '..') AND archive_name NOT LIKE '%/%' AND archive_name NOT LIKE '%\%'),
  CHECK ((storage = 'file' AND archive_blob IS NULL) OR (storage = 'sqlite' AND archive_blob IS NOT NULL))
) STRICT;
CREATE TABLE memory_session_tombstones (
  session_id TEXT NOT NULL PRIMARY KEY,
  agent_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE trajectory_runtime_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  run_id TEXT,
  event_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE
) STRICT;
CREATE TABLE session_transcript_fts_content(id INTEGER PRIMARY KEY, c0, c1, c2, c3, c4);
-- Synthetic rows (schema above: openclaw 2026.9.6's own DDL, from the real-agents-4 database).
INSERT INTO session_nodes (session_key, current_session_id, entry_json, entry_valid, updated_at, created_at, created_via, created_actor_type, created_actor_id, archived_at) VALUES
 ('agent:main:main', 'p-1111', '{"sessionId":"p-1111","modelOverride":"claude-opus-4-6","providerOverride":"anthropic","permissionMode":"auto","execHost":"gateway","deliveryContext":{"channel":"telegram","to":"42","accountId":"default"},"publicShare":{"token":"SECRETSHARETOKEN0123456789","createdAt":1775037700000,"url":"https://example.invalid/share"}}', 1, 1775037800000, 1775037600000, 'operator', 'human', 'owner', 1775037900000),
 ('agent:main:subagent:abc', 's-2222', '{"sessionId":"s-2222"}', 1, 1775037650000, NULL, NULL, NULL, NULL, NULL);
UPDATE session_nodes SET parent_session_key = 'agent:main:main', spawned_by = 'agent:main:main' WHERE session_key = 'agent:main:subagent:abc';
INSERT INTO session_windows (session_id, session_key, previous_session_id, reason, created_at, updated_at, channel, account_id, chat_type, primary_conversation_id, parent_session_key, spawned_by, status, ended_at) VALUES
 ('p-1111', 'agent:main:main', NULL, 'initial', 1775037600000, 1775037800000, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 ('s-2222', 'agent:main:subagent:abc', NULL, 'initial', 1775037610000, 1775037650000, NULL, NULL, NULL, NULL, 'agent:main:main', 'agent:main:main', 'done', 1775037650000),
 ('c-3333', 'agent:main:telegram:direct:42', NULL, 'initial', 1775037700000, 1775037710000, 'telegram', 'default', 'direct', NULL, NULL, NULL, NULL, NULL),
 ('p-5555', 'agent:main:main', 'p-1111', 'reset', 1775038000000, 1775038000000, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES
 ('p-1111', 0, '{"type":"session","version":4,"id":"p-1111","timestamp":"2026-04-01T10:00:00.000Z","cwd":"/home/examiner/proj"}', 1775037600000),
 ('p-1111', 1, '{"type":"model_change","provider":"anthropic","modelId":"claude-opus-4-6","id":"p-e1","parentId":null,"timestamp":"2026-04-01T10:00:01.000Z"}', 1775037601000),
 ('p-1111', 2, '{"type":"message","id":"p-e2","parentId":"p-e1","timestamp":"2026-04-01T10:00:02.000Z","message":{"role":"user","content":"spawn a subagent to run the tests","timestamp":1775037602000,"__openclaw":{"senderIsOwner":true}}}', 1775037602000),
 ('p-1111', 3, '{"type":"message","id":"p-e3","parentId":"p-e2","timestamp":"2026-04-01T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_spawn","name":"sessions_spawn","arguments":{"task":"Run the tests","runtime":"subagent"}}],"provider":"anthropic","model":"claude-opus-4-6","stopReason":"toolUse","timestamp":1775037603000}}', 1775037603000),
 ('p-1111', 4, '{"type":"message","id":"p-e4","parentId":"p-e3","timestamp":"2026-04-01T10:00:04.000Z","message":{"role":"toolResult","toolCallId":"call_spawn","toolName":"sessions_spawn","content":[{"type":"text","text":"spawned agent:main:subagent:abc"}],"isError":false,"timestamp":1775037604000}}', 1775037604000),
 ('p-1111', 5, '{"type":"message","id":"p-e5","parentId":"p-e4","timestamp":"2026-04-01T10:00:05.000Z","message":{"role":"user","content":"tests passed","provenance":{"kind":"inter_session","sourceSessionKey":"agent:main:subagent:abc","sourceTool":"subagent_announce","sourceRole":"subagent"},"timestamp":1775037605000}}', 1775037605000),
 ('p-1111', 7, '{not json', 1775037607000),
 ('p-1111', 8, '{"type":"custom","customType":"openclaw.nested-tool.v1","data":{"tool":"exec","args":{"command":"ls"}},"id":"p-e8","parentId":"p-e6","timestamp":"2026-04-01T10:00:08.000Z"}', 1775037608000),
 ('p-1111', 9, '{"type":"message","id":"p-e9","parentId":"p-e8","timestamp":"2026-04-01T10:00:09.000Z","message":{"role":"toolResult","toolCallId":"call_rm","toolName":"exec","content":[{"type":"text","text":"Exec denied (SYSTEM_RUN_DENIED: approval timed out): rm -rf /srv/data"}],"details":{"status":"failed"},"isError":true,"timestamp":1775037609000}}', 1775037609000),
 ('s-2222', 0, '{"type":"session","version":4,"id":"s-2222","timestamp":"2026-04-01T10:00:10.000Z","cwd":"/home/examiner/proj"}', 1775037610000),
 ('s-2222', 1, '{"type":"message","id":"s-e1","parentId":null,"timestamp":"2026-04-01T10:00:11.000Z","message":{"role":"user","content":"Run the tests","provenance":{"kind":"inter_session","sourceSessionKey":"agent:main:main","sourceTool":"sessions_spawn"},"timestamp":1775037611000}}', 1775037611000),
 ('s-2222', 2, '{"type":"message","id":"s-e2","parentId":"s-e1","timestamp":"2026-04-01T10:00:12.000Z","message":{"role":"assistant","content":[{"type":"text","text":"All 12 tests pass."}],"provider":"anthropic","model":"claude-haiku-4-5","stopReason":"stop","timestamp":1775037612000}}', 1775037612000),
 ('c-3333', 0, '{"type":"session","version":4,"id":"c-3333","timestamp":"2026-04-01T10:01:40.000Z","cwd":"/home/examiner/.openclaw/workspace"}', 1775037700000),
 ('c-3333', 1, '{"type":"message","id":"c-e1","parentId":null,"timestamp":"2026-04-01T10:01:41.000Z","message":{"role":"user","content":"what is on my calendar?","timestamp":1775037701000,"__openclaw":{"senderIsOwner":false}}}', 1775037701000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) VALUES
 ('p-1111', 6, NULL, 1775037606000, X'28b52ffd0458250700169031215089da060055312ffb49d28e396cdb44963d312e82f0e0c7b034db82643333bb0a2700270029000b032204a274c0c3f38e51cdcab0fe7942a09b3ee57e9e14b9e717fbb93214b332cfab53e84702fa1cb301cf734663078d35ba20df4dbbedf2f36eaa9931abe7d5b1ef913c274044256122261a02ddd4f34f1743d8e77e0c9a2b0b5acd0bc9d2b7cd092b4802d997306b2c9ee79da0a7b902d9972c650e4d838809930200130a8521df96950eb86dfe794208c40fb748d7433996e71dba96f9f9c2dcbe460900084bc200230c052e59653c54edebda1d032b4f5228c5954d327f22a4f4', 336, '{"version":1,"report":{"kind":"canonical"},"navigation":{},"reset":{},"model":{},"modelBytes":10,"modelWithoutCheckpointBytes":10,"withoutCustomDataBytes":10}');
INSERT INTO session_pending_inputs (input_id, session_key, session_id, idempotency_key, run_id, request_hash, message_json, lifecycle_generation, state, accepted_at, consumed_event_id) VALUES
 ('in-1', 'agent:main:telegram:direct:42', 'c-3333', 'k1', 'run-c1', 'h1', '{"role":"user","content":"are you there?"}', 'g1', 'queued', 1775037720000, NULL),
 ('in-2', 'agent:main:main', 'p-1111', 'k2', 'run-p1', 'h2', '{"role":"user","content":"spawn a subagent to run the tests"}', 'g1', 'cancelled', 1775037602000, 'p-e2');
INSERT INTO session_transcript_fts_content (id, c0, c1, c2, c3, c4) VALUES
 (1, 'spawn a subagent to run the tests', 'p-1111', 'p-e2', 'user', 1775037602000.0),
 (2, 'a prompt the transcript lost', 'p-1111', 'lost-1', 'user', 1775037606500.0);
INSERT INTO conversations (conversation_id, channel, account_id, kind, peer_id, delivery_target, label, created_at, updated_at) VALUES
 ('conv-1', 'telegram', 'default', 'direct', '42', 'telegram:42', 'Alice', 1775037699000, 1775037710000);
INSERT INTO session_conversations (session_id, conversation_id, role, first_seen_at, last_seen_at) VALUES ('c-3333', 'conv-1', 'primary', 1775037700000, 1775037710000);
INSERT INTO conversation_deliveries (operation_id, operation_kind, conversation_id, source_session_key, message_hash, status, platform_message_id, reply_message_id, reply_text, reply_timestamp, created_at, updated_at) VALUES
 ('op-1', 'send', 'conv-1', 'agent:main:telegram:direct:42', 'mh1', 'replied', 'tg-100', 'tg-101', 'thanks!', 1775037750000, 1775037705000, 1775037750000);
INSERT INTO conversation_deliveries (operation_id, operation_kind, conversation_id, source_session_key, message_hash, status, rejection_error, created_at, updated_at) VALUES
 ('op-2', 'send', 'conv-1', 'agent:main:telegram:direct:42', 'mh2', 'rejected', 'bot was blocked by the user', 1775037760000, 1775037760000);
INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, archive_sha256, archive_name, created_at, published_at, publish_attempts, last_publish_error) VALUES
 ('d-4444', 'gen-1', 'agent:main:old', 'deleted', 'zstd', X'28b52ffd04582d0600324e2b215069ab0343b66156f0edfe1f33408cd91e51444c81f8184264f27b873899a1993d86e7c94c24134980422509025fc3c520a7a1d7687915ac5e0a8adb5e73c3d02e1a39f0b1ebdb6dbbc79e1e979beb9779f10b8a304ce3f48a40bb8d0b3e1dd9afc162de6678de6c0f5e84466f64cb475cb7b4a5b0c7b6b738ae5712d8d309321320533355910389301069240e79b81eb6d5bc6de9a72ba594a15caf2c4f4ae3223cddbd8579f9fa854e7f210700c2dc6440e105bcf71f38c4a1e3d7878a7a9526c374ea62', '0000000000000000000000000000000000000000000000000000000000000000', 'd-4444.jsonl.deleted.2026-03-31T00-00-00.000Z.zst', 1774915200000, NULL, 2, 'EACCES: permission denied');
INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES
 ('p-1111', 'gen-2', 'p-1111.jsonl.zst', '1111111111111111111111111111111111111111111111111111111111111111', 10, 5000, 900, 9, 1775038100000, 'file', NULL);
INSERT INTO memory_session_tombstones (session_id, agent_id, reason, created_at) VALUES ('d-4444', 'main', 'session deleted', 1774915300000);
INSERT INTO trajectory_runtime_events (session_id, seq, run_id, event_json, created_at) VALUES
 ('p-1111', 0, 'run-p1', '{"type":"session.started","ts":"2026-04-01T10:00:01.500Z","data":{"trigger":"user"}}', 1775037601500),
 ('p-1111', 1, 'run-p1', '{"type":"trace.metadata","ts":"2026-04-01T10:00:01.600Z","data":{"harness":{"version":"2026.9.6","gitSha":"e7159c7","invocation":["node","openclaw","agent","--message","use key sk-ant-doubleagentSECRET0123456789"]}}}', 1775037601600),
 ('p-1111', 2, 'run-p1', '{"type":"prompt.submitted","ts":"2026-04-01T10:00:02.100Z","data":{"prompt":"spawn a subagent to run the tests"}}', 1775037602100),
 ('p-1111', 3, 'run-p1', '{"type":"tool.call","ts":"2026-04-01T10:00:03.100Z","data":{"toolCallId":"call_spawn","name":"sessions_spawn","args":{"task":"Run the tests","runtime":"subagent"}}}', 1775037603100),
 ('p-1111', 4, 'run-p1', '{"type":"tool.result","ts":"2026-04-01T10:00:04.100Z","data":{"toolCallId":"call_spawn","name":"sessions_spawn","success":true,"result":{"content":[{"type":"text","text":"spawned agent:main:subagent:abc"}]}}}', 1775037604100),
 ('p-1111', 5, 'run-p1', '{"type":"model.completed","ts":"2026-04-01T10:00:06.100Z","data":{}}', 1775037606100),
 ('p-1111', 6, 'run-p1', '{"type":"session.ended","ts":"2026-04-01T10:00:09.500Z","data":{"status":"aborted","stopReason":"user","aborted":true}}', 1775037609500),
 ('s-2222', 0, 'run-s1', '{"type":"session.started","ts":"2026-04-01T10:00:10.500Z","data":{"trigger":"subagent"}}', 1775037610500),
 ('s-2222', 1, 'run-s1', '{"type":"prompt.submitted","ts":"2026-04-01T10:00:11.100Z","data":{"prompt":"Run the tests"}}', 1775037611100);
