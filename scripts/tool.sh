#!/usr/bin/env bash
# Prints the path of a pinned tool, installing it with `go install` first when it is missing.
# Nothing is downloaded from release sites: the Go module proxy is the only source.
#   scripts/tool.sh terraform | golangci-lint | tfplugindocs | tofu | goreleaser
set -euo pipefail

TERRAFORM_VERSION=1.5.7
GOLANGCI_LINT_VERSION=v2.15.0
TFPLUGINDOCS_VERSION=v0.25.0
TOFU_VERSION=1.12.6

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
    # Installed at TFPLUGINDOCS_VERSION, but any one found in GOBIN is taken: a go-installed
    # tfplugindocs reports its version as "dev", so there is nothing to compare. `make docs-check`
    # shows a different version's output as a diff.
    if [ -x "$gobin/tfplugindocs" ]; then echo "$gobin/tfplugindocs"; exit 0; fi
    install "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@$TFPLUGINDOCS_VERSION"
    echo "$gobin/tfplugindocs"
    ;;
  goreleaser)
    # `goreleaser --version` prints a banner first: look for the GitVersion line, not line 1.
    GORELEASER_VERSION=v2.15.1
    g="$gobin/goreleaser"
    if [ -x "$g" ] && "$g" --version 2>/dev/null | grep -qE "^GitVersion: +${GORELEASER_VERSION}\$"; then echo "$g"; exit 0; fi
    install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
    "$g" --version 2>/dev/null | grep -qE "^GitVersion: +${GORELEASER_VERSION}\$" || { echo "goreleaser $GORELEASER_VERSION not found after install" >&2; exit 1; }
    echo "$g"
    ;;
  tofu)
    # `go install github.com/opentofu/opentofu/cmd/tofu@v...` is refused (its go.mod replaces
    # hashicorp/hcl/v2 with OpenTofu's fork): download the module and build cmd/tofu inside it
    # (the module cache is read-only; nothing is written there) with its .goreleaser.yaml's
    # settings (version.dev=no, else it reports 1.12.6-dev). About 4 minutes cold.
    # OpenTofu prints a warning on stdout before the version when TF_CLI_CONFIG_FILE names a
    # missing file: check the version under our own CLI configuration.
    export TF_CLI_CONFIG_FILE="$(cd "$(dirname "$0")" && pwd)/terraformrc"
    is_tofu() { [ -x "$1" ] && [ "$("$1" version 2>/dev/null | head -n 1)" = "OpenTofu v$TOFU_VERSION" ]; }
    for c in "$gobin/tofu" "$(command -v tofu 2>/dev/null || true)"; do
      if [ -n "$c" ] && is_tofu "$c"; then echo "$c"; exit 0; fi
    done
    echo "building OpenTofu $TOFU_VERSION from the Go module proxy (a few minutes the first time)" >&2
    dir=$(cd "${TMPDIR:-/tmp}" && GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@v$TOFU_VERSION" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -d "$dir" ] || { echo "go mod download github.com/opentofu/opentofu@v$TOFU_VERSION failed" >&2; exit 1; }
    mkdir -p "$gobin"
    (cd "$dir" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$gobin/tofu" ./cmd/tofu) >&2
    is_tofu "$gobin/tofu" || { echo "$gobin/tofu does not report OpenTofu v$TOFU_VERSION" >&2; exit 1; }
    echo "$gobin/tofu"
    ;;
  *)
    echo "usage: $0 terraform|golangci-lint|tfplugindocs|tofu|goreleaser" >&2
    exit 2
    ;;
esac
