#!/usr/bin/env bash
# Type-checks the Apple layer (Sources/ExternalDisplayUIKit) and the iOS example app (Examples/iOS) against a
# real iOS SDK: Apple's own declarations judge availability, deprecation, main-actor isolation, Sendable and
# optionality. Emits swift-log's Logging and the package's core modules (ExternalDisplayKit,
# ExternalDisplayMedia) for arm64-apple-ios13.0 into a temporary directory, then runs `swiftc -typecheck` in
# Swift 6 mode (complete concurrency checking). Any error or warning fails, and each one is printed.
#
#   scripts/typecheck-ios-sdk.sh [SDK]
#
# The SDK, first found wins:
#   1. the argument;
#   2. the environment variable EDK_IOS_SDK;
#   3. on a Mac, `xcrun --sdk iphoneos --show-sdk-path` (Xcode's iPhoneOS SDK);
#   4. ../shared/apple-sdk/setup.sh beside the repository (the iOS 17.0 subset kit CI provides).
# SDK may name an iPhoneOS SDK directory (with SDKSettings.json), a kit's setup.sh, or a directory holding one.
# With none: prints "skipped: …" and exits 0 — except with CI=true, where a missing SDK fails.
# Nothing of the SDK is copied into the project: the kit unpacks into ${TMPDIR:-/tmp}.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SWIFTC="${SWIFTC:-swiftc}"
TARGET=arm64-apple-ios13.0
# The example app's deployment target: SwiftUI's App, WindowGroup and UIApplicationDelegateAdaptor are iOS 14.
EXAMPLE_TARGET=arm64-apple-ios14.0

say() { echo "typecheck-ios-sdk: $*"; }
fail() { say "FAILED — $1"; exit 1; }

# ---- 1. Find the SDK -----------------------------------------------------------------------------------
source_kind="" ; sdk_spec=""
if [ $# -ge 1 ] && [ -n "$1" ]; then sdk_spec="$1"; source_kind="argument"
elif [ -n "${EDK_IOS_SDK:-}" ]; then sdk_spec="$EDK_IOS_SDK"; source_kind="EDK_IOS_SDK"
elif [ "$(uname -s)" = Darwin ] && command -v xcrun >/dev/null \
    && sdk_spec="$(xcrun --sdk iphoneos --show-sdk-path 2>/dev/null)" && [ -n "$sdk_spec" ]; then
    source_kind="xcrun"
elif [ -x "$ROOT/../shared/apple-sdk/setup.sh" ]; then
    sdk_spec="$(cd "$ROOT/../shared/apple-sdk" && pwd)/setup.sh"; source_kind="../shared/apple-sdk"
fi

if [ -z "$sdk_spec" ]; then
    why="no iOS SDK: no argument, EDK_IOS_SDK unset, no Xcode (xcrun), and no ../shared/apple-sdk/setup.sh beside the repository"
    if [ "${CI:-}" = true ]; then fail "$why (CI=true: the real-SDK check is required)"; fi
    say "skipped: $why. The Apple layer was NOT checked against a real SDK (scripts/typecheck-apple.sh checks it against stubs)."
    exit 0
fi

[ -d "$sdk_spec" ] && [ -x "$sdk_spec/setup.sh" ] && sdk_spec="$sdk_spec/setup.sh"
if [ -f "$sdk_spec" ] && [ -x "$sdk_spec" ]; then
    # A kit: its setup prints the flags (-target, -sdk, -resource-dir, -module-cache-path, -I).
    read -r -a SDK_FLAGS <<<"$("$sdk_spec")" || fail "$sdk_spec did not print flags"
    [ "${#SDK_FLAGS[@]}" -gt 0 ] || fail "$sdk_spec printed no flags"
elif [ -d "$sdk_spec" ] && [ -e "$sdk_spec/SDKSettings.json" ]; then
    SDK_FLAGS=(-target "$TARGET" -sdk "$sdk_spec")
else
    fail "$sdk_spec (from $source_kind) is neither an iPhoneOS SDK directory (with SDKSettings.json) nor a kit's setup.sh"
fi
# Whatever target the kit names, check for the package's deployment target.
for i in "${!SDK_FLAGS[@]}"; do [ "${SDK_FLAGS[$i]}" = -target ] && SDK_FLAGS[$((i + 1))]="$TARGET"; done
sdk_path=""
for i in "${!SDK_FLAGS[@]}"; do [ "${SDK_FLAGS[$i]}" = -sdk ] && sdk_path="${SDK_FLAGS[$((i + 1))]}"; done
sdk_version="$(grep -o '"Version" *: *"[^"]*"' "$sdk_path/SDKSettings.json" 2>/dev/null | grep -o '[0-9][0-9.]*' || echo unknown)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/typecheck-ios-sdk.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
MODULES="$WORK/modules"
mkdir -p "$MODULES" "$WORK/mcache"
# A module cache of our own unless the kit brought one.
printf '%s\n' "${SDK_FLAGS[@]}" | grep -qx -- -module-cache-path || SDK_FLAGS+=(-module-cache-path "$WORK/mcache")
LANGUAGE=(-swift-version 6 -strict-concurrency=complete -parse-as-library)
LOG="$WORK/log"

# Runs swiftc; fails on any error or warning, printing each (deduplicated, with its location).
run() { # label, swiftc arguments…
    local label="$1"; shift
    local status=0
    "$SWIFTC" "$@" >"$LOG" 2>&1 || status=$?
    if [ "$status" -ne 0 ] || grep -qE '(error|warning):' "$LOG"; then
        local found
        found="$(grep -E '^[^ ].*(error|warning):' "$LOG" | sort -u || true)"
        if [ -n "$found" ]; then echo "$found"; else tail -40 "$LOG"; fi
        fail "$label: $(grep -c 'error:' <<<"$found" || true) error(s), $(grep -c 'warning:' <<<"$found" || true) warning(s) (swiftc exit $status)"
    fi
}

# ---- 2. The modules the layer imports, emitted for iOS ----------------------------------------------
swift package resolve >/dev/null 2>&1 || true
log_dir="$(swift package show-dependencies --format json 2>/dev/null \
    | grep -A6 '"identity" *: *"swift-log"' | sed -n 's/.*"path" *: *"\(.*\)".*/\1/p' | head -1)"
[ -d "$log_dir/Sources/Logging" ] || fail "swift-log's sources not found (swift package resolve; got '$log_dir')"
mapfile -t log_sources < <(find "$log_dir/Sources/Logging" -name '*.swift' | sort)
# swift-log's own settings; its function bodies are skipped (this compiler crashes in them for iOS).
run "swift-log (Logging)" -emit-module "${SDK_FLAGS[@]}" -swift-version 6 -parse-as-library -module-name Logging \
    -package-name swift_log -enable-upcoming-feature ExistentialAny \
    -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature NonisolatedNonsendingByDefault -Xfrontend -experimental-skip-all-function-bodies \
    -emit-module-path "$MODULES/Logging.swiftmodule" "${log_sources[@]}"
for module in ExternalDisplayKit ExternalDisplayMedia; do
    mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
    run "$module" -emit-module -wmo "${SDK_FLAGS[@]}" "${LANGUAGE[@]}" -module-name "$module" -I "$MODULES" \
        -emit-module-path "$MODULES/$module.swiftmodule" "${sources[@]}"
done

# ---- 3. The layer, then the example app against the layer's interface --------------------------------
mapfile -t layer < <(find Sources/ExternalDisplayUIKit -name '*.swift' | sort)
run "Sources/ExternalDisplayUIKit" -typecheck "${SDK_FLAGS[@]}" "${LANGUAGE[@]}" -continue-building-after-errors \
    -module-name ExternalDisplayUIKit -I "$MODULES" "${layer[@]}"
run "ExternalDisplayUIKit (module for the example)" -emit-module "${SDK_FLAGS[@]}" "${LANGUAGE[@]}" \
    -Xfrontend -experimental-skip-non-inlinable-function-bodies \
    -module-name ExternalDisplayUIKit -I "$MODULES" -emit-module-path "$MODULES/ExternalDisplayUIKit.swiftmodule" \
    "${layer[@]}"
mapfile -t example < <(find Examples/iOS -name '*.swift' | sort)
[ "${#example[@]}" -gt 0 ] || fail "no example sources under Examples/iOS"
EXAMPLE_FLAGS=("${SDK_FLAGS[@]}")
for i in "${!EXAMPLE_FLAGS[@]}"; do [ "${EXAMPLE_FLAGS[$i]}" = -target ] && EXAMPLE_FLAGS[$((i + 1))]="$EXAMPLE_TARGET"; done
run "Examples/iOS" -typecheck "${EXAMPLE_FLAGS[@]}" "${LANGUAGE[@]}" -continue-building-after-errors \
    -module-name PhotoPresenter -I "$MODULES" "${example[@]}"

say "OK — ${#layer[@]} layer files ($TARGET) and ${#example[@]} example files ($EXAMPLE_TARGET) type-check against the iOS $sdk_version SDK from $source_kind (Swift 6, complete concurrency): 0 errors, 0 warnings"
