-- Local Deep Research's pre-1.0 unencrypted ldr.db: research_history
-- (read by column name). Synthetic rows.
CREATE TABLE research_history (id INTEGER PRIMARY KEY AUTOINCREMENT, query TEXT NOT NULL, mode TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL, completed_at TEXT, duration_seconds INTEGER, report_path TEXT, research_meta TEXT, progress_log TEXT, title TEXT);
INSERT INTO research_history (query, mode, status, created_at, completed_at, duration_seconds, report_path) VALUES
 ('impact of tariffs on EU steel', 'quick', 'completed', '2025-03-01T10:00:00', '2025-03-01T10:04:10', 250, '/home/ex/.local/share/local-deep-research/research_outputs/quick_summary_tariffs.md'),
 ('', 'detailed', 'failed', '2025-03-02T11:00:00', NULL, NULL, NULL);
