import ArgumentParser
import ExternalDisplayPresenter

/// `--notes right|left|bottom` parses straight into the presenter's split-page setting.
extension BeamerNotes: ExpressibleByArgument {}
