-- Not a CrewAI database.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
