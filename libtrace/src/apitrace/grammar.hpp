// SPDX-License-Identifier: MIT
// The apitrace stream grammar's bytes, named once for everything that reads
// or writes them (the parser, the writer, the capture layer's encoder), as
// apitrace's lib/trace/trace_format.hpp names them. The grammar itself is
// apitrace's docs/FORMAT.markdown; the values below are fixed by it, so a
// stream stays readable by apitrace only as long as they do not change.
#pragma once

#include <cstdint>
#include <string>

namespace libtrace::apitrace::grammar {

// What starts each event of the stream.
enum Event : std::uint8_t {
  kEnter = 0x00,  // thread, call signature, details
  kLeave = 0x01,  // call number, details
};

// What follows an event's start, until kCallEnd.
enum CallDetail : std::uint8_t {
  kCallEnd = 0x00,
  kCallArg = 0x01,        // argument number, value
  kCallRet = 0x02,        // value
  kCallThread = 0x03,     // thread number (versions before 4)
  kCallBacktrace = 0x04,  // frame count, frames
  kCallFlags = 0x05,      // WireFlag bits
};

// A backtrace frame's details, after its id, until kFrameEnd (only the first
// time an id is written).
enum FrameDetail : std::uint8_t {
  kFrameEnd = 0x00,
  kFrameModule = 0x01,
  kFrameFunction = 0x02,
  kFrameFilename = 0x03,
  kFrameLine = 0x04,
  kFrameOffset = 0x05,
};

// A value's first byte.
enum ValueType : std::uint8_t {
  kNull = 0x00,
  kFalse = 0x01,
  kTrue = 0x02,
  kSint = 0x03,     // a negative integer: its magnitude as a varint
  kUint = 0x04,     // varint
  kFloat = 0x05,    // 4 bytes
  kDouble = 0x06,   // 8 bytes
  kString = 0x07,   // length, bytes
  kBlob = 0x08,     // length, bytes
  kEnum = 0x09,     // signature, then a kSint/kUint value
  kBitmask = 0x0a,  // signature, then a varint
  kArray = 0x0b,    // count, values
  kStruct = 0x0c,   // signature, member values
  kOpaque = 0x0d,   // a pointer: varint
  kRepr = 0x0e,     // two values: the human one, the machine one
  kWstring = 0x0f,  // length, varint characters
};

// The kCallFlags detail's bits as the stream carries them.
enum WireFlag : std::uint32_t {
  kWireFake = 1u << 0,  // made by the tracer, not by the application
};

// Every number of the grammar (counts, ids, lengths, integer values): 7 bits
// a byte, least significant first, the high bit set on all but the last.
inline void append_uint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

}  // namespace libtrace::apitrace::grammar
