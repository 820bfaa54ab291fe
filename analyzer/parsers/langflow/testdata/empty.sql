-- A Langflow database after the migrations: no rows.
CREATE TABLE message (timestamp DATETIME NOT NULL, sender VARCHAR NOT NULL, sender_name VARCHAR NOT NULL, session_id VARCHAR NOT NULL, text TEXT, id CHAR(32) NOT NULL PRIMARY KEY, flow_id CHAR(32), files JSON, error BOOLEAN NOT NULL, edit BOOLEAN NOT NULL, properties JSON, category TEXT, content_blocks JSON);
CREATE TABLE flow (name VARCHAR NOT NULL, description TEXT, data JSON, id CHAR(32) NOT NULL PRIMARY KEY, user_id CHAR(32), updated_at DATETIME);
CREATE TABLE "transaction" (timestamp DATETIME NOT NULL, vertex_id VARCHAR NOT NULL, target_id VARCHAR, inputs JSON, outputs JSON, status VARCHAR NOT NULL, error VARCHAR, flow_id CHAR(32) NOT NULL, id CHAR(32) NOT NULL PRIMARY KEY);
