#include "report/report_html.h"

#include <stdexcept>

namespace symshape {
namespace report_assets {
extern const std::string_view report_html;
extern const std::string_view report_css;
extern const std::string_view report_js;
extern const std::string_view echarts_min_js;
}  // namespace report_assets

namespace {

// Replaces the one `marker` of the template; a template without it is a build bug.
void fill(std::string& page, std::string_view marker, std::string_view text) {
  const size_t at = page.find(marker);
  if (at == std::string::npos) throw std::logic_error("report template lacks " + std::string(marker));
  page.replace(at, marker.size(), text);
}

std::string escape_script_end(std::string_view json) {
  std::string out;
  out.reserve(json.size() + 16);
  for (size_t i = 0; i < json.size(); ++i) {
    out += json[i];
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') out += '\\';  // "<\/" is "</" in JSON
  }
  return out;
}

}  // namespace

std::string render_report_html(std::string_view data_json) {
  std::string page(report_assets::report_html);
  // Data last: the markers of the later pieces can then never be found inside earlier ones.
  fill(page, "/*@STYLE@*/", report_assets::report_css);
  fill(page, "/*@DATA@*/", "/*@DATA_SLOT@*/");
  fill(page, "/*@APP@*/", report_assets::report_js);
  fill(page, "/*@ECHARTS@*/", report_assets::echarts_min_js);
  fill(page, "/*@DATA_SLOT@*/", escape_script_end(data_json));
  return page;
}

}  // namespace symshape
