-- The RooVeterinaryInc.roo-cline global-state row of a VS Code
-- User/globalStorage/state.vscdb: auto-approval settings, a taskHistory
-- entry whose folder is gone, and the Roo Code Cloud settings cache
-- (organization-settings with a provider profile that holds a key,
-- user-settings) and sign-in state.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('RooVeterinaryInc.roo-cline', '{"autoApprovalEnabled":true,"alwaysAllowExecute":true,"allowedCommands":["npm test","git log"],"apiProvider":"anthropic","taskHistory":[{"id":"0d0d0d0d-0000-4000-8000-000000000009","ts":1791709200000,"task":"delete the cache","workspace":"/home/examiner/demo"}],"organization-settings":{"version":3,"cloudSettings":{"recordTaskMessages":true,"enableTaskSharing":false},"allowList":{"allowAll":false,"providers":{"anthropic":{"allowAll":true}}},"defaultSettings":{"disabledTools":["browser_action"]},"providerProfiles":{"p1":{"apiProvider":"anthropic","apiKey":"SECRET-KEY"}}},"user-settings":{"features":{},"settings":{"taskSyncEnabled":true},"version":2},"clerk-auth-state":"active-session"}');
INSERT INTO ItemTable VALUES ('secret://{"extensionId":"rooveterinaryinc.roo-cline","key":"clerk-auth-credentials"}', 'SECRET-CREDS');
