#include "report/report_html.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string_view>

namespace symshape {
namespace report_assets {
extern const std::string_view report_html;
extern const std::string_view report_css;
extern const std::string_view report_js;
extern const std::string_view echarts_min_js;
}  // namespace report_assets

namespace {

// Appends `json` with every "</" written "<\/" (the same string in JSON).
void append_escaped(std::string& out, std::string_view json) {
  size_t from = 0;
  for (size_t at = json.find("</"); at != std::string_view::npos; at = json.find("</", at + 2)) {
    out.append(json, from, at + 1 - from);
    out += '\\';
    from = at + 1;
  }
  out.append(json, from);
}

}  // namespace

std::string render_report_html(const ReportData& data) {
  const std::string_view page = report_assets::report_html;
  // The template's markers in the order they appear; each is replaced once. The page is
  // assembled piece by piece: no marker is ever searched for inside inserted text.
  static constexpr std::string_view kMarkers[] = {"/*@STYLE@*/", "/*@ECHARTS@*/", "/*@DATA@*/", "<!--@DETAILS@-->",
                                                  "/*@APP@*/"};
  size_t bytes = page.size() + report_assets::report_css.size() + report_assets::echarts_min_js.size() +
                 report_assets::report_js.size() + data.summary.size() + 64;
  for (const std::string& d : data.details) bytes += d.size() + 72;
  std::string out;
  out.reserve(bytes);
  size_t from = 0;
  for (std::string_view marker : kMarkers) {
    const size_t at = page.find(marker, from);
    if (at == std::string_view::npos) throw std::logic_error("report template lacks " + std::string(marker));
    out.append(page, from, at - from);
    from = at + marker.size();
    if (marker == "/*@STYLE@*/") out += report_assets::report_css;
    else if (marker == "/*@ECHARTS@*/") out += report_assets::echarts_min_js;
    else if (marker == "/*@APP@*/") out += report_assets::report_js;
    else if (marker == "/*@DATA@*/") append_escaped(out, data.summary);
    else {
      for (size_t i = 0; i < data.details.size(); ++i) {
        fmt::format_to(std::back_inserter(out), "<script type=\"application/json\" id=\"graph-data-{}\">", i);
        append_escaped(out, data.details[i]);
        out += "</script>\n";
      }
    }
  }
  out.append(page, from);
  return out;
}

}  // namespace symshape
