import DesktopFiles
import ExtDisplayTestSupport
import ExternalDisplayTesting
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Video clips in PDF decks: movie annotations, screen annotations with a rendition action, and links to local
/// video files (pdfpc's `?autostart&loop&noaudio&start=&stop=`), read from PDFs written here by hand with real
/// `mutool`, a real WebM made by `gst-launch-1.0`, and every expected rectangle computed by hand in the comments.
@Suite("PDF video clips", .serialized)
struct PDFClipTests {
    // MARK: Making decks

    /// A page of a hand-written PDF: its own entries (`/MediaBox …`) and its annotations' dictionaries.
    struct Page {
        var entries = "/MediaBox [0 0 800 600]"
        var annotations: [String]
    }

    /// A talk folder with `clip.webm` (a real VP8 WebM) and `talk.pdf` made of `pages`: object 1 is the catalog,
    /// 2 the page tree (`tree` added to it), 3… the `extra` objects (so annotations can refer to them by number),
    /// then each page and its annotations (`$FOLDER` in them stands for the talk's folder).
    static func talk(_ pages: [Page], tree: String = "", extra: [String] = [],
                     files: [String: Data] = [:]) throws -> (pdf: URL, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdfclips-\(UUID().uuidString)/talk")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try #require(Self.webm, "gst-launch-1.0 made no WebM"),
                                         to: folder.appendingPathComponent("clip.webm"))
        for (name, data) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", ""] + extra
        var kids: [String] = []
        for page in pages {
            let number = objects.count + 1
            kids.append("\(number) 0 R")
            let annots = page.annotations.indices.map { "\(number + 1 + $0) 0 R" }.joined(separator: " ")
            objects.append("<< /Type /Page /Parent 2 0 R \(page.entries) /Annots [\(annots)] >>")
            objects += page.annotations.map {
                "<< /Type /Annot \($0.replacingOccurrences(of: "$FOLDER", with: folder.path)) >>"
            }
        }
        objects[1] = "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(pages.count) \(tree) >>"
        let pdf = folder.appendingPathComponent("talk.pdf")
        try MiniPDF.assemble(objects).write(to: pdf)
        return (pdf, folder)
    }

    /// A real WebM (2 frames of VP8, 64×36), made once with gst-launch-1.0; nil when it cannot be made.
    static let webm: URL? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdfclips-webm-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("clip.webm")
        let made = try? Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=2",
                                   "!", "video/x-raw,width=64,height=36,framerate=30/1", "!", "vp8enc", "deadline=1", "!",
                                   "webmmux", "!", "filesink", "location=\(url.path)"])
        return made?.status == 0 ? url : nil
    }()

    static func read(_ pdf: URL, pages: Int) throws -> PDFClipReader.Outcome {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        return PDFClipReader.read(pdf, pageCount: pages)
    }

    static func close(_ a: SlideClip.Rect?, _ b: SlideClip.Rect) -> Bool {
        guard let a else { return false }
        return [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 1e-9 }
    }

    static func messages(_ outcome: PDFClipReader.Outcome) -> String {
        outcome.problems.map { "p\($0.page + 1): \($0.message)" }.joined(separator: "\n")
    }

    // MARK: One test per kind

    @Test func aMovieAnnotationPlaysItsFileWithItsActivation() throws {
        // Page 800×600 (y up). Rect x 80…400, y 60…300: x 0.1, width 0.4; top (600 − 300)/600 = 0.5, height 0.4.
        let talk = try Self.talk([Page(annotations: [
            "/Subtype /Movie /Rect [80 60 400 300] /Movie << /F (clip.webm) >> "
                + "/A << /Mode /Repeat /Start 2 /Duration [1800 600] /Volume -1 >>",
            // Written the other way round ([x1 y1 x0 y0]): the same rectangle. /A true: defaults.
            "/Subtype /Movie /Rect [400 300 80 60] /Movie << /F << /Type /Filespec /F (clip.webm) >> >> /A true",
        ])])
        let read = try Self.read(talk.pdf, pages: 1)
        let clips = read.clips[0] ?? []
        try #require(clips.count == 2, "\(read)")
        let expected = SlideClip.Rect(x: 0.1, y: 0.5, width: 0.4, height: 0.4)
        #expect(clips[0].url == talk.folder.appendingPathComponent("clip.webm").standardizedFileURL)
        #expect(Self.close(clips[0].pageRect, expected), "\(String(describing: clips[0].pageRect))")
        // Start 2 s; duration 1800 units at 600 a second = 3 s, so it stops at 5 s; a negative volume mutes.
        #expect(clips[0].loops && clips[0].muted && !clips[0].autoplay && clips[0].start == 2 && clips[0].stop == 5)
        #expect(Self.close(clips[1].pageRect, expected))
        #expect(!clips[1].loops && !clips[1].muted && clips[1].start == 0 && clips[1].stop == nil)
        #expect(read.problems.isEmpty, "\(Self.messages(read))")
    }

    @Test func aScreenAnnotationPlaysItsRendition() throws {
        // Page 1000×500. Rect x 100…600, y 100…400: x 0.1, width 0.5; top (500 − 400)/500 = 0.2, height 0.6.
        let rendition = "<< /S /MR /C << /S /MCD /CT (video/webm) /D << /Type /Filespec /F (clip.webm) /UF (clip.webm) >> >> "
            + "/P << /BE << /RC 0 /V 0 >> >> >>"
        // A selector whose first choice names nothing, whose second is a section from 1.5 s to 4 s.
        let selector = "<< /S /SR /R [<< /S /MR /C << /S /MCD >> >> << /S /MR /C << /S /MCS /D 3 0 R "
            + "/BE << /B << /S /T /T << /S /S /V 1.5 >> >> /E << /S /T /T << /S /S /V 4 >> >> >> >> >>] >>"
        let talk = try Self.talk([Page(entries: "/MediaBox [0 0 1000 500]", annotations: [
            // Played when the page opens (/AA /PO): autoplay.
            "/Subtype /Screen /Rect [100 100 600 400] /AA << /PO << /S /Rendition /OP 0 /R \(rendition) >> >>",
            // Played on a click (/A).
            "/Subtype /Screen /Rect [100 100 600 400] /A << /S /Rendition /R \(selector) >>",
        ])], extra: ["<< /S /MCD /D (clip.webm) >>"])
        let read = try Self.read(talk.pdf, pages: 1)
        let clips = read.clips[0] ?? []
        try #require(clips.count == 2, "\(read)")
        let expected = SlideClip.Rect(x: 0.1, y: 0.2, width: 0.5, height: 0.6)
        #expect(Self.close(clips[0].pageRect, expected) && Self.close(clips[1].pageRect, expected))
        // Repeat count 0: for ever; volume 0: muted.
        #expect(clips[0].autoplay && clips[0].loops && clips[0].muted)
        #expect(!clips[1].autoplay && !clips[1].loops && !clips[1].muted && clips[1].start == 1.5 && clips[1].stop == 4)
        #expect(read.problems.isEmpty, "\(Self.messages(read))")
    }

    @Test func linksLaunchingOrPointingAtALocalVideoPlayWithPdfpcsOptions() throws {
        // Page 800×600. Rect x 0…400, y 300…600: the top-left quarter.
        let rect = "/Rect [0 300 400 600]"
        let talk = try Self.talk([Page(annotations: [
            "/Subtype /Link \(rect) /A << /S /Launch /F (clip.webm?autostart&loop&noaudio&start=5&stop=10) >>",
            "/Subtype /Link \(rect) /A << /S /URI /URI (videos/clip%20two.webm?noprogress&stop=2.5) >>",
            "/Subtype /Link \(rect) /A << /S /URI /URI (file://localhost$FOLDER/clip.webm?autostart) >>",
            // Not about video: a web page, a jump inside the deck, a launched document. Nothing is said.
            "/Subtype /Link \(rect) /A << /S /URI /URI (https://example.org/about) >>",
            "/Subtype /Link \(rect) /A << /S /GoTo /D [0 /Fit] >>",
            "/Subtype /Link \(rect) /A << /S /Launch /F (notes.txt) >>",
        ])], files: ["videos/clip two.webm": try Data(contentsOf: try #require(Self.webm)),
                     "notes.txt": Data("not a video".utf8)])
        let read = try Self.read(talk.pdf, pages: 1)
        let clips = read.clips[0] ?? []
        try #require(clips.count == 3, "\(read)")
        let quarter = SlideClip.Rect(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(clips.allSatisfy { Self.close($0.pageRect, quarter) })
        #expect(clips[0].autoplay && clips[0].loops && clips[0].muted && clips[0].start == 5 && clips[0].stop == 10)
        #expect(clips[1].url.path == talk.folder.appendingPathComponent("videos/clip two.webm").path)
        #expect(!clips[1].autoplay && !clips[1].loops && clips[1].stop == 2.5)
        #expect(clips[2].url.path == talk.folder.appendingPathComponent("clip.webm").path && clips[2].autoplay)
        #expect(read.problems.isEmpty, "\(Self.messages(read))")
    }

    // MARK: Where on the page

    @Test func theRectangleFollowsTheCropBoxAndTheRotation() throws {
        // MediaBox 800×600, CropBox x 100…500, y 100…400 (400×300: what pdfinfo sizes the page by). The movie's
        // Rect x 200…300, y 160…400 is, in the CropBox, x 100…200 of 400 and y 60…300 of 300 from the bottom:
        // unturned, left 0.25, width 0.25, top (300 − 300)/300 = 0, height 240/300 = 0.8.
        // Turned 90° clockwise (the page 300 wide, 400 tall): the bottom edge becomes the left edge, so the
        // shown x is the height above the bottom, 60…300 of 300 → x 0.2, width 0.8; the shown y is x, 100…200 of
        // 400 → y 0.25, height 0.25.
        // 180°: x (400 − 200)/400 = 0.5, width 0.25; y 60/300 = 0.2 from the top, height 0.8.
        // 270°: x = the depth below the top, 0…240 of 300 → 0, width 0.8; y = 1 − 200/400 = 0.5, height 0.25.
        let movie = "/Subtype /Movie /Rect [200 160 300 400] /Movie << /F (clip.webm) >>"
        let boxes = "/MediaBox [0 0 800 600] /CropBox [100 100 500 400]"
        let talk = try Self.talk([Page(entries: boxes, annotations: [movie]),            // Rotate 90 from the tree
                                  Page(entries: boxes + " /Rotate 180", annotations: [movie]),
                                  Page(entries: boxes + " /Rotate -90", annotations: [movie]),
                                  Page(entries: boxes + " /Rotate 0", annotations: [movie])],
                                 tree: "/Rotate 90")
        let read = try Self.read(talk.pdf, pages: 4)
        let expected = [SlideClip.Rect(x: 0.2, y: 0.25, width: 0.8, height: 0.25),
                        SlideClip.Rect(x: 0.5, y: 0.2, width: 0.25, height: 0.8),
                        SlideClip.Rect(x: 0, y: 0.5, width: 0.8, height: 0.25),
                        SlideClip.Rect(x: 0.25, y: 0, width: 0.25, height: 0.8)]
        for (page, rect) in expected.enumerated() {
            #expect(Self.close(read.clips[page]?.first?.pageRect, rect),
                    "page \(page + 1): \(String(describing: read.clips[page]?.first?.pageRect)), want \(rect)")
        }
        // The same box the page's size comes from: pdfinfo says 400×300 turned.
        let info = try PDFInfo.read(talk.pdf)
        #expect(info.pages[0] == PDFInfo.PageSize(width: 300, height: 400))
        #expect(info.pages[3] == PDFInfo.PageSize(width: 400, height: 300))
    }

    @Test func aRectanglePartlyOffThePageIsClippedAndOneWhollyOffIsSaid() throws {
        // x −400…400 of 800 → the left half; y 300…900 → the top half: x 0, y 0, width 0.5, height 0.5.
        let talk = try Self.talk([Page(annotations: [
            "/Subtype /Movie /Rect [-400 300 400 900] /Movie << /F (clip.webm) >>",
            "/Subtype /Movie /Rect [900 700 1000 800] /Movie << /F (clip.webm) >>",
            "/Subtype /Movie /Rect [10 10 10 50] /Movie << /F (clip.webm) >>",
            "/Subtype /Movie /Rect [-1e308 0 1e308 10] /Movie << /F (clip.webm) >>",
            "/Subtype /Movie /Rect [1e999 0 1 1] /Movie << /F (clip.webm) >>",
            "/Subtype /Movie /Rect (0 0 1 1) /Movie << /F (clip.webm) >>",
        ])])
        let read = try Self.read(talk.pdf, pages: 1)
        #expect(read.clips[0]?.count == 1 && Self.close(read.clips[0]?.first?.pageRect,
                                                        SlideClip.Rect(x: 0, y: 0, width: 0.5, height: 0.5)), "\(read)")
        let notOnPage = read.problems.filter { $0.message.contains("is not on the page; not played") }
        #expect(notOnPage.count == 5, "\(Self.messages(read))")
        #expect(read.problems.contains { $0.message.contains("[900 700 1000 800]") })
    }

    // MARK: Where the file is

    @Test func relativeAbsoluteAndParentPathsResolveAgainstThePDFsFolder() throws {
        let rect = "/Rect [0 0 800 600]"
        let talk = try Self.talk([Page(annotations: [
            "/Subtype /Movie \(rect) /Movie << /F (./media/../clip.webm) >>",
            // `..` may leave the talk's folder: videos often sit beside it.
            "/Subtype /Movie \(rect) /Movie << /F (../shared/clip.webm) >>",
            "/Subtype /Movie \(rect) /Movie << /F ($FOLDER/clip.webm) >>",
            "/Subtype /Link \(rect) /A << /S /URI /URI (file://$FOLDER/clip.webm) >>",
        ])])
        let shared = talk.folder.deletingLastPathComponent().appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try #require(Self.webm), to: shared.appendingPathComponent("clip.webm"))
        let read = try Self.read(talk.pdf, pages: 1)
        let paths = (read.clips[0] ?? []).map(\.url.path)
        let own = talk.folder.appendingPathComponent("clip.webm").path
        #expect(paths == [own, shared.appendingPathComponent("clip.webm").standardizedFileURL.path, own, own],
                "\(paths) \(Self.messages(read))")
        // The deck carries them: the slide's page has its clips, the reader's folder is the PDF's.
        let deck = try DeckParser.parse(contentsOf: talk.pdf)
        #expect(deck.slides[0].pdfPage?.clips.count == 4)
    }

    @Test func onlyTheFirstBytesOfALargeVideoAreRead() throws {
        // 64 MiB: a WebM's first bytes, then zeros. Its signature is read (256 bytes), never the whole file.
        var big = try Data(contentsOf: try #require(Self.webm))
        big.append(Data(count: 64 << 20))
        let talk = try Self.talk([Page(annotations: ["/Subtype /Movie /Rect [0 0 800 600] /Movie << /F (big.webm) >>"])],
                                 files: ["big.webm": big])
        let head = try UntrustedFile.head(talk.folder.appendingPathComponent("big.webm"), count: 256)
        #expect(head.count == 256 && Data(head) == big.prefix(256))
        let read = try Self.read(talk.pdf, pages: 1)
        #expect(read.clips[0]?.first?.url.lastPathComponent == "big.webm", "\(Self.messages(read))")
    }

    // MARK: What is not played, and says so

    @Test func missingNonVideoAndOddFilesAreSaidAndNotPlayed() throws {
        let rect = "/Rect [0 0 800 600]"
        let talk = try Self.talk([Page(annotations: [
            "/Subtype /Movie \(rect) /Movie << /F (gone.webm) >>",
            "/Subtype /Movie \(rect) /Movie << /F (slides.txt) >>",
            "/Subtype /Link \(rect) /A << /S /Launch /F (fake.mp4?loop) >>",
            "/Subtype /Movie \(rect) /Movie << /F (folder.webm) >>",
            "/Subtype /Movie \(rect) /Movie << /F (pipe.webm) >>",
            "/Subtype /Link \(rect) /A << /S /URI /URI (https://example.org/film.mp4) >>",
            "/Subtype /Link \(rect) /A << /S /URI /URI (file://server/share/film.mp4) >>",
            "/Subtype /Movie \(rect) /Movie << /F << /Type /Filespec /F (inside.webm) /EF << /F 3 0 R >> >> >>",
            "/Subtype /Screen \(rect) /A << /S /Rendition /R << /S /MR /C << /S /MCD /D 3 0 R >> >> >>",
            "/Subtype /Movie \(rect) /Movie << /F (clip.webm) >> /A false",
            "/Subtype /Screen \(rect) /A << /S /JavaScript /JS (app.alert(1)) >>",
            "/Subtype /Link \(rect) /A << /S /Launch /F (clip.webm?autostart&fast&start=x&stop=-1&srtfile=a.srt) >>",
        ])], extra: ["<< /Type /EmbeddedFile /Length 4 >>\nstream\nRIFF\nendstream"],
           files: ["slides.txt": Data("hello".utf8), "fake.mp4": Data("<html>".utf8)])
        try FileManager.default.createDirectory(at: talk.folder.appendingPathComponent("folder.webm"),
                                                withIntermediateDirectories: true)
        #expect(mkfifo(talk.folder.appendingPathComponent("pipe.webm").path, 0o600) == 0)
        let started = Date()
        let read = try Self.read(talk.pdf, pages: 1)
        #expect(Date().timeIntervalSince(started) < 20, "a FIFO must not block the reading")
        let text = Self.messages(read)
        #expect(read.clips[0]?.count == 1 && read.clips[0]?.first?.autoplay == true, "\(read)")
        for expected in ["gone.webm does not exist (looked for \(talk.folder.path)/gone.webm)",
                         "slides.txt is not a video", "fake.mp4 is not a video", "folder.webm cannot be played: is a directory",
                         "pipe.webm cannot be played: is a FIFO", "https://example.org/film.mp4 is on the network",
                         "is on another computer (server)", "inside.webm is embedded in the PDF",
                         "screen annotation: its video is embedded",
                         "not to be played (/A false)", "no rendition action that plays",
                         "unknown option \"fast\"", "start=x is not a time", "stop=-1 is not a time",
                         "subtitles (srtfile) are not shown yet"] {
            #expect(text.contains(expected), "missing \"\(expected)\" in:\n\(text)")
        }
    }

    @Test func referenceLoopsAndHugeArraysEndInAMessage() throws {
        // Object 3 names 4, 4 names 3: the movie dictionary is a loop. Object 5 is a file spec that is its own /F.
        let loop = try Self.talk([Page(annotations: [
            "/Subtype /Movie /Rect [0 0 10 10] /Movie 3 0 R",
            "/Subtype /Movie /Rect [0 0 10 10] /Movie << /F 5 0 R >>",
            "/Subtype /Movie /Rect 6 0 R /Movie << /F (clip.webm) >>",
        ])], tree: "/Parent 2 0 R", extra: ["4 0 R", "3 0 R", "<< /F 5 0 R >>", "6 0 R"])
        let read = try Self.read(loop.pdf, pages: 1)
        let text = Self.messages(read)
        #expect(text.contains("refer to each other in a loop"), "\(text)")
        #expect(text.contains("it has no /Movie dictionary") && text.contains("names no file"), "\(text)")
        #expect(read.clips[0] == nil, "\(read)")
        // 25,000 annotations on one page (all the same link): read up to the limit, then said.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdfclips-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let annots = String(repeating: "4 0 R ", count: 25_000)
        let pdf = folder.appendingPathComponent("many.pdf")
        try MiniPDF.assemble(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                              "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 600] /Annots [\(annots)] >>",
                              "<< /Subtype /Link /Rect [0 0 1 1] /A << /S /GoTo /D [0 /Fit] >> >>"]).write(to: pdf)
        let many = try Self.read(pdf, pages: 1)
        #expect(Self.messages(many).contains("it has over 20000 annotations"), "\(Self.messages(many))")
    }

    @Test func problemsAreCountedPastTheLimitAndReachTheDecksDiagnostics() throws {
        let gone = (0..<70).map { "/Subtype /Movie /Rect [0 0 10 10] /Movie << /F (gone\($0).webm) >>" }
        let talk = try Self.talk([Page(annotations: ["/Subtype /Movie /Rect [0 0 10 10] /Movie << /F (clip.webm) >>"]),
                                  Page(annotations: gone)])
        let read = try Self.read(talk.pdf, pages: 2)
        #expect(read.problems.count == PDFClipReader.problemLimit + 1)
        #expect(read.problems.last?.message == "20 more problems with its videos are not listed")
        let deck = try DeckParser.parse(contentsOf: talk.pdf)
        let diagnostic = try #require(deck.diagnostics.first { $0.message.contains("gone0.webm") })
        #expect(diagnostic.slide == 2 && diagnostic.file == "talk.pdf", "\(diagnostic)")
        #expect(deck.slides[0].pdfPage?.clips.count == 1 && deck.slides[1].pdfPage?.clips.isEmpty == true)
    }

    // MARK: Random annotation dictionaries

    /// Random pages, annotations and objects — extreme and non-finite numbers, wrong types, references to
    /// anything (loops included), huge arrays — read through a stand-in for `mutool show -g` that prints them as it
    /// does (thousands a second), and a few through the real `mutool`. Nothing may trap or hang, and every clip
    /// must be sane: a rectangle of finite fractions inside the page with an area, a finite start, a stop after it.
    ///
    /// `EXTDISPLAY_CLIP_SEED` replays a run (the seed is printed first), `EXTDISPLAY_CLIP_COUNT` sets the number
    /// of inputs (default 800); a failing input is printed with its seed and index, runnable as
    /// `EXTDISPLAY_CLIP_SEED=S EXTDISPLAY_CLIP_ONE=I swift test --filter PDFClipTests`. A trap ends the process
    /// before any report: `EXTDISPLAY_CLIP_VERBOSE=1` names each input as it starts.
    @Test func randomAnnotationDictionariesNeverTrapAndGiveSaneClips() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = UInt64(environment["EXTDISPLAY_CLIP_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let count = Int(environment["EXTDISPLAY_CLIP_COUNT"] ?? "") ?? 800
        let indices = Int(environment["EXTDISPLAY_CLIP_ONE"] ?? "").map { [$0] } ?? Array(0..<count)
        print("PDF clips: seed \(seed), \(count) inputs (EXTDISPLAY_CLIP_SEED=\(seed) to replay)")
        let folder = try Self.talk([]).folder
        let mutool = Shell.has("mutool")
        // Inputs this test once failed on, replayed every run: (seed, index).
        let found: [(UInt64, Int)] = [(327_752_188, 16)]  // a sliver of no width once turned 90°
        for (seed, index) in found {
            var random = SeededRandom(state: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let input = RandomPDF(&random)
            let outcome = PDFClipReader.clips(pageCount: input.pages.count, folder: folder, show: input.show)
            let rects = outcome.clips.values.joined().compactMap(\.pageRect)
            #expect(rects.allSatisfy { $0.width > 0 && $0.height > 0 }, "\(rects): seed \(seed) input \(index)")
        }
        for index in indices {
            if environment["EXTDISPLAY_CLIP_VERBOSE"] == "1" { print("PDF clips: input \(index)") }
            var random = SeededRandom(state: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let input = RandomPDF(&random)
            let reproducer = "replay with EXTDISPLAY_CLIP_SEED=\(seed) EXTDISPLAY_CLIP_ONE=\(index)"
            let started = Date()
            let outcome = PDFClipReader.clips(pageCount: input.pages.count, folder: folder, show: input.show)
            // Every 100th input through the real mutool as well.
            var outcomes = [outcome]
            if mutool, index % 100 == 0 {
                let pdf = folder.appendingPathComponent("random-\(index).pdf")
                try MiniPDF.assemble(input.objects).write(to: pdf)
                outcomes.append(PDFClipReader.read(pdf, pageCount: input.pages.count))
            }
            #expect(Date().timeIntervalSince(started) < 20, "input \(index) took over 20 s; \(reproducer)")
            for read in outcomes {
                for (page, clips) in read.clips {
                    #expect(input.pages.indices.contains(page), "page \(page); \(reproducer)")
                    for clip in clips {
                        let r = try #require(clip.pageRect, "no rectangle; \(reproducer)")
                        let sane = [r.x, r.y, r.width, r.height].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
                            && r.width > 0 && r.height > 0 && r.x + r.width <= 1 + 1e-9 && r.y + r.height <= 1 + 1e-9
                        #expect(sane, "rectangle \(r); \(reproducer)")
                        #expect(clip.start.isFinite && clip.start >= 0 && (clip.stop.map { $0.isFinite && $0 > clip.start } ?? true),
                                "start \(clip.start) stop \(String(describing: clip.stop)); \(reproducer)")
                        #expect(clip.url.isFileURL && FileManager.default.fileExists(atPath: clip.url.path), "\(clip.url); \(reproducer)")
                    }
                }
                #expect(read.problems.count <= PDFClipReader.problemLimit + 1, "\(reproducer)")
                #expect(read.problems.allSatisfy { !$0.message.isEmpty && $0.page >= 0 && $0.page < max(1, input.pages.count) },
                        "\(read.problems); \(reproducer)")
            }
        }
    }
}

/// A random PDF's objects as text: 1 the catalog, 2 the page tree, 3…42 random values, then the pages (whose
/// annotations and boxes are random too), with a stand-in for `mutool show -g` printing them.
struct RandomPDF {
    static let firstPage = 43
    var objects: [String] = []
    var pages: [String] = []
    var annotationLists: [String] = []

    init(_ random: inout SeededRandom) {
        let pageCount = 1 + Int(random.next() % 3)
        var values: [String] = []
        for _ in 3..<Self.firstPage { values.append(Self.value(&random, depth: 0)) }
        for _ in 0..<pageCount {
            let annotations = (0..<Int(random.next() % 6)).map { _ in Self.annotation(&random) }
            let list = random.next() % 8 == 0 ? Self.value(&random, depth: 0) : "[" + annotations.joined(separator: " ") + "]"
            annotationLists.append(list)
            var entries = "/Type /Page /Parent 2 0 R /Annots \(list)"
            for key in ["MediaBox", "CropBox", "Rotate"] where random.next() % 2 == 0 {
                entries += " /\(key) " + (key == "Rotate" ? Self.number(&random) : Self.box(&random))
            }
            pages.append("<< \(entries) >>")
        }
        let kids = (0..<pageCount).map { "\(Self.firstPage + $0) 0 R" }.joined(separator: " ")
        objects = ["<< /Type /Catalog /Pages 2 0 R >>",
                   "<< /Type /Pages /Kids [\(kids)] /Count \(pageCount) \(random.next() % 4 == 0 ? "/Rotate 90 /Parent 2 0 R" : "") >>"]
            + values + pages
    }

    /// What `mutool show -g` prints for `paths`.
    func show(_ paths: [String]) -> String? {
        if paths == ["pages/*/Annots"] { return annotationLists.joined(separator: "\n") }
        var out = ""
        for path in paths {
            if path.hasPrefix("pages/"), let n = Int(path.dropFirst(6)), pages.indices.contains(n - 1) {
                out += "\(Self.firstPage + n - 1) 0 obj \(pages[n - 1])\n"
            } else if let n = Int(path) {
                out += "\(n) 0 obj \(objects.indices.contains(n - 1) ? objects[n - 1] : "null")\n"
            } else {
                return nil
            }
        }
        return out
    }

    static let numbers = ["0", "-0", "1", "-1", "0.5", "90", "-90", "45", "360", "1e308", "-1e308", "1e-320", "4.9e-324",
                          "1e999", "-1e999", "nan", "inf", "99999999999999999999", "2147483648", "-9223372036854775809", "600"]
    static let names = ["/Movie", "/Screen", "/Link", "/Rendition", "/MR", "/SR", "/MCD", "/MCS", "/Repeat", "/Palindrome",
                        "/T", "/S", "/URI", "/Launch", "/URL", "/Filespec", "/PO", "/GoTo", "/JavaScript"]
    static let strings = ["(clip.webm)", "(clip.webm?autostart&loop&start=1e308&stop=nan)", "(clip.webm?start=5&stop=2)",
                          "(../../../../etc/passwd)", "()", "<FEFF0063006C00690070002E007700650062006D>", "(file:///dev/zero)",
                          "(https://example.org/x.mp4)", "(\\000\\377)", "(clip.webm?" + String(repeating: "&loop", count: 200) + ")",
                          "(/)", "(file://)", "(file:clip.webm)", "(\(String(repeating: "a/", count: 300)))", "<0000000000000001>"]
    static let keys = ["Subtype", "Rect", "Movie", "F", "UF", "EF", "A", "AA", "PO", "PV", "S", "R", "C", "D", "P", "BE",
                       "MH", "RC", "V", "B", "E", "T", "Mode", "Start", "Duration", "Volume", "URI", "FS", "OP", "Unix",
                       "Win", "MediaBox", "CropBox", "Rotate", "Parent"]

    static func pick(_ items: [String], _ random: inout SeededRandom) -> String { items[Int(random.next() % UInt64(items.count))] }

    static func number(_ random: inout SeededRandom) -> String {
        random.next() % 3 == 0 ? String(Double(Int64(bitPattern: random.next() % 4001) - 2000) / 4) : pick(numbers, &random)
    }

    static func box(_ random: inout SeededRandom) -> String {
        random.next() % 4 == 0 ? value(&random, depth: 1) : "[" + (0..<4).map { _ in number(&random) }.joined(separator: " ") + "]"
    }

    static func value(_ random: inout SeededRandom, depth: Int) -> String {
        switch random.next() % (depth > 3 ? 5 : 8) {
        case 0: return number(&random)
        case 1: return pick(names, &random)
        case 2: return pick(strings, &random)
        case 3: return "\(1 + random.next() % 50) 0 R"
        case 4: return pick(["true", "false", "null"], &random)
        case 5:
            if random.next() % 50 == 0 { return "[" + String(repeating: "1e308 ", count: 10_000) + "]" }
            return "[" + (0..<Int(random.next() % 6)).map { _ in value(&random, depth: depth + 1) }.joined(separator: " ") + "]"
        default:
            return "<<" + (0..<Int(random.next() % 6)).map { _ in
                "/\(pick(keys, &random)) \(value(&random, depth: depth + 1))"
            }.joined(separator: " ") + ">>"
        }
    }

    static func annotation(_ random: inout SeededRandom) -> String {
        if random.next() % 6 == 0 { return value(&random, depth: 0) }
        var entries = "/Subtype \(pick(["/Movie", "/Screen", "/Link", "/Link", "/Text"], &random)) /Rect \(box(&random))"
        for _ in 0..<Int(random.next() % 6) { entries += " /\(pick(keys, &random)) \(value(&random, depth: 1))" }
        if random.next() % 2 == 0 { entries += " /Movie << /F \(pick(strings, &random)) /A \(value(&random, depth: 2)) >>" }
        if random.next() % 2 == 0 {
            entries += " /A << /S \(pick(["/Launch", "/URI", "/Rendition"], &random)) /F \(pick(strings, &random)) "
                + "/URI \(pick(strings, &random)) /R << /S /MR /C << /S /MCD /D \(pick(strings, &random)) >> "
                + "/P << /BE << /RC \(number(&random)) /V \(number(&random)) >> >> >> >>"
        }
        return "<< \(entries) >>"
    }
}
