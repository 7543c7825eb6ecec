#!/usr/bin/env bash
# Runs the configuration's checks once and fails when any did not pass.
#
# Check blocks only warn: `terraform plan` exits 0 when an assertion fails, and
# -detailed-exitcode does not change that. The saved plan records every check's result, so the
# job reads them from `terraform show -json` and fails (exit 1) on any whose status is not
# "pass" ("fail", "error", or "unknown": not evaluated). -refresh-only plans no change to
# anything; a data source that cannot read its devices still fails the plan itself (exit 1).
#
# Needs Terraform 1.5 or later (or OpenTofu: TERRAFORM=tofu) and jq; run it in the
# configuration's directory after `terraform init`. Writes watch.tfplan and watch.json there.
set -euo pipefail
tf=${TERRAFORM:-terraform}

"$tf" plan -refresh-only -input=false -no-color -out=watch.tfplan
"$tf" show -json watch.tfplan >watch.json

# One line per problem: the check's address, its status and a line of the error_message (a
# message of several lines, such as one finding per line, gives several).
problems=$(jq -r '
  .checks[]? | select(.status != "pass")
  | .address.to_display as $check | .status as $status
  | ([.instances[]?.problems[]?.message] | if length == 0 then ["(no message)"] else . end)[]
  | split("\n")[] | select(. != "")
  | "\($check) \($status): \(.)"' watch.json)

if [ -n "$problems" ]; then
  printf 'RoCE fabric: checks that did not pass:\n%s\n' "$problems"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo "## RoCE fabric: checks that did not pass"; echo '~~~'; echo "$problems"; echo '~~~'; } >>"$GITHUB_STEP_SUMMARY"
  fi
  exit 1
fi
echo "RoCE fabric: every check passed ($(jq '[.checks[]?] | length' watch.json) checked)."
