CREATE TABLE unrelated (x INTEGER);
