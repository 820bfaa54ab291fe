-- CrewAI latest_kickoff_task_outputs.db, the table as
-- crewAIInc/crewAI lib/crewai/src/crewai/memory/storage/kickoff_task_outputs_storage.py
-- @5c9ac8f creates it; synthetic rows (TaskOutput.model_dump()).
CREATE TABLE latest_kickoff_task_outputs (task_id TEXT PRIMARY KEY, expected_output TEXT, output JSON, task_index INTEGER, inputs JSON, was_replayed BOOLEAN, timestamp DATETIME DEFAULT CURRENT_TIMESTAMP);
INSERT INTO latest_kickoff_task_outputs VALUES
 ('7d1e0000-0000-4000-8000-000000000001', 'A list of 3 bullet points', '{"description":"Research the latest AI agent frameworks","name":null,"expected_output":"A list of 3 bullet points","summary":"Research the latest...","raw":"- CrewAI\n- AutoGen\n- LangGraph","agent":"Senior Researcher","output_format":"raw","messages":[{"role":"system","content":"You are Senior Researcher."},{"role":"user","content":"Current Task: Research the latest AI agent frameworks"},{"role":"assistant","content":"Thought: I will search.\nAction: search\nAction Input: {\"q\": \"agent frameworks\"}"},{"role":"tool","content":"CrewAI, AutoGen, LangGraph"}]}', 0, '{"topic":"AI agents","api_key":"sk-INPUTSECRET12345678"}', 0, '2026-07-10 08:00:05'),
 ('7d1e0000-0000-4000-8000-000000000002', 'A short report', '{"description":"Write a report on {topic}","agent":"Reporting Analyst","raw":"AI agents are everywhere.","messages":[]}', 1, '{"topic":"AI agents","api_key":"sk-INPUTSECRET12345678"}', 1, '2026-07-10 08:00:09'),
 ('7d1e0000-0000-4000-8000-000000000003', 'x', '{"description":', 2, '{}', 0, '2026-07-10 08:00:10');
