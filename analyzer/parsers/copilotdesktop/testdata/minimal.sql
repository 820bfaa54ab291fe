-- an older or partial schema: sessions with few columns, no other tables
CREATE TABLE sessions (id TEXT PRIMARY KEY, created_at INTEGER);
INSERT INTO sessions VALUES ('eeeeeeee-1111-2222-3333-444444444444', 1792144800);
