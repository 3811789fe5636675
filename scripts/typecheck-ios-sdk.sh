#!/usr/bin/env bash
# Type-checks the Apple layer (Sources/ExternalDisplayUIKit) and the iOS example app (Examples/iOS) against real
# iOS SDKs: Apple's own declarations judge availability, deprecation, main-actor isolation, Sendable and
# optionality. For each SDK it checks twice: at the package's deployment target (read from Package.swift) and at
# the newest deployment target the SDK supports (its major version: iOS 17.0 for the 17.0 SDK, iOS 26.0 for the
# 26.2 SDK), where every deprecation up to that version is reported. Each check emits swift-log's Logging and the
# package's core modules (ExternalDisplayKit, ExternalDisplayMedia) for that target into a temporary directory,
# then runs `swiftc -typecheck` in Swift 6 mode (complete concurrency checking). Any error or warning fails, and
# each one is printed.
#
#   scripts/typecheck-ios-sdk.sh [SDK…]
#
# The SDKs, first rule that gives any wins:
#   1. the arguments;
#   2. the environment variable EDK_IOS_SDK (one SDK, or several separated by ':');
#   3. the default set: the iOS 17.0 kit ../shared/apple-sdk and the iOS 26.2 kit ../shared/apple-sdk-26 beside
#      the repository, plus Xcode's iPhoneOS SDK (`xcrun --sdk iphoneos`) on a Mac.
# Each SDK may name an iPhoneOS SDK directory (with SDKSettings.json), a kit's setup.sh, or a directory holding one.
# A default kit that is missing is skipped with a line saying so ("skipped: …") — except with CI=true, where a
# missing SDK fails the run; an SDK named by an argument or EDK_IOS_SDK must always exist.
# Nothing of the SDK is copied into the project: kits unpack into ${TMPDIR:-/tmp}.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SWIFTC="${SWIFTC:-swiftc}"

say() { echo "typecheck-ios-sdk: $*"; }
fail() { say "FAILED — $1"; exit 1; }

# The package's iOS deployment target, from Package.swift (`.iOS(.v15)` → 15.0).
PACKAGE_IOS="$(sed -n 's/.*\.iOS(\.v\([0-9][0-9]*\)\(_\([0-9]*\)\)\{0,1\}).*/\1.\3/p' Package.swift | head -1)"
PACKAGE_IOS="${PACKAGE_IOS%.}"; [[ "$PACKAGE_IOS" == *.* ]] || PACKAGE_IOS="$PACKAGE_IOS.0"
[[ "$PACKAGE_IOS" =~ ^[0-9]+\.[0-9]+$ ]] || fail "could not read the iOS deployment target from Package.swift"
# The example app's deployment target: SwiftUI's App, WindowGroup and UIApplicationDelegateAdaptor need iOS 14;
# it is never below the package's.
EXAMPLE_MINIMUM=14.0

# ---- 1. Which SDKs --------------------------------------------------------------------------------------
specs=() ; origins=() ; required=()
add() { specs+=("$1"); origins+=("$2"); required+=("$3"); }
if [ $# -ge 1 ]; then
    for sdk in "$@"; do add "$sdk" argument yes; done
elif [ -n "${EDK_IOS_SDK:-}" ]; then
    IFS=: read -r -a listed <<<"$EDK_IOS_SDK"
    for sdk in "${listed[@]}"; do [ -n "$sdk" ] && add "$sdk" EDK_IOS_SDK yes; done
else
    if [ "$(uname -s)" = Darwin ] && command -v xcrun >/dev/null \
        && xcode_sdk="$(xcrun --sdk iphoneos --show-sdk-path 2>/dev/null)" && [ -n "$xcode_sdk" ]; then
        add "$xcode_sdk" xcrun yes
    fi
    add "$ROOT/../shared/apple-sdk" "../shared/apple-sdk (iOS 17.0 kit)" no
    add "$ROOT/../shared/apple-sdk-26" "../shared/apple-sdk-26 (iOS 26.2 kit)" no
fi

# ---- 1b. Which of them exist: a missing one fails under CI=true, and is skipped with a plain line otherwise --
usable=() ; usable_origins=() ; skipped=0
for index in "${!specs[@]}"; do
    spec="${specs[$index]}" origin="${origins[$index]}"
    [ -d "$spec" ] && [ -x "$spec/setup.sh" ] && spec="$spec/setup.sh"
    if [ ! -e "$spec" ]; then
        if [ "${required[$index]}" = yes ]; then fail "$spec (from $origin) does not exist"; fi
        if [ "${CI:-}" = true ]; then fail "no SDK at $spec ($origin); CI=true: the real-SDK check is required"; fi
        say "skipped: no SDK at $spec ($origin). The Apple layer was NOT checked against this SDK."
        skipped=$((skipped + 1))
        continue
    fi
    usable+=("$spec"); usable_origins+=("$origin")
done
if [ "${#usable[@]}" -eq 0 ]; then
    say "skipped: no iOS SDK found; the Apple layer was NOT checked against a real SDK (scripts/typecheck-apple.sh checks it against stubs)."
    exit 0
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/typecheck-ios-sdk.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
LOG="$WORK/log"
LANGUAGE=(-swift-version 6 -strict-concurrency=complete -parse-as-library -package-name externaldisplaykit)

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

# swift-log's sources (its checkout from `swift package resolve`).
swift package resolve >/dev/null 2>&1 || true
log_dir="$(swift package show-dependencies --format json 2>/dev/null \
    | grep -A6 '"identity" *: *"swift-log"' | sed -n 's/.*"path" *: *"\(.*\)".*/\1/p' | head -1)"
[ -d "$log_dir/Sources/Logging" ] || fail "swift-log's sources not found (swift package resolve; got '$log_dir')"
mapfile -t log_sources < <(find "$log_dir/Sources/Logging" -name '*.swift' | sort)
mapfile -t layer < <(find Sources/ExternalDisplayUIKit -name '*.swift' -not -path '*.docc/*' | sort)
mapfile -t example < <(find Examples/iOS -name '*.swift' | sort)
[ "${#example[@]}" -gt 0 ] || fail "no example sources under Examples/iOS"

# The larger of two versions (major.minor).
newer() { printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n | tail -1; }

# ---- 2. One SDK at one deployment target --------------------------------------------------------------
check_target() { # label, deployment target (e.g. 26.0), SDK flags…
    local sdk_label="$1" version="$2"; shift 2
    local flags=("$@") target="arm64-apple-ios$version"
    for i in "${!flags[@]}"; do [ "${flags[$i]}" = -target ] && flags[$((i + 1))]="$target"; done
    local example_version; example_version="$(newer "$version" "$(newer "$PACKAGE_IOS" "$EXAMPLE_MINIMUM")")"
    local example_flags=("${flags[@]}")
    for i in "${!example_flags[@]}"; do
        [ "${example_flags[$i]}" = -target ] && example_flags[$((i + 1))]="arm64-apple-ios$example_version"
    done
    local modules="$WORK/modules-$RANDOM$RANDOM"
    mkdir -p "$modules"
    # swift-log with its own settings; its function bodies are skipped (this compiler crashes in them for iOS).
    run "$sdk_label, iOS $version: swift-log (Logging)" -emit-module "${flags[@]}" -swift-version 6 -parse-as-library \
        -module-name Logging -package-name swift_log -enable-upcoming-feature ExistentialAny \
        -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InternalImportsByDefault \
        -enable-upcoming-feature NonisolatedNonsendingByDefault -Xfrontend -experimental-skip-all-function-bodies \
        -emit-module-path "$modules/Logging.swiftmodule" "${log_sources[@]}"
    for module in ExternalDisplayKit ExternalDisplayMedia; do
        mapfile -t sources < <(find "Sources/$module" -name '*.swift' -not -path '*.docc/*' | sort)
        run "$sdk_label, iOS $version: $module" -emit-module -wmo "${flags[@]}" "${LANGUAGE[@]}" -module-name "$module" \
            -I "$modules" -emit-module-path "$modules/$module.swiftmodule" "${sources[@]}"
    done
    # The layer, then the example app against the layer's interface.
    run "$sdk_label, iOS $version: Sources/ExternalDisplayUIKit" -typecheck "${flags[@]}" "${LANGUAGE[@]}" \
        -continue-building-after-errors -module-name ExternalDisplayUIKit -I "$modules" "${layer[@]}"
    run "$sdk_label, iOS $version: ExternalDisplayUIKit (module for the example)" -emit-module "${flags[@]}" \
        "${LANGUAGE[@]}" -Xfrontend -experimental-skip-non-inlinable-function-bodies -module-name ExternalDisplayUIKit \
        -I "$modules" -emit-module-path "$modules/ExternalDisplayUIKit.swiftmodule" "${layer[@]}"
    run "$sdk_label, iOS $example_version: Examples/iOS" -typecheck "${example_flags[@]}" "${LANGUAGE[@]}" \
        -continue-building-after-errors -module-name PhotoPresenter -I "$modules" "${example[@]}"
    say "OK — iOS $sdk_label SDK at deployment target iOS $version: ${#layer[@]} layer files (arm64-apple-ios$version) and ${#example[@]} example files (arm64-apple-ios$example_version), Swift 6, complete concurrency: 0 errors, 0 warnings"
}

# ---- 3. Every SDK -------------------------------------------------------------------------------------
checked=0
for index in "${!usable[@]}"; do
    spec="${usable[$index]}" origin="${usable_origins[$index]}"
    if [ -f "$spec" ] && [ -x "$spec" ]; then
        # A kit: its setup prints the flags (-target, -sdk, -resource-dir, -module-cache-path, -I).
        read -r -a SDK_FLAGS <<<"$("$spec")" || fail "$spec did not print flags"
        [ "${#SDK_FLAGS[@]}" -gt 0 ] || fail "$spec printed no flags"
    elif [ -d "$spec" ] && [ -e "$spec/SDKSettings.json" ]; then
        SDK_FLAGS=(-target "arm64-apple-ios$PACKAGE_IOS" -sdk "$spec")
    else
        fail "$spec (from $origin) is neither an iPhoneOS SDK directory (with SDKSettings.json) nor a kit's setup.sh"
    fi
    sdk_path=""
    for i in "${!SDK_FLAGS[@]}"; do [ "${SDK_FLAGS[$i]}" = -sdk ] && sdk_path="${SDK_FLAGS[$((i + 1))]}"; done
    sdk_version="$(grep -o '"Version" *: *"[^"]*"' "$sdk_path/SDKSettings.json" 2>/dev/null | grep -o '[0-9][0-9.]*' || true)"
    [[ "$sdk_version" =~ ^[0-9]+ ]] || fail "$sdk_path/SDKSettings.json names no Version"
    # A module cache of our own unless the kit brought one.
    printf '%s\n' "${SDK_FLAGS[@]}" | grep -qx -- -module-cache-path || SDK_FLAGS+=(-module-cache-path "$WORK/mcache")
    newest="${sdk_version%%.*}.0"
    [ "$(newer "$newest" "$PACKAGE_IOS")" = "$newest" ] \
        || fail "the iOS $sdk_version SDK is older than the package's deployment target iOS $PACKAGE_IOS"
    say "iOS $sdk_version SDK from $origin: checking at iOS $PACKAGE_IOS (the package's deployment target) and iOS $newest (the newest this SDK supports)"
    for version in $(printf '%s\n' "$PACKAGE_IOS" "$newest" | sort -u -t. -k1,1n -k2,2n); do
        check_target "$sdk_version" "$version" "${SDK_FLAGS[@]}"
        checked=$((checked + 1))
    done
done
if [ "$skipped" -gt 0 ]; then say "all $checked SDK checks passed; $skipped SDK(s) SKIPPED (see above)"; else say "all $checked SDK checks passed"; fi
