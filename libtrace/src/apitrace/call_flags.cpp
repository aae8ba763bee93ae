// SPDX-License-Identifier: MIT
// Name-derived call flags, matching apitrace 11.1's Parser::lookupCallFlags.
#include "libtrace/apitrace/call_flags.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace libtrace::apitrace {
namespace {

// ---------------------------------------------------------------------------
// The exact-name table (apitrace's callFlagTable, 421 entries in 11.1).
//
// It is written here grouped by flag set, which is how one reads and reviews
// it, and merged at compile time into one sorted array for the lookup.
// ---------------------------------------------------------------------------

// Pure queries whose answers replay does not need, and which are not worth
// showing either: `apitrace dump` hides VERBOSE calls unless -v is given.
// (The name tables stay dense, as written, for reading.)
// clang-format off
constexpr std::string_view kQueryNames[] = {
    "CGLGetCurrentContext", "ID3D11VideoProcessorEnumerator::CheckVideoProcessorFormat",
    "IDirect3D8::CheckDeviceFormat", "IDirect3D8::EnumAdapterModes",
    "IDirect3D8::GetAdapterModeCount", "IDirect3D8::GetDeviceCaps",
    "IDirect3D9::CheckDeviceFormat", "IDirect3D9::EnumAdapterModes",
    "IDirect3D9::GetAdapterModeCount", "IDirect3D9::GetDeviceCaps",
    "IDirect3D9Ex::CheckDeviceFormat", "IDirect3D9Ex::EnumAdapterModes",
    "IDirect3D9Ex::GetAdapterModeCount", "IDirect3D9Ex::GetDeviceCaps",
    "IDirect3DDevice8::GetDeviceCaps", "IDirect3DDevice9::GetDeviceCaps",
    "IDirect3DDevice9Ex::GetDeviceCaps", "eglGetProcAddress", "eglQueryString", "glGetString",
    "glGetStringi", "glIsAsyncMarkerSGIX", "glIsBuffer", "glIsBufferARB", "glIsBufferResidentNV",
    "glIsEnabled", "glIsEnabledIndexedEXT", "glIsEnabledi", "glIsFenceAPPLE", "glIsFenceNV",
    "glIsFramebuffer", "glIsFramebufferEXT", "glIsList", "glIsNameAMD",
    "glIsNamedBufferResidentNV", "glIsNamedStringARB", "glIsObjectBufferATI",
    "glIsOcclusionQueryNV", "glIsProgram", "glIsProgramARB", "glIsProgramNV",
    "glIsProgramPipeline", "glIsQuery", "glIsQueryARB", "glIsRenderbuffer", "glIsRenderbufferEXT",
    "glIsSampler", "glIsShader", "glIsSync", "glIsTexture", "glIsTextureEXT",
    "glIsTransformFeedback", "glIsTransformFeedbackNV", "glIsVariantEnabledEXT", "glIsVertexArray",
    "glIsVertexArrayAPPLE", "glIsVertexAttribEnabledAPPLE", "glXGetClientString", "glXGetConfig",
    "glXGetCurrentContext", "glXGetCurrentDisplay", "glXGetCurrentDisplayEXT",
    "glXGetCurrentDrawable", "glXGetCurrentReadDrawable", "glXGetCurrentReadDrawableSGI",
    "glXGetProcAddress", "glXGetProcAddressARB", "glXIsDirect", "glXQueryExtension",
    "glXQueryExtensionsString", "glXQueryVersion", "wglDescribePixelFormat",
    "wglGetCurrentContext", "wglGetCurrentDC", "wglGetDefaultProcAddress",
    "wglGetExtensionsStringARB", "wglGetExtensionsStringEXT", "wglGetPixelFormat",
    "wglGetProcAddress",
};

// Queries with no side effects that are still shown by default. glGetError
// is here; it becomes VERBOSE per call when it returns 0 (see the header).
constexpr std::string_view kNoSideEffectNames[] = {
    "eglSetDamageRegionKHR", "glAreProgramsResidentNV", "glAreTexturesResident",
    "glAreTexturesResidentEXT", "glBufferRegionEnabled", "glDebugMessageControl",
    "glDebugMessageControlARB", "glDebugMessageEnableAMD", "glGetActiveAtomicCounterBufferiv",
    "glGetActiveAttrib", "glGetActiveAttribARB", "glGetActiveSubroutineName",
    "glGetActiveSubroutineUniformName", "glGetActiveSubroutineUniformiv", "glGetActiveUniform",
    "glGetActiveUniformARB", "glGetActiveUniformBlockName", "glGetActiveUniformBlockiv",
    "glGetActiveUniformName", "glGetActiveUniformsiv", "glGetActiveVaryingNV",
    "glGetArrayObjectfvATI", "glGetArrayObjectivATI", "glGetAttachedObjectsARB",
    "glGetAttachedShaders", "glGetBooleanIndexedvEXT", "glGetBooleani_v", "glGetBooleanv",
    "glGetBufferParameteri64v", "glGetBufferParameteriv", "glGetBufferParameterivARB",
    "glGetBufferParameterui64vNV", "glGetBufferPointerv", "glGetBufferPointervARB",
    "glGetBufferSubData", "glGetBufferSubDataARB", "glGetClipPlane", "glGetColorTable",
    "glGetColorTableEXT", "glGetColorTableParameterfv", "glGetColorTableParameterfvEXT",
    "glGetColorTableParameterfvSGI", "glGetColorTableParameteriv", "glGetColorTableParameterivEXT",
    "glGetColorTableParameterivSGI", "glGetColorTableSGI", "glGetCombinerInputParameterfvNV",
    "glGetCombinerInputParameterivNV", "glGetCombinerOutputParameterfvNV",
    "glGetCombinerOutputParameterivNV", "glGetCombinerStageParameterfvNV",
    "glGetConvolutionFilterEXT", "glGetConvolutionParameterfv", "glGetConvolutionParameterfvEXT",
    "glGetConvolutionParameteriv", "glGetConvolutionParameterivEXT", "glGetDetailTexFuncSGIS",
    "glGetDoubleIndexedvEXT", "glGetDoublei_v", "glGetDoublev", "glGetError", "glGetFenceivNV",
    "glGetFinalCombinerInputParameterfvNV", "glGetFinalCombinerInputParameterivNV",
    "glGetFogFuncSGIS", "glGetFragDataIndex", "glGetFragmentLightfvSGIX",
    "glGetFragmentLightivSGIX", "glGetFragmentMaterialfvSGIX", "glGetFragmentMaterialivSGIX",
    "glGetFramebufferAttachmentParameteriv", "glGetFramebufferAttachmentParameterivEXT",
    "glGetFramebufferParameteriv", "glGetFramebufferParameterivEXT", "glGetGraphicsResetStatusARB",
    "glGetHandleARB", "glGetHistogramEXT", "glGetHistogramParameterfv",
    "glGetHistogramParameterfvEXT", "glGetHistogramParameteriv", "glGetHistogramParameterivEXT",
    "glGetImageTransformParameterfvHP", "glGetImageTransformParameterivHP", "glGetInfoLogARB",
    "glGetInstrumentsSGIX", "glGetInternalformati64v", "glGetInternalformativ",
    "glGetInvariantBooleanvEXT", "glGetInvariantFloatvEXT", "glGetInvariantIntegervEXT",
    "glGetLightfv", "glGetLightiv", "glGetListParameterfvSGIX", "glGetListParameterivSGIX",
    "glGetLocalConstantBooleanvEXT", "glGetLocalConstantFloatvEXT",
    "glGetLocalConstantIntegervEXT", "glGetMapAttribParameterfvNV", "glGetMapAttribParameterivNV",
    "glGetMapControlPointsNV", "glGetMapParameterfvNV", "glGetMapParameterivNV", "glGetMapdv",
    "glGetMapfv", "glGetMapiv", "glGetMaterialfv", "glGetMaterialiv", "glGetMinmaxEXT",
    "glGetMinmaxParameterfv", "glGetMinmaxParameterfvEXT", "glGetMinmaxParameteriv",
    "glGetMinmaxParameterivEXT", "glGetMultiTexEnvfvEXT", "glGetMultiTexEnvivEXT",
    "glGetMultiTexGendvEXT", "glGetMultiTexGenfvEXT", "glGetMultiTexGenivEXT",
    "glGetMultiTexLevelParameterfvEXT", "glGetMultiTexLevelParameterivEXT",
    "glGetMultiTexParameterIivEXT", "glGetMultiTexParameterIuivEXT", "glGetMultiTexParameterfvEXT",
    "glGetMultiTexParameterivEXT", "glGetMultisamplefv", "glGetMultisamplefvNV",
    "glGetNamedBufferParameterivEXT", "glGetNamedBufferParameterui64vNV",
    "glGetNamedBufferPointervEXT", "glGetNamedBufferSubDataEXT",
    "glGetNamedFramebufferAttachmentParameterivEXT", "glGetNamedFramebufferParameterivEXT",
    "glGetNamedProgramLocalParameterIivEXT", "glGetNamedProgramLocalParameterIuivEXT",
    "glGetNamedProgramLocalParameterdvEXT", "glGetNamedProgramLocalParameterfvEXT",
    "glGetNamedProgramStringEXT", "glGetNamedProgramivEXT", "glGetNamedRenderbufferParameterivEXT",
    "glGetNamedStringARB", "glGetNamedStringivARB", "glGetObjectBufferfvATI",
    "glGetObjectBufferivATI", "glGetObjectLabel", "glGetObjectParameterfvARB",
    "glGetObjectParameterivAPPLE", "glGetObjectParameterivARB", "glGetObjectPtrLabel",
    "glGetOcclusionQueryivNV", "glGetOcclusionQueryuivNV", "glGetPerfMonitorCounterDataAMD",
    "glGetPerfMonitorCounterInfoAMD", "glGetPerfMonitorCounterStringAMD",
    "glGetPerfMonitorCountersAMD", "glGetPerfMonitorGroupStringAMD", "glGetPerfMonitorGroupsAMD",
    "glGetPixelTexGenParameterfvSGIS", "glGetPixelTexGenParameterivSGIS",
    "glGetPointerIndexedvEXT", "glGetPointerv", "glGetPointervEXT", "glGetProgramBinary",
    "glGetProgramEnvParameterIivNV", "glGetProgramEnvParameterIuivNV",
    "glGetProgramEnvParameterdvARB", "glGetProgramEnvParameterfvARB", "glGetProgramInfoLog",
    "glGetProgramInterfaceiv", "glGetProgramLocalParameterIivNV",
    "glGetProgramLocalParameterIuivNV", "glGetProgramLocalParameterdvARB",
    "glGetProgramLocalParameterfvARB", "glGetProgramNamedParameterdvNV",
    "glGetProgramNamedParameterfvNV", "glGetProgramParameterdvNV", "glGetProgramParameterfvNV",
    "glGetProgramPipelineInfoLog", "glGetProgramPipelineiv", "glGetProgramResourceIndex",
    "glGetProgramResourceLocation", "glGetProgramResourceLocationIndex",
    "glGetProgramResourceName", "glGetProgramResourceiv", "glGetProgramStageiv",
    "glGetProgramStringARB", "glGetProgramStringNV", "glGetProgramSubroutineParameteruivNV",
    "glGetProgramiv", "glGetProgramivARB", "glGetProgramivNV", "glGetQueryIndexediv",
    "glGetQueryiv", "glGetQueryivARB", "glGetRenderbufferParameteriv",
    "glGetRenderbufferParameterivEXT", "glGetSamplerParameterIiv", "glGetSamplerParameterIuiv",
    "glGetSamplerParameterfv", "glGetSamplerParameteriv", "glGetSeparableFilterEXT",
    "glGetShaderInfoLog", "glGetShaderPrecisionFormat", "glGetShaderSource",
    "glGetShaderSourceARB", "glGetShaderiv", "glGetSharpenTexFuncSGIS", "glGetSynciv",
    "glGetTexBumpParameterfvATI", "glGetTexBumpParameterivATI", "glGetTexEnvfv", "glGetTexEnviv",
    "glGetTexFilterFuncSGIS", "glGetTexGendv", "glGetTexGenfv", "glGetTexGeniv",
    "glGetTrackMatrixivNV", "glGetTransformFeedbackVarying", "glGetTransformFeedbackVaryingEXT",
    "glGetTransformFeedbackVaryingNV", "glGetUniformIndices", "glGetUniformSubroutineuiv",
    "glGetUniformdv", "glGetUniformfv", "glGetUniformfvARB", "glGetUniformi64vNV",
    "glGetUniformiv", "glGetUniformivARB", "glGetUniformui64vNV", "glGetUniformuiv",
    "glGetUniformuivEXT", "glGetVariantArrayObjectfvATI", "glGetVariantArrayObjectivATI",
    "glGetVariantBooleanvEXT", "glGetVariantFloatvEXT", "glGetVariantIntegervEXT",
    "glGetVariantPointervEXT", "glGetVertexArrayIntegeri_vEXT", "glGetVertexArrayIntegervEXT",
    "glGetVertexArrayPointeri_vEXT", "glGetVertexArrayPointervEXT", "glGetVideoCaptureStreamdvNV",
    "glGetVideoCaptureStreamfvNV", "glGetVideoCaptureStreamivNV", "glGetVideoCaptureivNV",
    "glGetVideoi64vNV", "glGetVideoivNV", "glGetVideoui64vNV", "glGetVideouivNV", "glGetnMapdvARB",
    "glGetnMapfvARB", "glGetnMapivARB", "glGetnUniformdvARB", "glGetnUniformfvARB",
    "glGetnUniformivARB", "glGetnUniformuivARB", "glObjectLabel", "glObjectLabelKHR",
    "glObjectPtrLabel", "glObjectPtrLabelKHR",
};

// Config-attribute queries: hidden, but not marked side-effect free upstream.
constexpr std::string_view kVerboseOnlyNames[] = {
    "eglGetConfigAttrib", "glXGetFBConfigAttrib", "glXGetFBConfigAttribSGIX",
    "wglGetPixelFormatAttribivARB", "wglGetPixelFormatAttribivEXT",
};

// Buffer swaps: end the frame and replace the render target, so snapshots
// must be taken before the call.
constexpr std::string_view kSwapNames[] = {
    "IDirect3DDevice8::Present", "IDirect3DDevice9::Present", "IDirect3DDevice9Ex::Present",
    "IDirect3DDevice9Ex::PresentEx", "IDirect3DSwapChain9::Present",
    "IDirect3DSwapChain9Ex::Present", "eglSwapBuffers", "eglSwapBuffersWithDamageEXT",
    "eglSwapBuffersWithDamageKHR", "glXSwapBuffers", "glXSwapBuffersMscOML", "wglSwapBuffers",
    "wglSwapLayerBuffers", "wglSwapMultipleBuffers",
};

// Frame ends that do not swap (CGL flush, GREMEDY terminator, and the D3D9
// render-target read-back some apps use instead of Present).
constexpr std::string_view kEndFrameNames[] = {
    "CGLFlushDrawable", "IDirect3DDevice9::GetRenderTargetData",
    "IDirect3DDevice9Ex::GetRenderTargetData", "glFrameTerminatorGREMEDY",
};

// Legacy D3D draws and clears; GL and D3D10+ draws are matched by pattern.
constexpr std::string_view kRenderNames[] = {
    "IDirect3DDevice2::DrawIndexedPrimitive", "IDirect3DDevice2::DrawPrimitive",
    "IDirect3DDevice3::DrawIndexedPrimitive", "IDirect3DDevice3::DrawIndexedPrimitiveStrided",
    "IDirect3DDevice3::DrawIndexedPrimitiveVB", "IDirect3DDevice3::DrawPrimitive",
    "IDirect3DDevice3::DrawPrimitiveStrided", "IDirect3DDevice3::DrawPrimitiveVB",
    "IDirect3DDevice7::Clear", "IDirect3DDevice7::DrawIndexedPrimitive",
    "IDirect3DDevice7::DrawIndexedPrimitiveStrided", "IDirect3DDevice7::DrawIndexedPrimitiveVB",
    "IDirect3DDevice7::DrawPrimitive", "IDirect3DDevice7::DrawPrimitiveStrided",
    "IDirect3DDevice7::DrawPrimitiveVB", "IDirect3DDevice8::Clear",
    "IDirect3DDevice8::DrawIndexedPrimitive", "IDirect3DDevice8::DrawIndexedPrimitiveUP",
    "IDirect3DDevice8::DrawPrimitive", "IDirect3DDevice8::DrawPrimitiveUP",
    "IDirect3DDevice8::DrawRectPatch", "IDirect3DDevice8::DrawTriPatch", "IDirect3DDevice9::Clear",
    "IDirect3DDevice9::DrawIndexedPrimitive", "IDirect3DDevice9::DrawIndexedPrimitiveUP",
    "IDirect3DDevice9::DrawPrimitive", "IDirect3DDevice9::DrawPrimitiveUP",
    "IDirect3DDevice9::DrawRectPatch", "IDirect3DDevice9::DrawTriPatch",
    "IDirect3DDevice9Ex::Clear", "IDirect3DDevice9Ex::DrawIndexedPrimitive",
    "IDirect3DDevice9Ex::DrawIndexedPrimitiveUP", "IDirect3DDevice9Ex::DrawPrimitive",
    "IDirect3DDevice9Ex::DrawPrimitiveUP", "IDirect3DDevice9Ex::DrawRectPatch",
    "IDirect3DDevice9Ex::DrawTriPatch", "IDirect3DViewport2::Clear", "IDirect3DViewport3::Clear",
    "IDirect3DViewport3::Clear2", "IDirect3DViewport::Clear",
};

constexpr std::string_view kSetRenderTargetNames[] = {
    "IDirect3DDevice8::SetRenderTarget", "IDirect3DDevice9::SetRenderTarget",
    "IDirect3DDevice9Ex::SetRenderTarget",
};

// Debug markers. Upstream deliberately leaves NO_SIDE_EFFECTS off these (it is
// commented out), so replay still issues them...
constexpr std::string_view kMarkerNames[] = {
    "D3DPERF_SetMarker", "ID3DUserDefinedAnnotation::SetMarker", "glStringMarkerGREMEDY",
};
constexpr std::string_view kMarkerPushNames[] = {
    "D3DPERF_BeginEvent", "ID3DUserDefinedAnnotation::BeginEvent", "glPushDebugGroup",
    "glPushDebugGroupKHR", "glPushGroupMarkerEXT",
};
constexpr std::string_view kMarkerPopNames[] = {
    "D3DPERF_EndEvent", "ID3DUserDefinedAnnotation::EndEvent", "glPopDebugGroup",
    "glPopDebugGroupKHR", "glPopGroupMarkerEXT",
};
// ...but keeps it on the message-insert family.
constexpr std::string_view kMarkerNoSideEffectNames[] = {
    "glDebugMessageInsert", "glDebugMessageInsertAMD", "glDebugMessageInsertARB",
    "glDebugMessageInsertKHR", "glInsertEventMarkerEXT",
};
// clang-format on

struct Group {
  std::uint32_t flags;
  std::span<const std::string_view> names;
};

constexpr Group kGroups[] = {
    {kCallNoSideEffects | kCallVerbose, kQueryNames},
    {kCallNoSideEffects, kNoSideEffectNames},
    {kCallVerbose, kVerboseOnlyNames},
    {kCallEndFrame | kCallSwapRenderTarget, kSwapNames},
    {kCallEndFrame, kEndFrameNames},
    {kCallRender, kRenderNames},
    {kCallSwapRenderTarget, kSetRenderTargetNames},
    {kCallMarker, kMarkerNames},
    {kCallMarker | kCallMarkerPush, kMarkerPushNames},
    {kCallMarker | kCallMarkerPop, kMarkerPopNames},
    {kCallNoSideEffects | kCallMarker, kMarkerNoSideEffectNames},
};

struct Entry {
  std::string_view name;
  std::uint32_t flags;
};

constexpr std::size_t table_size() {
  std::size_t n = 0;
  for (const Group& g : kGroups) n += g.names.size();
  return n;
}

constexpr auto build_table() {
  std::array<Entry, table_size()> table{};
  std::size_t i = 0;
  for (const Group& g : kGroups) {
    for (std::string_view name : g.names) table[i++] = {name, g.flags};
  }
  // Byte-wise order, the same as the strcmp bisection upstream.
  std::sort(table.begin(), table.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return table;
}

constexpr auto kTable = build_table();

static_assert(kTable.size() == 421, "apitrace 11.1's callFlagTable has 421 entries");
static_assert(std::adjacent_find(kTable.begin(), kTable.end(),
                                 [](const Entry& a, const Entry& b) { return a.name == b.name; }) == kTable.end(),
              "a name is listed in two groups");

std::uint32_t table_lookup(std::string_view name) {
  const auto it = std::lower_bound(kTable.begin(), kTable.end(), name,
                                   [](const Entry& e, std::string_view n) { return e.name < n; });
  return (it != kTable.end() && it->name == name) ? it->flags : 0u;
}

// ---------------------------------------------------------------------------
// Name patterns, tried before the table; the first hit decides.
//
// These are apitrace's std::regex patterns (ECMAScript, whole-string
// regex_match, "C" locale) rewritten as plain scanners. Character classes are
// ASCII-only on purpose: in the "C" locale \w and \d never match bytes >= 0x80,
// and neither do the [A-Z] / [a-z] ranges.
// ---------------------------------------------------------------------------

constexpr bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return is_upper(c) || is_lower(c); }
constexpr bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

template <typename Pred>
constexpr bool all_of(std::string_view s, Pred pred) {
  return std::all_of(s.begin(), s.end(), pred);
}

// [0-9A-Z]* : the extension/arity suffix most GL patterns allow.
constexpr bool is_suffix(std::string_view s) {
  return all_of(s, [](char c) { return is_upper(c) || is_digit(c); });
}
constexpr bool is_words(std::string_view s) { return all_of(s, is_word); }  // \w*

// Strips `prefix` from `s` if present; reports whether it did.
constexpr bool eat(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// Strips a leading \d* run (which may be empty).
constexpr void eat_digits(std::string_view& s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  s.remove_prefix(n);
}

// ([A-Z][a-z]+)* : zero or more capitalised words.
constexpr bool is_cap_words(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_upper(s[i++])) return false;
    if (i == s.size() || !is_lower(s[i])) return false;
    while (i < s.size() && is_lower(s[i])) ++i;
  }
  return true;
}

// ([A-Z][a-zA-Z]*)? : an optional capitalised tail.
constexpr bool is_opt_cap_tail(std::string_view s) {
  return s.empty() || (is_upper(s[0]) && all_of(s.substr(1), is_alpha));
}

// gl([A-Z][a-z]+)*Draw(Range|Mesh)?(Arrays|Elements)([A-Z][a-zA-Z]*)?
// The leading words may themselves contain "Draw", so every occurrence is
// tried as the anchor; after it the match is deterministic.
constexpr bool is_gl_draw(std::string_view rest) {  // rest: the name after "gl"
  for (std::size_t p = rest.find("Draw"); p != std::string_view::npos; p = rest.find("Draw", p + 1)) {
    if (!is_cap_words(rest.substr(0, p))) continue;
    std::string_view s = rest.substr(p + 4);
    if (!eat(s, "Range")) eat(s, "Mesh");
    if ((eat(s, "Arrays") || eat(s, "Elements")) && is_opt_cap_tail(s)) return true;
  }
  return false;
}

// gl(CallLists?|Clear|End|DrawPixels|DrawTransformFeedback([A-Z][a-zA-Z]*)?|
//    BlitFramebuffer|Rect[dfis]v?|EvalMesh[0-9]+)[0-9A-Z]*
constexpr bool is_gl_misc_draw(std::string_view rest) {
  for (std::string_view word : {"Clear", "End", "DrawPixels", "BlitFramebuffer"}) {
    std::string_view s = rest;
    if (eat(s, word) && is_suffix(s)) return true;
  }
  if (std::string_view s = rest; eat(s, "CallList")) {
    if (is_suffix(s) || (eat(s, "s") && is_suffix(s))) return true;
  }
  if (std::string_view s = rest; eat(s, "DrawTransformFeedback")) {
    if (is_suffix(s)) return true;
    // Take the tail's letters greedily: handing any of them to the
    // [0-9A-Z]* suffix instead could only add constraints.
    if (!s.empty() && is_upper(s[0])) {
      std::size_t j = 1;
      while (j < s.size() && is_alpha(s[j])) ++j;
      if (is_suffix(s.substr(j))) return true;
    }
  }
  if (std::string_view s = rest; eat(s, "Rect")) {
    if (!s.empty() && std::string_view("dfis").find(s[0]) != std::string_view::npos) {
      s.remove_prefix(1);
      eat(s, "v");
      if (is_suffix(s)) return true;
    }
  }
  if (std::string_view s = rest; eat(s, "EvalMesh")) {
    if (!s.empty() && is_digit(s[0]) && is_suffix(s)) return true;
  }
  return false;
}

// gl(GetFloat|GetInteger|GetVertexAttrib|GetTex(ture)?(Level)?Parameter)\w+
constexpr bool is_gl_get(std::string_view rest) {
  for (std::string_view stem : {"GetFloat", "GetInteger", "GetVertexAttrib", "GetTexParameter", "GetTextureParameter",
                                "GetTexLevelParameter", "GetTextureLevelParameter"}) {
    std::string_view s = rest;
    if (eat(s, stem) && !s.empty() && is_words(s)) return true;
  }
  return false;
}

std::uint32_t gl_pattern_flags(std::string_view name) {
  std::string_view rest = name;
  if (!eat(rest, "gl")) return 0;
  if (is_gl_draw(rest) || is_gl_misc_draw(rest)) return kCallRender;
  // glBindFramebuffer[0-9A-Z]*
  if (std::string_view s = rest; eat(s, "BindFramebuffer") && is_suffix(s)) {
    return kCallSwapRenderTarget;
  }
  if (is_gl_get(rest)) return kCallNoSideEffects;
  return 0;
}

// The method part of ID3D1(0Device|1DeviceContext)\d*::METHOD, or nothing.
constexpr bool eat_d3d_draw_iface(std::string_view& s) {
  if (!eat(s, "ID3D1") || !(eat(s, "0Device") || eat(s, "1DeviceContext"))) return false;
  eat_digits(s);
  return eat(s, "::");
}

// IDXGI(Decode)?SwapChain\w*::Present\w*
constexpr bool is_dxgi_present(std::string_view s) {
  if (!eat(s, "IDXGI")) return false;
  eat(s, "Decode");
  if (!eat(s, "SwapChain")) return false;
  const std::size_t sep = s.find("::");
  if (sep == std::string_view::npos || !is_words(s.substr(0, sep))) return false;
  s.remove_prefix(sep);
  return eat(s, "::Present") && is_words(s);
}

// ID3D1[01]Device\d*::(CheckFormatSupport|CheckMultisampleQualityLevels)
constexpr bool is_d3d_caps_query(std::string_view s) {
  if (!(eat(s, "ID3D10Device") || eat(s, "ID3D11Device"))) return false;
  eat_digits(s);
  return s == "::CheckFormatSupport" || s == "::CheckMultisampleQualityLevels";
}

std::uint32_t d3d_pattern_flags(std::string_view name) {
  // ID3D1(0Device|1DeviceContext)\d*::(Draw\w*|ExecuteCommandList)
  // ID3D1(0Device|1DeviceContext)\d*::OMSetRenderTargets\w*
  if (std::string_view m = name; eat_d3d_draw_iface(m)) {
    if (m == "ExecuteCommandList") return kCallRender;
    if (std::string_view t = m; eat(t, "Draw") && is_words(t)) return kCallRender;
    if (std::string_view t = m; eat(t, "OMSetRenderTargets") && is_words(t)) {
      return kCallSwapRenderTarget;
    }
  }
  // DXGI presents end the frame but, unlike D3D9 Present, are not marked as
  // swapping the render target.
  if (is_dxgi_present(name)) return kCallEndFrame;
  if (is_d3d_caps_query(name)) return kCallNoSideEffects | kCallVerbose;
  return 0;
}

}  // namespace

std::uint32_t call_flags_for_name(std::string_view name) {
  // apitrace keeps names as C strings, so it never sees past an embedded NUL.
  name = name.substr(0, name.find('\0'));
  if (name.empty()) return 0;
  // As upstream: only names starting with 'g' or 'I' are tried against the
  // patterns, a pattern hit wins outright, and the table is the fallback.
  std::uint32_t flags = 0;
  if (name[0] == 'g') {
    flags = gl_pattern_flags(name);
  } else if (name[0] == 'I') {
    flags = d3d_pattern_flags(name);
  }
  return flags != 0 ? flags : table_lookup(name);
}

}  // namespace libtrace::apitrace
