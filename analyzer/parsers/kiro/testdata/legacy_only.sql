CREATE TABLE history (id INTEGER PRIMARY KEY, command TEXT, shell TEXT, pid INTEGER, session_id TEXT, cwd TEXT, time INTEGER, in_ssh INTEGER, in_docker INTEGER, hostname TEXT, exit_code INTEGER);
INSERT INTO history VALUES (1, 'make deploy', 'bash', 1, 's', '/srv/app', 1700000000, 0, 0, 'h', 2);
