// SPDX-License-Identifier: MIT
// The HTML report's plot of live bytes per heap over time: an inline SVG step
// plot with round-valued ticks, a legend beside it (never over the data) and
// a readout of every heap's bytes under the pointer.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/text_util.hpp"
#include "vma/stat_html.hpp"

namespace libtrace::vma::detail {

namespace {

// The SVG's user units; CSS scales it down on narrow windows.
constexpr double kW = 820, kH = 380;
// Room for the tick labels and axis titles, and for the end label's right half.
constexpr double kLeft = 76, kRight = 40, kTop = 14, kBottom = 54;
constexpr double kX0 = kLeft, kX1 = kW - kRight, kY0 = kH - kBottom, kY1 = kTop;

const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                               "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
constexpr std::size_t kColorCount = sizeof kColors / sizeof kColors[0];

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string tick_text(int decimals, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 1, 2, 2.5 or 5 times a power of ten: about `want` intervals over `span`.
double round_step(double span, int want) {
  const double raw = span / want;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0})
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  return 10 * power;
}

// The decimals that print every multiple of `step` exactly ("0.25": 2).
int decimals(double step) {
  int d = 0;
  for (double v = step; d < 9 && std::fabs(v - std::round(v)) > 1e-6 * v; v *= 10) ++d;
  return d;
}

struct Unit {
  const char* name;
  double size;
};

// The largest binary unit the peak reaches, so the ticks read 0 to a few hundred.
Unit unit_for(std::uint64_t peak) {
  static const Unit units[] = {{"B", 1},
                               {"KiB", 1024.0},
                               {"MiB", 1024.0 * 1024},
                               {"GiB", 1024.0 * 1024 * 1024},
                               {"TiB", 1024.0 * 1024 * 1024 * 1024}};
  Unit u = units[0];
  for (const Unit& c : units)
    if (static_cast<double>(peak) >= c.size) u = c;
  return u;
}

// A line in user units, rounded so the page stays the same byte for byte.
std::string line(double x1, double y1, double x2, double y2, const char* attrs) {
  return "<line x1=\"" + num("%.1f", x1) + "\" y1=\"" + num("%.1f", y1) + "\" x2=\"" + num("%.1f", x2) + "\" y2=\"" +
         num("%.1f", y2) + "\" " + attrs + "/>";
}

std::string label(double x, double y, const char* attrs, const std::string& text) {
  return "<text x=\"" + num("%.1f", x) + "\" y=\"" + num("%.1f", y) + "\" " + attrs + ">" + text + "</text>";
}

// Shows the time and every heap's live bytes under the pointer. T: the
// samples' times from the first call, V: their bytes, H to a sample; a heap
// holds a sample's bytes until the next sample, as the plot's steps do. DOM
// calls only (no innerHTML): nothing it writes is parsed as markup.
const char kScript[] = R"(
var svg=document.getElementById('live-bytes'),guide=document.getElementById('guide'),
box=document.getElementById('readout'),plot=svg.parentNode;
function human(v){if(v<1024)return v+' B';var u=['KiB','MiB','GiB','TiB'],i=-1;
while(v>=1024&&i<3){v/=1024;++i;}return v.toFixed(1)+' '+u[i];}
function hide(){box.hidden=true;guide.setAttribute('visibility','hidden');}
svg.addEventListener('mousemove',function(e){
var r=svg.getBoundingClientRect(),x=(e.clientX-r.left)*W/r.width;
if(x<X0||x>X1){hide();return;}
var t=(x-X0)/(X1-X0)*D,lo=0,hi=T.length;
while(lo<hi){var m=(lo+hi)>>1;if(T[m]<=t)lo=m+1;else hi=m;}
guide.setAttribute('x1',x);guide.setAttribute('x2',x);guide.setAttribute('visibility','visible');
box.textContent='';var head=document.createElement('div');head.textContent='t = '+t.toFixed(3)+' s';
box.appendChild(head);
for(var h=0;h<H;++h){var row=document.createElement('div'),sw=document.createElement('span');
sw.className='swatch';sw.style.background=C[h%C.length];row.appendChild(sw);
row.appendChild(document.createTextNode('heap '+h+': '+human(lo?V[(lo-1)*H+h]:0)));box.appendChild(row);}
box.hidden=false;var p=plot.getBoundingClientRect(),left=e.clientX-p.left+14;
if(left+box.offsetWidth>p.width)left=e.clientX-p.left-14-box.offsetWidth;
box.style.left=Math.max(0,left)+'px';box.style.top=(e.clientY-p.top+14)+'px';});
svg.addEventListener('mouseleave',hide);
document.body.setAttribute('data-report','ready');
)";

}  // namespace

std::string html_plot(const Stats& s) {
  const Config& c = s.header.config;
  const auto& times = s.timeline_time;
  const auto& rows = s.timeline_heap_bytes;
  const std::size_t heaps = c.heaps.size();
  // The summary's duration, so the axis ends where the summary says; a
  // recording of one instant still gets an axis.
  const double duration = s.last_time - s.first_time;
  const double span = duration > 0 ? duration : 1e-3;
  auto at = [&](std::size_t i) { return std::clamp(times[i] - s.first_time, 0.0, span); };
  auto bytes = [&](std::size_t i, std::size_t h) { return h < rows[i].size() ? rows[i][h] : 0; };

  std::uint64_t peak = 0;
  for (const auto& row : rows)
    for (const auto v : row) peak = std::max(peak, v);
  const Unit unit = unit_for(peak);
  const double top_in_units = std::max(static_cast<double>(peak) / unit.size, 1.0);
  double y_step = round_step(top_in_units, 5);
  if (unit.size == 1) y_step = std::ceil(y_step);  // no fractions of a byte
  const double y_top = std::ceil(top_in_units / y_step - 1e-9) * y_step;
  const double x_step = round_step(span, 8);

  auto x = [&](double t) { return kX0 + t / span * (kX1 - kX0); };
  auto y = [&](double v) { return kY0 - v / unit.size / y_top * (kY0 - kY1); };

  std::string o = "<section id=\"plot-section\"><h2>Live bytes per heap</h2>\n<div class=\"plot-row\">\n";
  o += "<div class=\"plot\">\n";
  o += "<svg id=\"live-bytes\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num("%.0f", kW) + "\" height=\"" +
       num("%.0f", kH) + "\" viewBox=\"0 0 " + num("%.0f", kW) + " " + num("%.0f", kH) +
       "\" role=\"img\" aria-label=\"live bytes per heap over time\">\n";

  // Gridlines first, under the data; ticks and their labels after it.
  std::string grid, ticks, labels;
  const int y_decimals = decimals(y_step);
  for (int k = 0; k * y_step <= y_top * (1 + 1e-9); ++k) {
    const double v = k * y_step, yv = y(v * unit.size);
    if (k) grid += line(kX0, yv, kX1, yv, "");
    ticks += line(kX0 - 5, yv, kX0, yv, "");
    labels += label(kX0 - 8, yv + 4, "class=\"y-tick\" text-anchor=\"end\"", tick_text(y_decimals, v)) + "\n";
  }
  // The end label stands for the last tick: one too close would overlap it.
  const int x_decimals = decimals(x_step);
  for (int k = 0; k * x_step <= span * (1 + 1e-9); ++k) {
    const double t = k * x_step, xt = x(t);
    if (k) grid += line(xt, kY1, xt, kY0, "");
    ticks += line(xt, kY0, xt, kY0 + 5, "");
    if (kX1 - xt >= 48)
      labels += label(xt, kY0 + 18, "class=\"x-tick\" text-anchor=\"middle\"", tick_text(x_decimals, t)) + "\n";
  }
  grid += line(kX1, kY1, kX1, kY0, "");  // where the recording ends
  o += "<g class=\"grid\" stroke=\"#e3e3e3\">" + grid + "</g>\n";
  // A heap's bytes hold until its next sample: steps, not slopes. Drawn before
  // the axes, so a heap that stays at zero does not hide the time axis.
  for (std::size_t h = 0; h < heaps; ++h) {
    o += "<polyline class=\"heap\" data-heap=\"" + std::to_string(h) +
         "\" fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke=\"" + kColors[h % kColorCount] +
         "\" points=\"" + num("%.1f", x(0)) + "," + num("%.1f", y(0));
    double last_y = y(0);
    for (std::size_t i = 0; i < times.size(); ++i) {
      const double xi = x(at(i)), yi = y(static_cast<double>(bytes(i, h)));
      o += " " + num("%.1f", xi) + "," + num("%.1f", last_y) + " " + num("%.1f", xi) + "," + num("%.1f", yi);
      last_y = yi;
    }
    o += " " + num("%.1f", x(span)) + "," + num("%.1f", last_y) + "\"/>\n";
  }
  o += "<g class=\"axes\" stroke=\"#555\">" + line(kX0, kY0, kX1, kY0, "") + line(kX0, kY1, kX0, kY0, "") +
       line(kX1, kY0, kX1, kY0 + 5, "") + ticks + "</g>\n" + labels;
  o += label(kX1, kY0 + 18, "class=\"x-end\" text-anchor=\"middle\"", duration_text(s)) + "\n";
  o +=
      label((kX0 + kX1) / 2, kH - 10, "class=\"axis-title\" data-axis=\"x\" text-anchor=\"middle\"", "time (s)") + "\n";
  o += label(-(kY0 + kY1) / 2, 16,
             "class=\"axis-title\" data-axis=\"y\" text-anchor=\"middle\" transform=\"rotate(-90)\"",
             std::string("live bytes (") + unit.name + ")") +
       "\n";
  o += line(kX0, kY1, kX0, kY0, "id=\"guide\" stroke=\"#444\" stroke-dasharray=\"4 3\" visibility=\"hidden\"") + "\n";
  o += "</svg>\n<div id=\"readout\" data-role=\"readout\" hidden></div>\n</div>\n";

  o += "<ul class=\"legend\" data-role=\"legend\">\n";
  if (!heaps)
    o += "<li class=\"note\">no heaps to plot: the recording has no Config section (format 1.3 and later)</li>\n";
  for (std::size_t h = 0; h < heaps; ++h) {
    const std::uint64_t heap_peak = h < s.peak_bytes_per_heap.size() ? s.peak_bytes_per_heap[h] : 0;
    // Long flag lists may wrap, but only between flags.
    std::string flags = c.heaps[h].flags ? html_escape(heap_flag_names(c.heaps[h].flags)) : "no flags";
    for (std::size_t bar = flags.find('|'); bar != std::string::npos; bar = flags.find('|', bar + 6))
      flags.insert(bar + 1, "<wbr>");
    o += "<li><span class=\"swatch\" style=\"background:" + std::string(kColors[h % kColorCount]) +
         "\"></span><strong>heap " + std::to_string(h) + "</strong> " + flags + "<br><span class=\"peak\">peak " +
         libtrace::detail::human_bytes(heap_peak) + " of " + libtrace::detail::human_bytes(c.heaps[h].size) +
         "</span></li>\n";
  }
  o += "</ul>\n</div>\n<p class=\"note\">Bytes of the allocations live in each heap (by their memory type), from the "
       "first call to the last; merged samples keep their maxima, so peaks stay";
  if (s.unresolved_type_allocations)
    o += "; " + std::to_string(s.unresolved_type_allocations) +
         " allocations with no resolvable memory type are not plotted";
  o += ".</p>\n";

  o += "<script>\n(function(){\nvar W=" + num("%.0f", kW) + ",X0=" + num("%.0f", kX0) + ",X1=" + num("%.0f", kX1) +
       ",D=" + num("%.9g", span) + ",H=" + std::to_string(heaps) + ",C=[";
  for (std::size_t i = 0; i < kColorCount; ++i) o += std::string(i ? ",'" : "'") + kColors[i] + "'";
  o += "],\nT=[";
  for (std::size_t i = 0; i < times.size(); ++i) o += (i ? "," : "") + num("%.9g", at(i));
  o += "],\nV=[";
  for (std::size_t i = 0; i < times.size(); ++i)
    for (std::size_t h = 0; h < heaps; ++h) o += (i || h ? "," : "") + std::to_string(bytes(i, h));
  o += "];";
  o += kScript;
  o += "})();\n</script>\n</section>\n";
  return o;
}

}  // namespace libtrace::vma::detail
