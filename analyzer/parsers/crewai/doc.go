// Package crewai reads CrewAI's run data stores in the run data directory,
// which db_storage_path() (crewai/utilities/paths.py, appdirs) names after
// the project folder: ~/.local/share/<project>, Library/Application
// Support/<project>, AppData/Local/CrewAI/<project>.
//
// # crewai/task-outputs (target "task-outputs", latest_kickoff_task_outputs.db)
//
// The latest kickoff only (INSERT OR REPLACE per task; crewai replay reads
// it back): SessionID "kickoff:<project folder>". The kickoff inputs once
// ("kickoff inputs: {...}", redacted); per task in rowid order a system row
// "task <index> (<agent>): <description>" (marked when was_replayed); the
// task's LLM messages (TaskOutput.messages): system and user messages are
// the prompts CrewAI builds from the agent and task, so system rows
// "prompt (<role>) to <agent>: ...", never user rows; assistant messages
// assistant rows "<agent>: ..."; tool messages tool_result rows (the
// message keeps no tool name or call id); and the final output (raw) as
// "<agent> (final output): ...". timestamp is CURRENT_TIMESTAMP (UTC).
// An unreadable output is a parse problem naming the task.
//
// # crewai/flow-states (target "task-outputs", flow_states.db)
//
// flow_states, one row per persisted method completion (@persist):
// "flow method <name> completed; state: <state JSON, redacted>",
// SessionID the flow_uuid; pending_feedback: "flow paused waiting for
// human feedback: <context>". Times are datetime.now(timezone.utc)
// isoformat.
//
// Both stores are read under the one SQLite policy (parser.CheckStore):
// a table missing (pending_feedback is absent before human-in-the-loop
// flows, crewAI c73b36a4c, and is then no problem) or lacking a column
// its rows need is one problem row naming it, the other table is read,
// and a file with neither is "not a CrewAI ... database".
//
// # Validated against
//
// Source, through the code index: crewAIInc/crewAI
// lib/crewai/src/crewai/memory/storage/kickoff_task_outputs_storage.py
// @5c9ac8f and lib/crewai/src/crewai/flow/persistence/sqlite.py @690378a;
// both schemas rechecked at f4731f502.
// Synthetic fixtures; CrewAI was not run here.
//
// # Not read yet
//
// A project's .crewai/last_run.json (the seed: the record that a run's
// trace reached AMP): no writer of it is in crewAIInc/crewAI at f4731f502
// (lib/crewai and lib/cli searched for last_run; the tracing listener
// writes only .crewai_user.json, events/listeners/tracing/utils.py), so
// its fields are unknown and no synced row is made from it yet;
// .crewai_user.json, settings and skills.
package crewai
