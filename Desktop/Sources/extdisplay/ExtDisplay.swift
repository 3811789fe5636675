import ArgumentParser

/// The `extdisplay` command-line tool: simulate display scenarios, inspect real monitors, serve Now Playing,
/// and present slides on a second screen.
@main
struct ExtDisplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extdisplay",
        abstract: "External displays done right: simulate, inspect, watch, present.",
        discussion: """
        Every command: exit status 74 when standard output or standard error cannot be written (a full disk, a \
        closed pipe); one line on standard error says which stream and why.
        """,
        subcommands: [
            SimulateCommand.self,
            ListCommand.self,
            WatchCommand.self,
            NowPlayingCommand.self,
            PresentCommand.self,
            PlayCommand.self,
            RestoreCommand.self,
            ReportCommand.self,
        ]
    )
}
