#!/usr/bin/env bash
# What an app developer's package resolves when it adds the library for ExternalDisplayUIKit: makes a new
# package in a temporary folder that depends on this repository's root package by path, resolves it, and fails
# unless exactly one package (swift-log) is resolved and checked out. Prints the dependency tree.
#
#   scripts/check-library-dependents.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
mkdir -p "$work/Sources/App"
cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.iOS(.v15)],
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "App", dependencies: [.product(name: "ExternalDisplayUIKit", package: "$identity")])]
)
MANIFEST
echo 'import ExternalDisplayUIKit' > "$work/Sources/App/App.swift"
start=$(date +%s.%N)
swift package --package-path "$work" resolve >"$work/resolve.log" 2>&1 || { cat "$work/resolve.log"; exit 1; }
end=$(date +%s.%N)
echo "a package depending on the library for ExternalDisplayUIKit resolves:"
swift package --package-path "$work" show-dependencies
checkouts=$(find "$work/.build/checkouts" -mindepth 1 -maxdepth 1 -type d | xargs -r -n1 basename | sort | tr '\n' ' ')
count=$(find "$work/.build/checkouts" -mindepth 1 -maxdepth 1 -type d | wc -l)
printf 'checked out: %s(%d package%s), resolved in %.1f s\n' "$checkouts" "$count" "$([ "$count" = 1 ] || echo s)" \
  "$(echo "$end - $start" | bc -l 2>/dev/null || python3 -c "print($end - $start)")"
[ "$count" -le 1 ] || { echo "check-library-dependents: more than one package resolved: $checkouts" >&2; exit 1; }
