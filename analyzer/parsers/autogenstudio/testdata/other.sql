-- Not an AutoGen Studio database: no message and run tables.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
