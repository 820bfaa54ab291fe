-- An AutoGen Studio database after create_all: no rows.
CREATE TABLE run (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME, session_id INTEGER NOT NULL, status VARCHAR(8) NOT NULL, task JSON, team_result JSON, error_message VARCHAR);
CREATE TABLE message (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME, config JSON, session_id INTEGER, run_id INTEGER);
