// SPDX-License-Identifier: MIT
// The HTML report's two halves (internal to libtrace): stat_html.cpp writes
// the page and its tables, stat_html_plot.cpp the plot of live bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "libtrace/vma/stat.hpp"

namespace libtrace::vma::detail {

// Text from the recording (file and pool names, user data) is the user's:
// escaped wherever it lands in the page.
std::string html_escape(std::string_view s);

// The recording's duration, one wording for the summary and the end of the
// plot's time axis: a reader compares the two.
std::string duration_text(const Stats& s);

std::string heap_flag_names(std::uint32_t flags);

// The plot (SVG), its legend and hover readout, and the script, which marks
// the body data-report="ready" once it has run.
std::string html_plot(const Stats& s);

}  // namespace libtrace::vma::detail
