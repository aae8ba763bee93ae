// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/call_flags.hpp"

#include <doctest/doctest.h>

using namespace libtrace;
using namespace libtrace::apitrace;

TEST_CASE("call_flags: frame ends, verbose queries, draws") {
  CHECK(call_flags_for_name("glXSwapBuffers") == (kCallEndFrame | kCallSwapRenderTarget));
  CHECK((call_flags_for_name("eglSwapBuffers") & kCallEndFrame) != 0);
  CHECK(call_flags_for_name("glGetString") == (kCallNoSideEffects | kCallVerbose));
  CHECK((call_flags_for_name("glXQueryExtensionsString") & kCallVerbose) != 0);
  CHECK(call_flags_for_name("glDrawArrays") == kCallRender);
  CHECK(call_flags_for_name("glDrawElementsInstancedBaseVertex") == kCallRender);
  CHECK(call_flags_for_name("glClear") == kCallRender);
  CHECK((call_flags_for_name("glBindFramebufferEXT") & kCallSwapRenderTarget) != 0);
  CHECK(call_flags_for_name("glGetIntegerv") == kCallNoSideEffects);
  CHECK((call_flags_for_name("IDXGISwapChain::Present") & kCallEndFrame) != 0);
  CHECK(call_flags_for_name("memcpy") == 0);
  CHECK(call_flags_for_name("glVertex3f") == 0);
}
