-- a SQLite file of another program: none of OpenCode's tables
CREATE TABLE kv (k TEXT, v TEXT);
INSERT INTO kv VALUES ('a', 'b');
