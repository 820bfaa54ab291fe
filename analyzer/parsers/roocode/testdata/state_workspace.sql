-- The RooVeterinaryInc.roo-cline workspace-state row of a
-- User/workspaceStorage/<hash>/state.vscdb: the cloud retry queue (two
-- telemetry requests whose headers hold the bearer token).
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('RooVeterinaryInc.roo-cline', '{"roo.retryQueue":[{"id":"q2","url":"https://app.roocode.com/api/events?token=SECRET-Q","options":{"method":"POST","headers":{"Authorization":"Bearer SECRET-BEARER"},"body":"{\"type\":\"Task Created\",\"properties\":{\"taskId\":\"SECRET-BODY\"}}"},"timestamp":1791709260000,"retryCount":2,"type":"telemetry","lastError":"fetch failed"},{"id":"q1","url":"https://app.roocode.com/api/events","options":{"method":"POST","headers":{"Authorization":"Bearer SECRET-BEARER"}},"timestamp":1791709230000,"retryCount":0,"type":"telemetry","operation":"capture"}]}');
