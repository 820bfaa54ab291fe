CREATE TABLE unrelated (a TEXT);
INSERT INTO unrelated VALUES (1);
