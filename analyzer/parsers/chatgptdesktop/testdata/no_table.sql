-- Synthetic: a codex-dev.db without the catalog table.
CREATE TABLE other (x INTEGER);
