CREATE TABLE workspace (id INTEGER);
