#pragma once
// The report page: the embedded template (engine/report/assets) with its stylesheet,
// the vendored Apache ECharts, the page script and the data (report_data.h) inlined,
// so the one file works offline.
#include <string>

#include "report/report_data.h"

namespace symshape {

// The summary goes into `<script type="application/json" id="report-data">`, detail i into
// `<script type="application/json" id="graph-data-i">` (parsed by the page only when graph
// i is opened); "</" inside any JSON is escaped so it cannot end its <script> block.
std::string render_report_html(const ReportData& data);

}  // namespace symshape
