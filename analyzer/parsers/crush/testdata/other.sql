-- a SQLite file of another program: none of Crush's tables
CREATE TABLE kv (k TEXT, v TEXT);
