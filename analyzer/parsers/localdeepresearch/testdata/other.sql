-- A plain SQLite file of neither shape.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
