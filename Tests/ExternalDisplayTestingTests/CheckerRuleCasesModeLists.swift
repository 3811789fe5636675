extension RuleCase {
    /// `modesChanged`: the window stays and is laid out again.
    static let modeLists: [RuleCase] = [
        RuleCase(rule: .windowKeptOnModesChange, name: "window recreated for a new viewport",
                 good: Line.base() + [CheckerModesChangedTests.resize,
                                      Line.command(1, "layoutWindow", "tv", Line.frames("[0,0,1600,900]"))],
                 bad: Line.base() + [CheckerModesChangedTests.resize]
                    + Line.recreate(1, "[1600,900]", frame: "[0,0,1600,900]", setMode: false), line: 15),
    ]
}
