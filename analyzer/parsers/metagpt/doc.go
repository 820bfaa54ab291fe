// Package metagpt reads MetaGPT's model configuration. MetaGPT keeps no
// conversation under the home: its runs write a workspace under the
// working directory (not collected), and ~/.metagpt/config2.yaml (or a
// project's config/config2.yaml) says which models it was set up to call.
//
// # metagpt/config (targets "config", "project"; secret kind)
//
// One system row per LLM block, llm and each models.<name>, in file
// order at the line of the block's first member and the file's mtime:
// "model config <block>: api_type=.. model=.. base_url=.. (api_key set;
// not read)". Only api_type, model, base_url and proxy are decoded (the
// URL and proxy through parser.RedactSecrets); api_key, api_secret,
// secret_key, access_key and app_id are named when set, never decoded. A
// block that is no mapping is a problem; a file with no LLM block is one
// counted skip.
//
// # Evidence
//
//   - Source: geekan/MetaGPT metagpt/configs/llm_config.py (LLMConfig:
//     api_key, api_type, base_url, model, proxy, api_secret, secret_key,
//     access_key, app_id), config/config2.example.yaml (the llm block and
//     the models map), as the catalog's EvidenceNote; synthetic fixture
//     (testdata/home; the keys are fake).
//
// # Not read, and why
//
//   - The workspace and team.json under the working directory: not in the
//     catalog (a run's output folder is wherever MetaGPT was started).
package metagpt
