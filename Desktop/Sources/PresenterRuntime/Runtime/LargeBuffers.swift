#if canImport(Glibc)
import Glibc
#endif

/// Rendered pages are megabytes each and are made on background threads: glibc would keep them in per-thread
/// heaps that never shrink (RSS grew to 470 MB over a 50-page PDF under a 192 MB cache budget). A fixed mmap
/// threshold gives every buffer of 256 KB or more its own mapping, returned to the system when it is freed.
enum LargeBuffers {
    /// Sets the threshold (once per process is enough; again is harmless).
    static func keepOutOfTheHeap() {
        #if canImport(Glibc)
        // mallopt is declared in <malloc.h>, which Swift's Glibc module does not import.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        if let symbol = dlsym(nil, "mallopt") { _ = unsafeBitCast(symbol, to: MallOpt.self)(mmapThreshold, 256 * 1024) }
        #endif
    }
}
