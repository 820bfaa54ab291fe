-- Local Deep Research ldr_auth.db: the users table (database/auth_db.py
-- creates it from models/auth.py User; read by column name). Synthetic rows.
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, username VARCHAR(80) NOT NULL UNIQUE, created_at DATETIME, last_login DATETIME, database_version INTEGER);
INSERT INTO users VALUES (1, 'alice', '2026-06-01 08:00:00.000000', '2026-07-13 09:30:00.000000', 1), (2, 'bob', '2026-06-02 10:00:00.000000', NULL, 1);
