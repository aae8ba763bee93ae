// SPDX-License-Identifier: MIT
// The capture layer's name and the environment it reads, in one place: the
// layer, its manifest and the launcher must agree on them.
#pragma once

namespace libtrace::capture {

inline constexpr const char* kLayerName = "VK_LAYER_TRAK_capture";

// BASE of the .foz archives (BASE.<hash>.<N>.foz); "capture" in the current
// directory when the layer is enabled without it or TRAK_CAPTURE_TRACE.
inline constexpr const char* kEnvFoz = "TRAK_CAPTURE_FOZ";
// The call stream (an apitrace trace). A process takes this name when the
// file is new or empty and no other process writes it; any other process
// writes NAME.<pid>.trace beside it (trace/stream.cpp, claim_file).
inline constexpr const char* kEnvTrace = "TRAK_CAPTURE_TRACE";
// The trace's container: "snappy" (default) or "zstd" (seekable frames).
inline constexpr const char* kEnvTraceCodec = "TRAK_CAPTURE_TRACE_CODEC";
inline constexpr const char* kEnvTraceLevel = "TRAK_CAPTURE_TRACE_LEVEL";  // zstd's, 1-19
// A trimmed capture: the frames to record ("200-300", "200-300,900-910";
// frames are counted by presents from 1). Each range is a file of its own
// that starts with the state at its first frame.
inline constexpr const char* kEnvTraceFrames = "TRAK_CAPTURE_TRACE_FRAMES";
// "signal": SIGUSR1 starts a range at the next frame, the next SIGUSR1 ends it.
inline constexpr const char* kEnvTraceTrigger = "TRAK_CAPTURE_TRACE_TRIGGER";
// Frames to snapshot ("1,150,300"): PNGs in the folder beside the trace.
inline constexpr const char* kEnvSnapshots = "TRAK_CAPTURE_SNAPSHOTS";
// A file the layer tells the launcher what it did in (launcher_report.hpp).
inline constexpr const char* kEnvReport = "TRAK_CAPTURE_REPORT";
// "0": no signal handlers (the pipeline being created when the driver
// crashes is then not written).
inline constexpr const char* kEnvSignals = "TRAK_CAPTURE_SIGNALS";

}  // namespace libtrace::capture
