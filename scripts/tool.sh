#!/usr/bin/env bash
# Prints the path of a pinned tool, installing it with `go install` first when it is missing.
# Nothing is downloaded from release sites: the Go module proxy is the only source.
#   scripts/tool.sh terraform | golangci-lint | tfplugindocs
set -euo pipefail

TERRAFORM_VERSION=1.5.7
GOLANGCI_LINT_VERSION=v2.15.0
TFPLUGINDOCS_VERSION=v0.25.0

gobin=$(go env GOBIN)
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"

# have NAME VERSION-PATTERN: prints the first candidate whose version output matches.
have() {
  local name=$1 want=$2 c
  for c in "$gobin/$name" "$(command -v "$name" 2>/dev/null || true)"; do
    [ -n "$c" ] && [ -x "$c" ] || continue
    if "$c" version 2>/dev/null | head -n 1 | grep -qF -- "$want"; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

install() {
  echo "installing $1 (go install, this takes a few minutes the first time)" >&2
  (cd "${TMPDIR:-/tmp}" && GOBIN="$gobin" GOFLAGS=-mod=mod go install "$1") >&2
}

case "${1:-}" in
  terraform)
    # A Terraform on PATH that is not 1.5.7 is not the version we test against: install
    # 1.5.7 beside it and use it by path (recorded in DESIGN.md).
    have terraform "Terraform v$TERRAFORM_VERSION" && exit 0
    install "github.com/hashicorp/terraform@v$TERRAFORM_VERSION"
    have terraform "Terraform v$TERRAFORM_VERSION"
    ;;
  golangci-lint)
    have golangci-lint "version ${GOLANGCI_LINT_VERSION#v}" && exit 0
    install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION"
    have golangci-lint "version ${GOLANGCI_LINT_VERSION#v}"
    ;;
  tfplugindocs)
    if [ -x "$gobin/tfplugindocs" ]; then echo "$gobin/tfplugindocs"; exit 0; fi
    install "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@$TFPLUGINDOCS_VERSION"
    echo "$gobin/tfplugindocs"
    ;;
  *)
    echo "usage: $0 terraform|golangci-lint|tfplugindocs" >&2
    exit 2
    ;;
esac
