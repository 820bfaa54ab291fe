-- CrewAI flow_states.db, the tables as crewAIInc/crewAI
-- lib/crewai/src/crewai/flow/persistence/sqlite.py @690378a creates them;
-- synthetic rows (timestamps datetime.now(timezone.utc).isoformat()).
CREATE TABLE flow_states (id INTEGER PRIMARY KEY AUTOINCREMENT, flow_uuid TEXT NOT NULL, method_name TEXT NOT NULL, timestamp DATETIME NOT NULL, state_json TEXT NOT NULL);
CREATE TABLE pending_feedback (id INTEGER PRIMARY KEY AUTOINCREMENT, flow_uuid TEXT NOT NULL UNIQUE, context_json TEXT NOT NULL, state_json TEXT NOT NULL, created_at DATETIME NOT NULL);
INSERT INTO flow_states (flow_uuid, method_name, timestamp, state_json) VALUES
 ('f10w0000-0000-4000-8000-000000000001', 'generate_outline', '2026-07-11T09:00:00.123456+00:00', '{"id":"f10w0000-0000-4000-8000-000000000001","topic":"rivers","outline":["source","mouth"]}'),
 ('f10w0000-0000-4000-8000-000000000001', 'write_draft', '2026-07-11T09:00:30.000000+00:00', '{"id":"f10w0000-0000-4000-8000-000000000001","topic":"rivers","draft":"Rivers flow.","token":"ghp_abcdefghijklmnopqrstuvwx"}');
INSERT INTO pending_feedback (flow_uuid, context_json, state_json, created_at) VALUES
 ('f10w0000-0000-4000-8000-000000000001', '{"flow_id":"f10w0000-0000-4000-8000-000000000001","method_name":"review","message":"Approve the draft?"}', '{}', '2026-07-11T09:00:31.000000+00:00');
