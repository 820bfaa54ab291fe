-- Not an n8n database: no execution_entity and no chat_hub_messages table.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
