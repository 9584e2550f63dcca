#pragma once
// The report page: the embedded template (engine/report/assets) with its stylesheet,
// the vendored Apache ECharts, the page script and the data (report_data.h) inlined,
// so the one file works offline.
#include <string>
#include <string_view>

namespace symshape {

// `data_json` is a JSON document; "</" inside it is escaped so it cannot end the
// <script> block that holds it.
std::string render_report_html(std::string_view data_json);

}  // namespace symshape
