-- logs_2.sqlite as Codex 0.171.0 creates it (the real-agent fixture's
-- schema); bodies as codex-rs/state/src/log_db.rs formats tracing events:
-- the span path, then DefaultFields.
CREATE TABLE logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts INTEGER NOT NULL,
    ts_nanos INTEGER NOT NULL,
    level TEXT NOT NULL,
    target TEXT NOT NULL,
    feedback_log_body TEXT,
    module_path TEXT,
    file TEXT,
    line INTEGER,
    thread_id TEXT,
    process_uuid TEXT,
    estimated_bytes INTEGER NOT NULL DEFAULT 0
);
INSERT INTO logs VALUES (1,1780000000,0,'INFO','codex_core::session','session_loop{thread_id=019e0000-0000-7000-8000-0000000000e1}: turn started',NULL,NULL,NULL,'019e0000-0000-7000-8000-0000000000e1','pid:42:p1',0);
INSERT INTO logs VALUES (2,1780000001,250000000,'DEBUG','codex_core::session','session_loop{thread_id=019e0000-0000-7000-8000-0000000000e1}: Submission sub=Submission { id: "7", op: ExecApproval { id: "call_rm_1", turn_id: Some("turn-1"), decision: Approved }, trace: None }',NULL,NULL,NULL,'019e0000-0000-7000-8000-0000000000e1','pid:42:p1',0);
INSERT INTO logs VALUES (3,1780000002,0,'DEBUG','codex_core::session','session_loop{thread_id=019e0000-0000-7000-8000-0000000000e1}: Submission sub=Submission { id: "8", op: PatchApproval { id: "call_patch_2", decision: ApprovedForSession }, trace: None }',NULL,NULL,NULL,'019e0000-0000-7000-8000-0000000000e1','pid:42:p1',0);
INSERT INTO logs VALUES (4,1780000003,500000000,'INFO','codex_otel.log_only','session_task.turn{turn.id=turn-1}: event.name="codex.tool_decision" conversation.id=019e0000-0000-7000-8000-0000000000e1 app.version=0.171.0 tool_name=exec_command call_id=call_rm_1 decision=denied source=user',NULL,NULL,NULL,NULL,'pid:42:p1',0);
INSERT INTO logs VALUES (5,1780000010,0,'INFO','feedback_tags','app_server.request{otel.kind="server" otel.name="feedback/upload" rpc.system="jsonrpc" rpc.method="feedback/upload" rpc.transport="stdio" rpc.request_id=Integer(12) app_server.connection_id=ConnectionId(1) app_server.api_version="v2"}: chatgpt_user_id="user-abc"',NULL,NULL,NULL,'019e0000-0000-7000-8000-0000000000e1','pid:42:p1',0);
INSERT INTO logs VALUES (6,1780000011,0,'WARN','codex_app_server','app_server.request{otel.kind="server" otel.name="feedback/upload" rpc.system="jsonrpc" rpc.method="feedback/upload" rpc.transport="stdio" rpc.request_id=Integer(12) app_server.connection_id=ConnectionId(1) app_server.api_version="v2"}: failed to list feedback subtree',NULL,NULL,NULL,'019e0000-0000-7000-8000-0000000000e1','pid:42:p1',0);
INSERT INTO logs VALUES (7,1780000012,0,'DEBUG','codex_app_server','client capabilities mention feedback/upload',NULL,NULL,NULL,NULL,'pid:42:p1',0);
