import Foundation

/// The one line a headless-compositor script prints when its compositor is up (`scripts/sway-headless.sh`,
/// `mutter-headless.sh`, `kwin-headless.sh`): `NAME=VALUE` pairs separated by spaces, as a dictionary.
public enum HeadlessScriptLine {
    /// The line's `NAME=VALUE` pairs; words without `=` are ignored, a value keeps any further `=`.
    public static func fields(_ line: some StringProtocol) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1)
            if nameAndValue.count == 2 { fields[String(nameAndValue[0])] = String(nameAndValue[1]) }
        }
        return fields
    }
}
