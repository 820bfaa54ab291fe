CREATE TABLE quarantined_databases (
      path TEXT NOT NULL PRIMARY KEY,
      kind TEXT NOT NULL,
      reason TEXT NOT NULL,
      quarantined_at INTEGER NOT NULL,
      writer_app_version TEXT,
      verified_generation TEXT
    ) STRICT;
CREATE TABLE agent_integrity_verifications (
      path TEXT NOT NULL PRIMARY KEY, dev TEXT NOT NULL, ino TEXT NOT NULL,
      app_version TEXT NOT NULL, verified_at INTEGER NOT NULL,
      clean_close INTEGER NOT NULL CHECK (clean_close IN (0, 1))
    ) STRICT;
-- Synthetic rows (schema above: openclaw 2026.9.6's own DDL).
INSERT INTO quarantined_databases (path, kind, reason, quarantined_at, writer_app_version, verified_generation) VALUES ('/home/examiner/.openclaw/agents/main/agent/openclaw-agent.sqlite.corrupt-1', 'agent', 'integrity_check failed: database disk image is malformed', 1775030000000, '2026.9.5', NULL);
INSERT INTO agent_integrity_verifications (path, dev, ino, app_version, verified_at, clean_close) VALUES ('/home/examiner/.openclaw/agents/main/agent/openclaw-agent.sqlite', '2049', '1234', '2026.9.6', 1775030100000, 0);
