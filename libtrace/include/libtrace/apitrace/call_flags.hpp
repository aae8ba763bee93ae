// SPDX-License-Identifier: MIT
// Call flags that apitrace 11.1 derives from a function's name when parsing a trace.
#pragma once

#include <cstdint>
#include <string_view>

namespace libtrace::apitrace {

// Bit values are apitrace's CALL_FLAG_* (lib/trace/trace_model.hpp), so flag
// words can be compared with apitrace's (e.g. `apitrace pickle`) as-is.
enum CallFlag : std::uint32_t {
  kCallFake = 1u << 0,              // emitted by the tracer, not the app
  kCallNonReproducible = 1u << 1,   // never set from the name; kept for parity
  kCallNoSideEffects = 1u << 2,     // pure query; replay may skip it
  kCallRender = 1u << 3,            // draws into the bound render target
  kCallSwapRenderTarget = 1u << 4,  // changes the render target (snapshot before)
  kCallEndFrame = 1u << 5,          // terminates a frame
  kCallIncomplete = 1u << 6,        // never returned (set at end of file)
  kCallVerbose = 1u << 7,           // hidden by `dump` unless -v
  kCallMarker = 1u << 8,            // debug string marker
  kCallMarkerPush = 1u << 9,        // opens a debug group
  kCallMarkerPop = 1u << 10,        // closes a debug group
};

// Flags apitrace derives from the function name alone (Parser::lookupCallFlags):
// a few name patterns first, then an exact-name table; unknown names get 0.
//
// Not covered here, because they need more than the name:
//  - kCallFake comes from the call's CALL_FLAGS detail in the stream;
//  - kCallIncomplete is set for calls still pending at end of file;
//  - apitrace's adjust_call_flags adds kCallVerbose to a zero-argument
//    glGetError call whose return value is 0 (GL_NO_ERROR).
//
// The name is treated as a C string, as apitrace does: anything from the
// first NUL on is ignored.
std::uint32_t call_flags_for_name(std::string_view name);

}  // namespace libtrace::apitrace
