#!/bin/sh
# Regenerates fields.tsv from the ECS schema: the fields DoubleAgent's
# --format ecs writes, with their ECS type and allowed values.
#   git -C ecs show b85f7573f0b48c03fddf90dad06fc743876f1b33:generated/ecs/ecs_flat.yml > ecs_flat.yml
#   sh extract.sh ecs_flat.yml > fields.tsv
# Needs yq (the jq wrapper).
set -eu
FIELDS='@timestamp ecs.version message
event.kind event.category event.type event.action event.outcome event.module event.dataset event.provider event.id
host.name user.name process.command_line process.working_directory file.path url.full log.file.path
gen_ai.agent.name gen_ai.tool.name gen_ai.tool.call.id gen_ai.tool.call.arguments gen_ai.tool.call.result gen_ai.response.model
gen_ai.usage.input_tokens gen_ai.usage.output_tokens'
echo '# ECS fields written by --format ecs: name, ECS type, allowed values (comma-separated, empty when any).'
echo '# From github.com/elastic/ecs generated/ecs/ecs_flat.yml at b85f7573f0b48c03fddf90dad06fc743876f1b33 (ECS 9.5.0-dev, 2026-05-29); regenerate with extract.sh.'
for f in $FIELDS; do
	yq -r --arg f "$f" '.[$f] | if . == null then error("no ECS field " + $f) else [$f, .type, ((.allowed_values // []) | map(.name) | join(","))] | @tsv end' "$1"
done
