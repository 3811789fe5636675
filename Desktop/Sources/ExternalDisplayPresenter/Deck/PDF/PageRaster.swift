import Foundation

/// A rendered PDF page in memory: RGBA, 8 bits per channel, rows top to bottom.
public struct PageRaster: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes.
    public var rgba: [UInt8]

    /// Bytes held.
    public var byteCount: Int { rgba.count }

    /// Decodes a binary PPM (`P6`, maxval 255) as `pdftoppm` writes it; nil when it is not one.
    public static func decodePPM(_ data: Data) -> PageRaster? {
        let bytes = [UInt8](data)
        var i = 0
        func token() -> Int? {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                } else if bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                    i += 1
                } else { break }
            }
            var value = 0, digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 9 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
        i = 2
        guard let w = token(), let h = token(), let maxval = token(), maxval == 255, w > 0, h > 0,
              w <= 16_384, h <= 16_384 else { return nil }
        i += 1 // the single whitespace after maxval
        let count = w * h
        guard bytes.count - i >= count * 3 else { return nil }
        var rgba = [UInt8](repeating: 255, count: count * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { src in
                var s = i
                for p in 0..<count {
                    out[p * 4] = src[s]
                    out[p * 4 + 1] = src[s + 1]
                    out[p * 4 + 2] = src[s + 2]
                    s += 3
                }
            }
        }
        return PageRaster(width: w, height: h, rgba: rgba)
    }
}

/// Renders a part of a PDF page at a pixel size with poppler's `pdftoppm`, in a separate process (poppler is
/// GPL; nothing of it links into the library).
public enum PopplerRasterizer {
    /// Why a page could not be rendered.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
        /// Whether pdftoppm was stopped at its timeout (trying the same pages again at once would wait as long).
        public var timedOut = false
        /// Whether the render was stopped because it was not wanted any more (not a failure of the page).
        public var cancelled = false

        /// A failure saying `description`.
        public init(description: String, timedOut: Bool = false, cancelled: Bool = false) {
            self.description = description
            self.timedOut = timedOut
            self.cancelled = cancelled
        }
    }

    /// How one render runs: at normal priority when the speaker waits for it (`urgent`), else at a lower one, and
    /// stopped when its `cancellation` is cancelled.
    public struct Job: Sendable {
        /// Whether the page is the one shown (normal priority) rather than one rendered ahead (nice 10).
        public var urgent: Bool
        /// Whether nobody waits for it soon (a page far ahead, rendered while idle): nice 19, below every other.
        public var idle = false
        /// Stops the render when cancelled.
        public var cancellation: ToolCancellation?

        /// A job.
        public init(urgent: Bool, idle: Bool = false, cancellation: ToolCancellation? = nil) {
            self.urgent = urgent
            self.idle = idle
            self.cancellation = cancellation
        }
    }

    /// The page's `part` (its ``PDFPage/region`` of it, when zoomed) rendered to exactly `width`×`height` pixels
    /// (the aspect should match). Without a `job`, a render on the main thread (the presenter waits for it) runs at
    /// normal priority and any other at a lower one.
    public static func render(_ page: PDFPage, width: Int, height: Int, job: Job? = nil) throws(Failure) -> PageRaster {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw Failure(description: "page \(page.index + 1) is not shown: cannot render it at \(width)×\(height)")
        }
        var arguments = ["-cropbox", "-f", String(page.index + 1), "-l", String(page.index + 1), "-singlefile"]
        arguments += cropArguments(page, width: width, height: height)
        arguments.append(page.document.path)
        guard let raster = try run(arguments, page: page, job: job) else {
            throw Failure(description: "page \(page.index + 1) is not shown: pdftoppm wrote no image")
        }
        return raster
    }

    /// Pages `page.index…lastIndex` (their `part`) at `width`×`height` each, rendered by one `pdftoppm` run:
    /// small renders (overview tiles) cost mostly the process start, so a batch is many times faster.
    public static func renderBatch(_ page: PDFPage, through lastIndex: Int, width: Int, height: Int)
        throws(Failure) -> [Int: PageRaster] {
        guard lastIndex >= page.index else { return [:] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("extdisplay-pages-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw Failure(description: "cannot make a folder for rendered pages: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["-cropbox", "-f", String(page.index + 1), "-l", String(lastIndex + 1)]
        arguments += cropArguments(page.neighbour(page.index), width: width, height: height)
        arguments += [page.document.path, folder.appendingPathComponent("p").path]
        do throws(Failure) { _ = try run(arguments, page: page, expectsImage: false) } catch {
            guard error.timedOut else { throw error }
            throw Failure(description: "pages \(page.index + 1)–\(lastIndex + 1) are not shown: pdftoppm took over "
                              + "\(ToolLimits.describe(ToolLimits.current.pdftoppm)) rendering them and was stopped; "
                              + "they are tried again later", timedOut: true)
        }
        var rasters: [Int: PageRaster] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix("p-") && name.hasSuffix(".ppm") {
            // pdftoppm names pages p-7.ppm, p-07.ppm or p-007.ppm (as many digits as the last page number has).
            guard let number = Int(name.dropFirst(2).dropLast(4)), number >= page.index + 1, number <= lastIndex + 1,
                  let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                  let raster = PageRaster.decodePPM(data) else { continue }
            rasters[number - 1] = raster
        }
        return rasters
    }

    /// pdftoppm's size and crop arguments that make the page's part (its region, when zoomed) come out at
    /// `width`×`height`: the whole page is scaled so that the rectangle has that size, and only the rectangle is
    /// rendered (`-x -y -W -H`: poppler draws just that slice, so a 4× zoom costs one display's pixels, not
    /// sixteen).
    static func cropArguments(_ page: PDFPage, width: Int, height: Int) -> [String] {
        let f = page.part.fraction
        let r = page.region
        // The rectangle in fractions of the whole page.
        let x = f.x + f.width * (r?.x ?? 0), y = f.y + f.height * (r?.y ?? 0)
        let w = f.width * (r?.width ?? 1), h = f.height * (r?.height ?? 1)
        let fullW = Int((Double(width) / w).rounded()), fullH = Int((Double(height) / h).rounded())
        // pdftoppm scales a page before turning it: a quarter-turned page's shown width is its unturned height.
        let turned = page.rotation % 180 == 90
        var arguments = ["-scale-to-x", String(turned ? fullH : fullW), "-scale-to-y", String(turned ? fullW : fullH)]
        if page.part != .whole || page.region != nil {
            arguments += ["-x", String(Int((Double(fullW) * x).rounded())), "-y", String(Int((Double(fullH) * y).rounded())),
                          "-W", String(width), "-H", String(height)]
        }
        return arguments
    }

    @discardableResult
    private static func run(_ arguments: [String], page: PDFPage, expectsImage: Bool = true,
                            job: Job? = nil) throws(Failure) -> PageRaster? {
        let result: ToolProcess.Result
        // Pages rendered ahead run at a lower priority: a flip, and the X server showing it, never wait behind a
        // page nobody asked for yet. The page shown (the job says so; without one, a render on the main thread,
        // which the presenter waits for) runs at normal priority.
        let niceness = (job?.urgent ?? Thread.isMainThread) ? 0 : job?.idle == true ? 19 : 10
        let seconds = ToolLimits.current.pdftoppm
        // A PPM of the largest page allowed (16384×16384) and its header; a batch writes files, not output.
        let outputLimit = expectsImage ? 16_384 * 16_384 * 3 + 4_096 : 64 << 10
        do {
            result = try ToolProcess.run("pdftoppm", arguments, timeout: seconds, niceness: niceness,
                                         outputLimit: outputLimit, cancellation: job?.cancellation)
        } catch {
            throw Failure(description: "page \(page.index + 1) is not shown: \(error.description)")
        }
        if result.cancelled {
            throw Failure(description: "page \(page.index + 1): its render was stopped (not wanted any more)",
                          cancelled: true)
        }
        if result.status == 127 {
            throw Failure(description: "pages are not shown: pdftoppm is missing; install poppler-utils "
                              + "(scripts/install-deps.sh)")
        }
        if result.timedOut {
            throw Failure(description: "page \(page.index + 1) is not shown: pdftoppm took over "
                              + "\(ToolLimits.describe(seconds)) rendering it and was stopped (set "
                              + "EXTDISPLAY_PDFTOPPM_TIMEOUT for more); it is tried again later", timedOut: true)
        }
        let raster = expectsImage ? PageRaster.decodePPM(result.output) : nil
        guard result.status == 0, raster != nil || !expectsImage else {
            let line = TextSanitizer.line(result.errors.split(separator: "\n").first.map(String.init) ?? "")
            let why = line.isEmpty ? "exit status \(result.status)" : line
            throw Failure(description: "page \(page.index + 1) is not shown: pdftoppm failed (\(why))")
        }
        return raster
    }
}
