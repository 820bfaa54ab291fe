// Package pydanticclai reads Pydantic AI's CLAI: so far the clai v1 prompt
// history only.
//
// # pydantic-clai/prompt-history (target "prompt-history")
//
// ~/.pydantic-ai/prompt-history.txt, prompt_toolkit's FileHistory
// (parser.FileHistory): each entry a user row (a multi-line prompt one
// row) at its "# <datetime.now()>" header, host-local time with no zone,
// so local-as-utc; a "/..." entry (/markdown, /multiline, /cp, /exit) a
// system row "command: ...". clai v1 keeps no conversation on disk, so the
// rows are not secondary.
//
// # Validated against
//
// Source: pydantic/pydantic-ai @4fda389 (2026-08-22)
// pydantic_ai_slim/pydantic_ai/_cli/__init__.py (PROMPT_HISTORY_FILENAME,
// PromptSession(history=FileHistory(...))). Synthetic fixture.
//
// # Not read yet
//
// CLAI 2.0 (pydantic-clai2): sessions.db (conversations with pydantic-ai
// message parts, sessions imported from Claude Code and Codex),
// input-history, config.db, mcp.json, orchestrator.json, workspace.json
// and session.log. Its source is not in the pydantic/pydantic-ai snapshot
// read here (only clai v1 is), and the code index holds no writer of
// sessions.db's tables, so their shapes are not known; they are collected.
package pydanticclai
