-- Shapes of ee/tabby-db/schema/schema.sql at 21b29048 (the tables read).
CREATE TABLE users(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email VARCHAR(150) NOT NULL COLLATE NOCASE,
  is_admin BOOLEAN NOT NULL DEFAULT 0,
  created_at TIMESTAMP DEFAULT(DATETIME('now')),
  updated_at TIMESTAMP DEFAULT(DATETIME('now')),
  auth_token VARCHAR(128) NOT NULL,
  active BOOLEAN NOT NULL DEFAULT 1,
  password_encrypted VARCHAR(128),
  avatar BLOB DEFAULT NULL,
  name VARCHAR(255)
);
CREATE TABLE user_events(
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  payload BLOB NOT NULL
);
CREATE TABLE integrations(
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  display_name TEXT NOT NULL,
  access_token TEXT NOT NULL,
  api_base TEXT,
  error TEXT,
  created_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  updated_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  synced BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE provided_repositories(
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  integration_id INTEGER NOT NULL,
  vendor_id TEXT NOT NULL,
  name TEXT NOT NULL,
  git_url TEXT NOT NULL,
  active BOOLEAN NOT NULL DEFAULT FALSE,
  created_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  updated_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  refs TEXT
);
CREATE TABLE threads(
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  is_ephemeral BOOLEAN NOT NULL,
  user_id INTEGER NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  updated_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  relevant_questions BLOB
);
CREATE TABLE thread_messages(
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  thread_id INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  updated_at TIMESTAMP NOT NULL DEFAULT(DATETIME('now')),
  code_source_id VARCHAR(255),
  attachment BLOB NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS "pages"(
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  author_id integer NOT NULL,
  title text,
  content text,
  created_at timestamp NOT NULL DEFAULT(DATETIME('now')),
  updated_at timestamp NOT NULL DEFAULT(DATETIME('now')),
  code_source_id VARCHAR(255)
);
CREATE TABLE IF NOT EXISTS "page_sections"(
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  page_id integer NOT NULL,
  title text NOT NULL,
  content text,
  "position" integer NOT NULL,
  created_at timestamp NOT NULL DEFAULT(DATETIME('now')),
  updated_at timestamp NOT NULL DEFAULT(DATETIME('now')),
  attachment BLOB NOT NULL DEFAULT '{}'
);
INSERT INTO users(id, email, auth_token, password_encrypted, created_at) VALUES (1, 'alice@example.com', 'auth_SECRET_TOKEN_never', '$argon2$never', '2026-10-01 08:00:00');
INSERT INTO threads VALUES (1, 0, 1, '2026-10-06 09:00:00', '2026-10-06 09:05:00', '["How is the token checked?","Where is the session stored?"]');
INSERT INTO thread_messages VALUES (1, 1, 'user', 'how does login work?', '2026-10-06 09:00:01', '2026-10-06 09:00:01', 'github_acme_api', '{"client_code":[{"filepath":"/home/alice/api/login.go","start_line":10,"content":"func Login() {}"}]}');
INSERT INTO thread_messages VALUES (2, 1, 'assistant', 'Login checks the password hash.', '2026-10-06T09:00:05.250+00:00', '2026-10-06 09:00:05', NULL, '{"code":[{"git_url":"https://github.com/acme/api","commit":"abc123","language":"go","filepath":"auth/login.go","content":"...","start_line":3}],"doc":[{"title":"Auth docs","link":"https://docs.acme.dev/auth","content":"..."}]}');
INSERT INTO thread_messages VALUES (3, 7, 'user', 'orphaned question', '2026-10-06 10:00:00', '2026-10-06 10:00:00', NULL, '{}');
INSERT INTO pages VALUES (1, 1, 'Auth overview', 'This page explains auth.', '2026-10-07 12:00:00', '2026-10-07 12:00:00', 'github_acme_api');
INSERT INTO page_sections VALUES (1, 1, 'Tokens', 'Tokens are JWTs.', 0, '2026-10-07 12:00:10', '2026-10-07 12:00:10', '{}');
INSERT INTO user_events VALUES (1, 1, 'completion', '2026-10-06T09:10:00.000+00:00', '{
  "completion": {
    "completion_id": "cmpl-1",
    "language": "go",
    "prompt": "<PRE> func add(a, b int) int { <SUF> <MID>",
    "segments": {"prefix": "func add(a, b int) int {", "filepath": "math.go", "git_url": "https://github.com/acme/api"},
    "choices": [{"index": 0, "text": "return a + b"}],
    "user_agent": "vscode/1.99"
  }
}');
INSERT INTO user_events VALUES (2, 1, 'select', '2026-10-06T09:10:02.000+00:00', '{"select": {"completion_id": "cmpl-1", "choice_index": 0, "elapsed": 1800}}');
INSERT INTO user_events VALUES (3, 1, 'chat_completion', '2026-10-06T09:11:00.000+00:00', '{"chat_completion": {}}');
INSERT INTO user_events VALUES (4, 1, 'mystery', '2026-10-06T09:12:00.000+00:00', '{"mystery": {"x": 1}}');
INSERT INTO integrations VALUES (1, 'github', 'acme GitHub', 'ghp_NEVER_PRINTED_0000000000000000000000', 'https://api.github.com', NULL, '2026-10-01 08:30:00', '2026-10-01 08:30:00', 1);
INSERT INTO provided_repositories VALUES (1, 1, 'R_1', 'acme/api', 'https://github.com/acme/api', 1, '2026-10-01 08:31:00', '2026-10-01 08:31:00', NULL);
