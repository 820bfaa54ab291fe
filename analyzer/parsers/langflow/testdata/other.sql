-- Not a Langflow database: no message or transaction table.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
