-- An n8n database.sqlite right after the migrations: no rows.
CREATE TABLE "execution_entity" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "finished" boolean NOT NULL, "mode" varchar NOT NULL, "status" varchar NOT NULL, "workflowId" varchar(36) NOT NULL, "createdAt" datetime(3) NOT NULL);
CREATE TABLE "execution_data" ("executionId" int PRIMARY KEY NOT NULL, "workflowData" text NOT NULL, "data" text NOT NULL);
