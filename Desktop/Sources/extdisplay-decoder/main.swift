// extdisplay-decoder: the video decoder process. `extdisplay` (any program using DesktopVideo's VideoDecoder)
// starts one per open video file, next to itself, and talks to it on descriptor 3 (see DecoderWorker); it is not
// meant to be run by hand.
#if canImport(CGStreamer)
import DesktopVideo

DecoderWorker.run()
#else
print("extdisplay-decoder: GStreamer decoding is Linux-only")
#endif
