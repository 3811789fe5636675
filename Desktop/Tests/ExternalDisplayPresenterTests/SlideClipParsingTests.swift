import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Markdown images whose file is a video become clip blocks: by the name's extension, or by the file's first bytes.
@Suite("Video clips in Markdown decks")
struct SlideClipParsingTests {
    static func parse(_ text: String, existing: Set<String>) -> Deck {
        DeckParser.parse(text, file: "talk.md", baseDirectory: URL(fileURLWithPath: "/decks"),
                         fileExists: { existing.contains($0.path) },
                         imageProblem: { _ in "should not be decoded as an image" })
    }

    @Test func aVideoImageIsAClipThatAutoplays() {
        let deck = Self.parse("# Demo\n![the demo](media/demo.webm)\n---\n# MP4\n![](/abs/film.MP4)",
                              existing: ["/decks/media/demo.webm", "/abs/film.MP4"])
        #expect(deck.diagnostics == [])
        let demo = SlideClip(url: URL(fileURLWithPath: "/decks/media/demo.webm"), autoplay: true)
        #expect(deck.slides[0].blocks == [.clip(alt: "the demo", demo)])
        #expect(deck.slides[0].clips == [demo])
        #expect(deck.slides[1].clips == [SlideClip(url: URL(fileURLWithPath: "/abs/film.MP4"), autoplay: true)])
        #expect(deck.clipTable.count == 2)
    }

    @Test func aMissingVideoIsReportedLikeAMissingImage() throws {
        let deck = Self.parse("# A\n---\n# B\n![x](gone.webm)\ntext", existing: [])
        #expect(deck.slides[1].blocks == [.paragraph([InlineRun("text")])])
        let d = try #require(deck.diagnostics.first)
        #expect(d.description.hasPrefix("talk.md: slide 2, line 4: video 'gone.webm' not found"), "\(d)")
    }

    @Test func aVideoUnderAnotherNameIsFoundByItsFirstBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clip-sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Headers written out by hand from the container specifications (EBML, ISO BMFF, Ogg, RIFF/AVI).
        let heads: [(String, [UInt8])] = [
            ("matroska.bin", [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81]),
            ("mp4.bin", [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0]),
            ("ogg.bin", Array("OggS".utf8) + [0, 2, 0, 0]),
            ("avi.bin", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI LIST".utf8)),
        ]
        var existing: Set<String> = []
        var text = ""
        for (name, bytes) in heads {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            existing.insert(folder.appendingPathComponent(name).path)
            text += "# \(name)\n![\(name)](\(name))\n---\n"
        }
        // A PNG and a WAV (RIFF, not AVI) stay images.
        try Data([0x89] + Array("PNG\r\n".utf8) + [0x1A, 0x0A]).write(to: folder.appendingPathComponent("pic.bin"))
        try Data(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)).write(to: folder.appendingPathComponent("wav.bin"))
        existing.formUnion([folder.appendingPathComponent("pic.bin").path, folder.appendingPathComponent("wav.bin").path])
        text += "# pic\n![pic](pic.bin)\n---\n# wav\n![wav](wav.bin)"
        let deck = DeckParser.parse(text, file: "talk.md", baseDirectory: folder, fileExists: { existing.contains($0.path) })
        for (index, (name, _)) in heads.enumerated() {
            #expect(deck.slides[index].clips.map(\.url.lastPathComponent) == [name], "\(name)")
        }
        #expect(deck.slides[4].clips == [])
        #expect(deck.slides[5].clips == [])
        if case .image? = deck.slides[4].blocks.first {} else { Issue.record("the PNG is not an image: \(deck.slides[4].blocks)") }
    }

    @Test func containersAreToldByTheirFirstBytesOnly() {
        #expect(VideoFileKind.container(of: [0x1A, 0x45, 0xDF, 0xA3]) == "WebM/Matroska")
        #expect(VideoFileKind.container(of: [0x1A, 0x45, 0xDF]) == nil)
        #expect(VideoFileKind.container(of: []) == nil)
        #expect(VideoFileKind.container(of: Array("ftyp".utf8)) == nil)
        #expect(VideoFileKind.container(ofFile: URL(fileURLWithPath: "/nonexistent/clip")) == nil)
        #expect(VideoFileKind.container(ofFile: URL(fileURLWithPath: "/tmp")) == nil)
    }
}
