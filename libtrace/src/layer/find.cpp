// SPDX-License-Identifier: MIT
#include "libtrace/layer/find.hpp"

#include <sys/stat.h>

namespace libtrace::layer {

std::string find_layer_dir(const std::string& exe, const std::string& folder, const std::string& manifest) {
  const std::size_t slash = exe.rfind('/');
  const std::string bin = slash == std::string::npos ? "." : slash == 0 ? "/" : exe.substr(0, slash);
  for (const std::string& dir : {bin + "/../../layers/" + folder, bin + "/../share/vulkan/explicit_layer.d"}) {
    struct stat st {};
    if (::stat((dir + "/" + manifest).c_str(), &st) == 0 && S_ISREG(st.st_mode)) return dir;
  }
  return "";
}

}  // namespace libtrace::layer
