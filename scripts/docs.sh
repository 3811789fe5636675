#!/usr/bin/env bash
# Builds the DocC documentation of every library module of the root package with warnings as errors: a broken
# symbol link, an undocumented parameter or a malformed tutorial fails. Archives go to
# .build/plugins/Swift-DocC/outputs/MODULE.doccarchive. Run from anywhere; no arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(ExternalDisplayKit ExternalDisplayMedia ExternalDisplaySimulator ExternalDisplayTesting ExternalDisplayUIKit)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for module in "${modules[@]}"; do
  if ! swift package generate-documentation --target "$module" --warnings-as-errors >"$log" 2>&1; then
    grep -E "^(warning|error)" -A6 "$log" | head -60 >&2 || tail -40 "$log" >&2
    echo "docs.sh: FAILED — $module's documentation has warnings or errors" >&2
    exit 1
  fi
  echo "docs.sh: $module — built with --warnings-as-errors, 0 warnings"
done
echo "docs.sh: OK — ${#modules[@]} DocC catalogs"
