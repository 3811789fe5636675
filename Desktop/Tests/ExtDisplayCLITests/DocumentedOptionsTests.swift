import ExtDisplayTestSupport
import Foundation
import Testing

/// The documents and the man pages agree with the parser: every `--option` written after `extdisplay COMMAND` in
/// the README or docs/commands.md is one of that command's options in the parser's own description
/// (`--experimental-dump-help`), and the man pages made from that description render without a warning.
@Suite("Documents and man pages agree with the parser")
struct DocumentedOptionsTests {
    /// Each command's long option names (the visible ones), from the built binary's `--experimental-dump-help`.
    static func parserOptions() throws -> [String: Set<String>] {
        let result = try runToEnd(try Repository.extdisplay().path, ["--experimental-dump-help"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try #require(json["command"] as? [String: Any])
        var options: [String: Set<String>] = [:]
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            // `help` is the parser's own command (no page); hidden options are neither documented nor on pages.
            guard let name = sub["commandName"] as? String, name != "help" else { continue }
            var names: Set<String> = ["--help", "--version"]
            for argument in sub["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                for spelled in argument["names"] as? [[String: String]] ?? [] where spelled["kind"] == "long" {
                    names.insert("--" + (spelled["name"] ?? ""))
                }
            }
            options[name] = names
        }
        return options
    }

    /// Command lines in a Markdown text: code spans that start with `extdisplay `, and lines of code blocks that do
    /// (a line ending in a backslash continues on the next).
    static func commandLines(in text: String) -> [String] {
        var lines: [String] = []
        let spans = text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        lines += spans.filter { $0.hasPrefix("extdisplay ") }
        for (index, block) in text.components(separatedBy: "```").enumerated() where index % 2 == 1 {
            let joined = block.replacingOccurrences(of: "\\\n", with: " ")
            lines += joined.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("extdisplay ") }
        }
        return lines.map { String($0.split(separator: "#", maxSplits: 1).first ?? "") }
    }

    /// The `--name` tokens of a command line.
    static func optionTokens(_ line: String) -> [String] {
        line.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "]" || $0 == "|" || $0 == "=" || $0 == "," })
            .map(String.init).filter { $0.hasPrefix("--") && $0.count > 2 && $0.dropFirst(2).first?.isLetter == true }
    }

    @Test("every option written after `extdisplay COMMAND` in README.md and docs/commands.md is the parser's")
    func documentedOptionsExist() throws {
        let options = try Self.parserOptions()
        #expect(Set(options.keys).isSuperset(of: ["present", "play", "list", "watch", "simulate", "restore", "doctor"]))
        var checked = 0
        for file in ["README.md", "docs/commands.md"] {
            let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
            for line in Self.commandLines(in: text) {
                let words = line.split(separator: " ")
                guard words.count > 1, let known = options[String(words[1])] else { continue }
                for token in Self.optionTokens(line) {
                    checked += 1
                    #expect(known.contains(token), "\(file): `\(line)`: \(token) is not an option of extdisplay \(words[1])")
                }
            }
        }
        #expect(checked > 30, "only \(checked) documented options found: did the documents move?")
    }

    @Test("scripts/man-from-help.py writes a page per command that man renders without warnings, with every option")
    func manPagesRender() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("man-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try runToEnd("/usr/bin/python3", [Repository.script("man-from-help.py"), try Repository.extdisplay().path, dir.path])
        #expect(made.status == 0, "\(made.stderr)")
        let options = try Self.parserOptions()
        for command in ["extdisplay"] + options.keys.sorted().map({ "extdisplay-\($0)" }) {
            let page = dir.appendingPathComponent("\(command).1")
            let shown = try runToEnd("/usr/bin/man", ["--warnings", "-l", page.path],
                                     environment: ["MANWIDTH": "100", "LC_ALL": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
            #expect(shown.status == 0, "\(command): \(shown.stderr)")
            #expect(shown.stderr.isEmpty, "\(command): man warns: \(shown.stderr)")
            #expect(shown.stdout.contains("NAME") && shown.stdout.contains("SYNOPSIS"), "\(command): \(shown.stdout.prefix(300))")
            let name = String(command.dropFirst("extdisplay-".count))
            // man prints ASCII hyphens in C.UTF-8 as "-" or U+2010; compare without hyphens.
            let plain = shown.stdout.replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
            for option in options[name] ?? [] {
                #expect(plain.contains(option), "\(command): \(option) is not on the page")
            }
        }
        let main = try String(contentsOf: dir.appendingPathComponent("extdisplay.1"), encoding: .utf8)
        for section in ["FILES", "ENVIRONMENT", "EXIT STATUS"] { #expect(main.contains(".SH \(section)")) }
        let present = try String(contentsOf: dir.appendingPathComponent("extdisplay-present.1"), encoding: .utf8)
        #expect(present.contains(".SH KEYS"))
    }
}
