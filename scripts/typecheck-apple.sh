#!/usr/bin/env bash
# Type-checks the Apple layer (Sources/ExternalDisplayUIKit) and the iOS example app on Linux, where no Apple
# SDK exists: builds the core modules, compiles the declaration stubs in scripts/apple-stubs/ into modules named
# like Apple's frameworks, then runs `swiftc -typecheck` in Swift 6 mode with complete concurrency checking.
# Any error or warning fails. Run from anywhere; no arguments.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SWIFTC="${SWIFTC:-swiftc}"
STUBS="$ROOT/scripts/apple-stubs"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/typecheck-apple.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
LOG="$WORK/log"
FLAGS=(-swift-version 6 -strict-concurrency=complete -parse-as-library -Xfrontend -enable-objc-interop)

fail() { echo "typecheck-apple: FAILED — $1"; exit 1; }

# 1. The core modules the layer imports.
targets=(ExternalDisplayKit)
if grep -rqs --include='*.swift' -E '^public (struct|enum|final class|class|protocol|actor) ' Sources/ExternalDisplayMedia; then
    targets+=(ExternalDisplayMedia)
fi
for target in "${targets[@]}"; do
    swift build --target "$target" >"$WORK/build-$target.log" 2>&1 || { cat "$WORK/build-$target.log"; fail "swift build --target $target"; }
done
BIN="$(swift build --show-bin-path)"
MODULES="$BIN/Modules"
[ -d "$MODULES" ] || MODULES="$BIN"
[ -e "$MODULES/ExternalDisplayKit.swiftmodule" ] || fail "ExternalDisplayKit.swiftmodule not found under $BIN"

# 2. The stubs, in dependency order, as modules named like Apple's frameworks. The stub UIKit carries the
#    module version of the iOS 27 SDK's UIKit (9127), so code behind `#if canImport(UIKit, _version: 9127)` —
#    the scene accessories, which no SDK here has — is compiled and checked against the stubs.
UIKIT_IOS27_MODULE_VERSION=9127.0.84
mkdir -p "$WORK/stubs"
stub_count=0
for framework in ObjectiveC QuartzCore Combine UIKit AVFoundation AVKit MediaPlayer WebKit SwiftUI; do
    [ -f "$STUBS/$framework.swift" ] || continue
    version=()
    [ "$framework" = UIKit ] && version=(-user-module-version "$UIKIT_IOS27_MODULE_VERSION")
    if ! "$SWIFTC" -emit-module "${FLAGS[@]}" "${version[@]}" -module-name "$framework" -I "$WORK/stubs" \
        -emit-module-path "$WORK/stubs/$framework.swiftmodule" "$STUBS/$framework.swift" >"$LOG" 2>&1; then
        cat "$LOG"; fail "stub module $framework does not compile"
    fi
    stub_count=$((stub_count + 1))
done

check() { # name, then swiftc arguments
    local name="$1"; shift
    if ! "$SWIFTC" "$@" >"$LOG" 2>&1 || grep -qE '(warning|error):' "$LOG"; then
        cat "$LOG"; fail "$name has errors or warnings"
    fi
}

# 3. The layer: every file, one module, warnings are errors.
mapfile -t layer < <(find Sources/ExternalDisplayUIKit -name '*.swift' -not -path '*.docc/*' | sort)
check "Sources/ExternalDisplayUIKit" -typecheck "${FLAGS[@]}" -warnings-as-errors -module-name ExternalDisplayUIKit \
    -I "$WORK/stubs" -I "$MODULES" "${layer[@]}"

# 4. The example app, against the layer's interface.
mapfile -t example < <(find Examples/iOS -name '*.swift' 2>/dev/null | sort)
if [ "${#example[@]}" -gt 0 ]; then
    "$SWIFTC" -emit-module "${FLAGS[@]}" -Xfrontend -experimental-skip-all-function-bodies -module-name ExternalDisplayUIKit -I "$WORK/stubs" -I "$MODULES" \
        -emit-module-path "$WORK/stubs/ExternalDisplayUIKit.swiftmodule" "${layer[@]}" >"$LOG" 2>&1 \
        || { cat "$LOG"; fail "emitting ExternalDisplayUIKit for the example"; }
    check "Examples/iOS" -typecheck "${FLAGS[@]}" -warnings-as-errors -module-name PhotoPresenter \
        -I "$WORK/stubs" -I "$MODULES" "${example[@]}"
fi

# The iOS 27 code must really have been compiled: a stub UIKit without the version would leave it out.
grep -q "canImport(UIKit, _version: 9127)" Sources/ExternalDisplayUIKit/UIKit/ExternalDisplayAccessory.swift \
    || fail "ExternalDisplayAccessory.swift no longer gates on UIKit 9127; update UIKIT_IOS27_MODULE_VERSION"

echo "typecheck-apple: OK — ${#layer[@]} layer files and ${#example[@]} example files type-check against $stub_count stub modules (UIKit stubs as module version $UIKIT_IOS27_MODULE_VERSION, so the iOS 27 code is included; Swift 6, complete concurrency, 0 warnings)"
