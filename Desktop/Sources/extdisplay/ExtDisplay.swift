import ArgumentParser

/// The `extdisplay` command-line tool: simulate display scenarios, inspect real monitors, serve Now Playing,
/// and present slides on a second screen.
@main
struct ExtDisplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extdisplay",
        abstract: "External displays done right: simulate, inspect, watch, present.",
        discussion: """
        Exit status, every command: 0 success; 1 the command failed (one line on standard error says why; \
        `doctor`: an essential is missing); 2 a file or setting `present`, `play`, `simulate` or `export` cannot use \
        (the deck, the clip, the scenario); 64 the arguments are wrong (a usage line follows); 74 when standard output \
        or standard error cannot be written (a full disk, a closed pipe; one line on standard error says which \
        stream and why).

        Manual pages: extdisplay(1) and extdisplay-COMMAND(1) for each command.
        """,
        version: ExtDisplayVersion.current,
        subcommands: [
            SimulateCommand.self,
            ListCommand.self,
            WatchCommand.self,
            NowPlayingCommand.self,
            PresentCommand.self,
            PlayCommand.self,
            RestoreCommand.self,
            DoctorCommand.self,
            ReportCommand.self,
            ExportCommand.self,
        ]
    )
}
