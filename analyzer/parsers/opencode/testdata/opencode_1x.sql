-- OpenCode 1.x store (session.sql.ts shapes): two sessions, a subagent
-- child, a share, a model change, a rejected tool call, a compaction, an
-- archived session, project permission rules and an orphan message.
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, vcs TEXT, name TEXT, time_created INTEGER, time_updated INTEGER);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, workspace_id TEXT, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT, revert TEXT, permission TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE session_share (session_id TEXT PRIMARY KEY, id TEXT NOT NULL, secret TEXT NOT NULL, url TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE permission (project_id TEXT PRIMARY KEY, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE event (id TEXT PRIMARY KEY, aggregate_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE worktree (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, name TEXT, branch TEXT, directory TEXT NOT NULL, time_created INTEGER NOT NULL);
CREATE TABLE project_directory (project_id TEXT NOT NULL, directory TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);

INSERT INTO project VALUES ('prj1', '/home/examiner/src/app', 'git', 'app', 1767261600000, 1767261600000);

INSERT INTO session VALUES ('ses_a1', 'prj1', NULL, NULL, 'brave-otter', '/home/examiner/src/app', 'Fix the login bug', '1.2.27', NULL, NULL, NULL, NULL, NULL, NULL,
  '[{"permission":"bash","pattern":"rm *","action":"deny"}]', 1767261600000, 1767261900000, NULL, 1767348000000);
INSERT INTO session VALUES ('ses_b2', 'prj1', NULL, 'ses_a1', 'calm-fox', '/home/examiner/src/app', 'Find the config (@explore subagent)', '1.2.27', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1767261700000, 1767261710000, NULL, NULL);

INSERT INTO message VALUES ('msg_01', 'ses_a1', 1767261600100, 1767261600100,
  '{"role":"user","time":{"created":1767261600100},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}');
INSERT INTO part VALUES ('prt_01a', 'msg_01', 'ses_a1', 1767261600100, 1767261600100, '{"type":"text","text":"fix the login bug in @src/auth.ts"}');
INSERT INTO part VALUES ('prt_01b', 'msg_01', 'ses_a1', 1767261600100, 1767261600100, '{"type":"text","synthetic":true,"text":"Called the Read tool with the following input: {\"filePath\":\"/home/examiner/src/app/src/auth.ts\"}"}');
INSERT INTO part VALUES ('prt_01c', 'msg_01', 'ses_a1', 1767261600100, 1767261600100, '{"type":"file","mime":"text/plain","filename":"src/auth.ts","url":"file:///home/examiner/src/app/src/auth.ts"}');

INSERT INTO message VALUES ('msg_02', 'ses_a1', 1767261601000, 1767261609000,
  '{"role":"assistant","parentID":"msg_01","time":{"created":1767261601000,"completed":1767261609000},"modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/home/examiner/src/app","root":"/home/examiner/src/app"},"cost":0.01,"tokens":{"input":10,"output":5,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"tool-calls"}');
INSERT INTO part VALUES ('prt_02a', 'msg_02', 'ses_a1', 1767261601100, 1767261601100, '{"type":"step-start","snapshot":"abc"}');
INSERT INTO part VALUES ('prt_02b', 'msg_02', 'ses_a1', 1767261601200, 1767261601200, '{"type":"reasoning","text":"The token check is inverted.","time":{"start":1767261601200,"end":1767261601900}}');
INSERT INTO part VALUES ('prt_02c', 'msg_02', 'ses_a1', 1767261602000, 1767261602000, '{"type":"tool","callID":"toolu_01","tool":"bash","state":{"status":"completed","input":{"command":"npm test","description":"Run tests"},"output":"1 failing","title":"Run tests","metadata":{"exit":1},"time":{"start":1767261602000,"end":1767261604000}}}');
INSERT INTO part VALUES ('prt_02d', 'msg_02', 'ses_a1', 1767261605000, 1767261605000, '{"type":"tool","callID":"toolu_02","tool":"bash","state":{"status":"error","input":{"command":"rm -rf node_modules"},"error":"The user rejected permission to use this specific tool call. You may try again with different parameters.","time":{"start":1767261605000,"end":1767261606000}}}');
INSERT INTO part VALUES ('prt_02e', 'msg_02', 'ses_a1', 1767261606500, 1767261606500, '{"type":"tool","callID":"toolu_03","tool":"task","state":{"status":"completed","input":{"description":"Find the config","prompt":"Find where auth is configured","subagent_type":"explore"},"output":"src/config.ts","title":"Find the config","metadata":{"sessionId":"ses_b2"},"time":{"start":1767261606500,"end":1767261708000}}}');
INSERT INTO part VALUES ('prt_02f', 'msg_02', 'ses_a1', 1767261609000, 1767261609000, '{"type":"step-finish","reason":"tool-calls","cost":0.01,"tokens":{"input":10,"output":5,"reasoning":0,"cache":{"read":0,"write":0}}}');

INSERT INTO message VALUES ('msg_03', 'ses_a1', 1767261800000, 1767261805000,
  '{"role":"assistant","parentID":"msg_01","time":{"created":1767261800000,"completed":1767261805000},"modelID":"gpt-5","providerID":"openai","mode":"build","agent":"build","path":{"cwd":"/home/examiner/src/app","root":"/home/examiner/src/app"},"finish":"stop"}');
INSERT INTO part VALUES ('prt_03a', 'msg_03', 'ses_a1', 1767261800100, 1767261800100, '{"type":"text","text":"Fixed: the check in auth.ts was inverted.","time":{"start":1767261800100,"end":1767261804000}}');

INSERT INTO message VALUES ('msg_04', 'ses_a1', 1767261850000, 1767261850000,
  '{"role":"user","time":{"created":1767261850000},"agent":"build","model":{"providerID":"openai","modelID":"gpt-5"}}');
INSERT INTO part VALUES ('prt_04a', 'msg_04', 'ses_a1', 1767261850000, 1767261850000, '{"type":"compaction","auto":true}');
INSERT INTO message VALUES ('msg_05', 'ses_a1', 1767261851000, 1767261860000,
  '{"role":"assistant","summary":true,"parentID":"msg_04","time":{"created":1767261851000,"completed":1767261860000},"modelID":"gpt-5","providerID":"openai","mode":"compaction","agent":"compaction","path":{"cwd":"/home/examiner/src/app","root":"/home/examiner/src/app"},"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}}');
INSERT INTO part VALUES ('prt_05a', 'msg_05', 'ses_a1', 1767261851500, 1767261851500, '{"type":"text","text":"We fixed the inverted token check in auth.ts."}');

INSERT INTO message VALUES ('msg_b1', 'ses_b2', 1767261700100, 1767261700100,
  '{"role":"user","time":{"created":1767261700100},"agent":"explore","model":{"providerID":"anthropic","modelID":"claude-haiku-4-5"}}');
INSERT INTO part VALUES ('prt_b1a', 'msg_b1', 'ses_b2', 1767261700100, 1767261700100, '{"type":"text","text":"Find where auth is configured"}');
INSERT INTO message VALUES ('msg_b2', 'ses_b2', 1767261701000, 1767261705000,
  '{"role":"assistant","time":{"created":1767261701000,"completed":1767261705000},"modelID":"claude-haiku-4-5","providerID":"anthropic","mode":"explore","agent":"explore","path":{"cwd":"/home/examiner/src/app","root":"/home/examiner/src/app"}}');
INSERT INTO part VALUES ('prt_b2a', 'msg_b2', 'ses_b2', 1767261702000, 1767261702000, '{"type":"tool","callID":"toolu_b1","tool":"grep","state":{"status":"running","input":{"pattern":"auth"},"time":{"start":1767261702000}}}');

-- a message whose session row is gone
INSERT INTO message VALUES ('msg_z1', 'ses_gone', 1767000000000, 1767000000000, '{"role":"user","time":{"created":1767000000000}}');
INSERT INTO part VALUES ('prt_z1', 'msg_z1', 'ses_gone', 1767000000000, 1767000000000, '{"type":"text","text":"a prompt of a deleted session"}');

INSERT INTO session_share VALUES ('ses_a1', 'shr_a1', 'SECRET-DO-NOT-PRINT', 'https://opncd.ai/s/shr_a1', 1767261900000, 1767261900000);
INSERT INTO event VALUES ('evt_1', 'ses_a1', 7, 'session.updated.1', '{"sessionID":"ses_a1","info":{"id":"ses_a1","share":{"url":"https://opncd.ai/s/shr_a1"},"time":{"updated":1767261900000}}}');
INSERT INTO event VALUES ('evt_2', 'ses_b2', 3, 'session.updated.1', '{"sessionID":"ses_b2","info":{"id":"ses_b2","share":{"url":"https://opncd.ai/s/shr_b2"},"time":{"updated":1767261720000}}}');
INSERT INTO event VALUES ('evt_3', 'ses_b2', 4, 'message.updated.1', '{"sessionID":"ses_b2"}');

INSERT INTO permission VALUES ('prj1', 1767261000000, 1767261500000, '[{"permission":"edit","pattern":"*","action":"allow"},{"permission":"bash","pattern":"git push *","action":"ask"}]');
INSERT INTO worktree VALUES ('wt1', 'prj1', 'brave-otter', 'opencode/brave-otter', '/home/examiner/.local/share/opencode/worktree/prj1/brave-otter', 1767261650000);
INSERT INTO project_directory VALUES ('prj1', '/home/examiner/old/app', 1766000000000, 1766100000000);

-- 1.18 shapes: workspace rows and per-grant permission rows live in other
-- stores; here a workspace table beside the worktree one.
CREATE TABLE workspace (id TEXT PRIMARY KEY, type TEXT NOT NULL, name TEXT DEFAULT '' NOT NULL, branch TEXT, directory TEXT, extra TEXT, project_id TEXT NOT NULL, time_used INTEGER NOT NULL);
INSERT INTO workspace VALUES ('wrk_1', 'worktree', 'calm-fox', 'opencode/calm-fox', '/home/examiner/.local/share/opencode/worktree/prj1/calm-fox', NULL, 'prj1', 1767261660000);
