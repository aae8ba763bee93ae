// SPDX-License-Identifier: MIT
// The capture layer's name and the environment it reads, in one place: the
// layer, its manifest and the launcher must agree on them.
#pragma once

namespace libtrace::capture {

inline constexpr const char* kLayerName = "VK_LAYER_TRAK_capture";

// BASE of the .foz archives (BASE.<hash>.<N>.foz); "capture" in the current
// directory when the layer is enabled without it or TRAK_CAPTURE_TRACE.
inline constexpr const char* kEnvFoz = "TRAK_CAPTURE_FOZ";
// The call stream (an apitrace trace). The first process that traces takes
// this name and says so in TRAK_CAPTURE_TRACE_OWNER (its pid), which its
// children inherit: another process writes NAME.<pid>.trace beside it.
inline constexpr const char* kEnvTrace = "TRAK_CAPTURE_TRACE";
inline constexpr const char* kEnvTraceOwner = "TRAK_CAPTURE_TRACE_OWNER";
// Frames to snapshot ("1,150,300"): PNGs in the folder beside the trace.
inline constexpr const char* kEnvSnapshots = "TRAK_CAPTURE_SNAPSHOTS";
// A file the layer appends the name of every archive it creates to, and
// "trace:" and the name of every trace.
inline constexpr const char* kEnvReport = "TRAK_CAPTURE_REPORT";
// "0": no signal handlers (the pipeline being created when the driver
// crashes is then not written).
inline constexpr const char* kEnvSignals = "TRAK_CAPTURE_SIGNALS";

}  // namespace libtrace::capture
