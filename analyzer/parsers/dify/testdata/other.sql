-- Not a shellctl database.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
