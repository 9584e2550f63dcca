// symshape report: reads the embedded results (one JSON block), draws the corpus overview,
// fills the sortable graph table and renders a graph's section only when it is opened.
// All charts are Apache ECharts (vendored, inlined above). `#selftest` in the URL renders
// every section and writes the outcome into #selfcheck (used by the headless test).
'use strict';
const DATA = JSON.parse(document.getElementById('report-data').textContent);
const GRAPHS = DATA.graphs;
const charts = [];  // every chart drawn: {el, chart, name}
const errors = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}
function draw(container, name, option) {
  const chart = echarts.init(container, null, { renderer: 'svg' });
  chart.setOption(Object.assign({ animation: false }, option));
  charts.push({ el: container, chart, name });
  // Panels laid out after this one change its width: follow the container's size.
  new ResizeObserver(() => chart.resize()).observe(container);
  return chart;
}
function chartBox(cls) { return el('div', { class: 'chart' + (cls ? ' ' + cls : '') }); }
function ms(ns) { return ns / 1e6; }
function totalNs(g) { const t = g.timing_ns || {}; return (t.propagate || 0) + (t.compile || 0) + (t.eval || 0); }
function rejected(g) { return (g.verdicts || []).filter((v) => v.specialization < 0).length; }
function mismatches(g) { return (g.verdicts || []).filter((v) => v.expected_ok !== undefined && !v.matches).length; }
// The op a failed graph stopped at: the `op` the engine recorded, else the failing node.
function failedOp(g) { return g.error_op || g.error_node || '(graph)'; }

// ---------------------------------------------------------------- overview
function renderOverview() {
  document.getElementById('producer').textContent = DATA.producer || '';
  const sum = (f) => GRAPHS.reduce((a, g) => a + f(g), 0);
  const totals = [
    ['graphs', GRAPHS.length, 'total-graphs'],
    ['nodes', sum((g) => g.nodes || 0), 'total-nodes'],
    ['examples', sum((g) => g.examples || 0), 'total-examples'],
    ['failed graphs', GRAPHS.filter((g) => g.status !== 'ok').length, 'total-failed'],
    ['specialisations', sum((g) => (g.specializations || []).length), 'total-specializations'],
    ['rejected examples', sum(rejected), 'total-rejected'],
    ['verdict mismatches', sum(mismatches), 'total-mismatches'],
  ];
  const box = document.getElementById('totals');
  for (const [label, value, id] of totals) box.append(el('div', { id }, el('b', { text: String(value) }), el('span', { text: label })));

  const byStatus = {};
  for (const g of GRAPHS) byStatus[g.status] = (byStatus[g.status] || 0) + 1;
  const statusNames = Object.keys(byStatus).sort();
  draw(document.getElementById('chart-status'), 'status', {
    grid: { left: 130, right: 40, top: 10, bottom: 30 }, tooltip: {},
    xAxis: { type: 'value', minInterval: 1 }, yAxis: { type: 'category', data: statusNames },
    series: [{ type: 'bar', data: statusNames.map((s) => ({ value: byStatus[s], itemStyle: { color: s === 'ok' ? '#2da44e' : '#cf222e' } })), label: { show: true, position: 'right' } }],
  });

  const verdictCounts = { accepted: 0, rejected: 0, 'mismatch vs PyTorch': 0 };
  for (const g of GRAPHS) for (const v of g.verdicts || []) {
    if (v.specialization >= 0) verdictCounts.accepted++; else verdictCounts.rejected++;
    if (v.expected_ok !== undefined && !v.matches) verdictCounts['mismatch vs PyTorch']++;
  }
  const vNames = Object.keys(verdictCounts);
  draw(document.getElementById('chart-verdicts'), 'verdicts', {
    grid: { left: 150, right: 50, top: 10, bottom: 30 }, tooltip: {},
    xAxis: { type: 'value', minInterval: 1, splitNumber: 4, axisLabel: { hideOverlap: true } }, yAxis: { type: 'category', data: vNames },
    series: [{ type: 'bar', data: vNames.map((n) => verdictCounts[n]), label: { show: true, position: 'right' }, itemStyle: { color: '#0969da' } }],
  });

  const blocked = {};
  for (const g of GRAPHS) if (g.status === 'unsupported') blocked[failedOp(g)] = (blocked[failedOp(g)] || 0) + 1;
  const ops = Object.keys(blocked).sort((a, b) => blocked[b] - blocked[a] || a.localeCompare(b)).slice(0, 20);
  const opsBox = document.getElementById('chart-ops');
  if (ops.length === 0) {
    opsBox.replaceWith(el('p', { class: 'missing', id: 'chart-ops', text: 'Every op of every graph is supported.' }));
  } else {
    draw(opsBox, 'ops', {
      grid: { left: 200, right: 40, top: 10, bottom: 30 }, tooltip: {},
      xAxis: { type: 'value', minInterval: 1, name: 'graphs' }, yAxis: { type: 'category', data: ops.slice().reverse() },
      series: [{ type: 'bar', data: ops.slice().reverse().map((o) => blocked[o]), itemStyle: { color: '#cf222e' }, label: { show: true, position: 'right' } }],
    });
  }

  const timed = GRAPHS.filter((g) => totalNs(g) > 0);
  const timeBox = document.getElementById('chart-time');
  if (timed.length === 0) {
    timeBox.replaceWith(el('p', { class: 'missing', text: 'No timings in these results (written with --no-timing).' }));
  } else {
    draw(timeBox, 'time', {
      grid: { left: 70, right: 30, top: 30, bottom: 50 },
      legend: { top: 0 },
      tooltip: { formatter: (p) => `${p.data[3]}<br>${p.data[0]} nodes<br>${p.seriesName}: ${p.data[1].toFixed(3)} ms` },
      xAxis: { type: 'value', name: 'nodes', nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'log', name: 'ms', minorSplitLine: { show: false } },
      // A phase no graph spent time in (e.g. compilation folded into evaluation) is left out.
      series: [['propagation', 'propagate', '#0969da'], ['guard compilation', 'compile', '#bf8700'], ['evaluation', 'eval', '#8250df']].map(([label, key, color]) => ({
        name: label, type: 'scatter', symbolSize: 7, itemStyle: { color, opacity: 0.65 },
        data: timed.filter((g) => g.timing_ns[key] > 0).map((g) => [g.nodes, ms(g.timing_ns[key]), key, g.name]),
      })).filter((s) => s.data.length > 0),
    });
  }
}

// ---------------------------------------------------------------- graph table
const COLUMNS = [
  ['name', 'graph', (g) => g.name],
  ['status', 'status', (g) => g.status],
  ['nodes', 'nodes', (g) => g.nodes || 0],
  ['examples', 'examples', (g) => g.examples || 0],
  ['specializations', 'specialisations', (g) => (g.specializations || []).length],
  ['rejected', 'rejected', rejected],
  ['guards', 'guards', (g) => (g.guards || []).length],
  ['time', 'time (ms)', (g) => ms(totalNs(g))],
];
let sortKey = 0, sortDir = 1;
function renderTable() {
  const head = document.querySelector('#graph-table thead');
  const tr = el('tr');
  COLUMNS.forEach(([key, label], i) => {
    const th = el('th', { class: i >= 2 ? 'num' : '', 'data-col': key, text: label });
    th.addEventListener('click', () => { sortDir = sortKey === i ? -sortDir : 1; sortKey = i; fillTable(); });
    tr.append(th);
  });
  head.append(tr);
  document.getElementById('filter').addEventListener('input', fillTable);
  fillTable();
}
function fillTable() {
  const needle = document.getElementById('filter').value.toLowerCase();
  const get = COLUMNS[sortKey][2];
  const rows = GRAPHS.map((g, i) => i).filter((i) => GRAPHS[i].name.toLowerCase().includes(needle));
  rows.sort((a, b) => { const x = get(GRAPHS[a]), y = get(GRAPHS[b]); return (x < y ? -1 : x > y ? 1 : a - b) * sortDir; });
  document.querySelectorAll('#graph-table th').forEach((th, i) => th.className = (i >= 2 ? 'num ' : '') + (i === sortKey ? (sortDir > 0 ? 'sorted-asc' : 'sorted-desc') : ''));
  const body = document.querySelector('#graph-table tbody');
  const frag = document.createDocumentFragment();
  for (const i of rows) {
    const g = GRAPHS[i];
    const tr = el('tr', { 'data-graph': String(i) });
    COLUMNS.forEach(([key], c) => {
      let v = COLUMNS[c][2](g);
      const td = el('td', { class: c >= 2 ? 'num' : (key === 'status' ? (v === 'ok' ? 'status-ok' : 'status-bad') : ''), 'data-col': key });
      td.textContent = key === 'time' ? v.toFixed(3) : String(v);
      if (key === 'name') td.title = g.file;
      tr.append(td);
    });
    tr.addEventListener('click', () => openGraph(i));
    frag.append(tr);
  }
  body.replaceChildren(frag);
}

// ---------------------------------------------------------------- one graph
const opened = new Map();  // graph index -> its section
function openGraph(i) {
  if (!opened.has(i)) {
    // Attached before drawing: a chart sizes itself from its container's layout.
    const section = el('section', { class: 'graph', id: `graph-${i}`, 'data-graph': String(i) });
    document.getElementById('details').prepend(section);
    renderGraph(GRAPHS[i], section);
    opened.set(i, section);
  }
  opened.get(i).scrollIntoView({ block: 'start' });
}

// Input dims classified from the spec and the hint propagation's guards: a dim the spec
// marks dynamic whose guards pin it to 0 or 1 is "specialised" (PyTorch's 0/1 rule).
const DIM_STATIC = 0, DIM_DYNAMIC = 1, DIM_SPECIALISED = 2;
function classifyDims(g) {
  const pinned = new Set();
  for (const guard of g.guards || []) {
    const m = /^L\['(.+?)'\]\.size\(\)\[(\d+)\] == ([01])$/.exec(guard);
    if (m) pinned.add(`${m[1]}/${m[2]}`);
  }
  return g.inputs.map((inp) => inp.dims.map((d, k) => d.sym === undefined ? DIM_STATIC : (pinned.has(`${inp.name}/${k}`) ? DIM_SPECIALISED : DIM_DYNAMIC)));
}

function renderGraph(g, sec) {
  sec.append(el('h2', { text: g.name }));
  sec.append(el('div', { class: 'meta', text: `${g.file} · ${g.status} · ${g.nodes} nodes · ${g.examples} examples · hints from ${g.hints_from || '?'}: ${(g.hints || []).join(', ')}` }));
  if (g.status !== 'ok') {
    sec.append(el('div', { class: 'failure' }, el('b', { text: `${g.status}${g.error_node ? ` at node '${g.error_node}'` : ''}: ` }), g.error || ''));
  }
  const row = el('div', { class: 'row' });
  sec.append(row);
  const panel = (title, wide) => { const p = el('div', { class: 'panel' + (wide ? ' wide' : '') }, el('h3', { text: title })); row.append(p); return p; };

  if (g.inputs && g.inputs.length) {
    renderHeatmap(g, panel('Dynamism: inputs × dims'));
    const dyn = [];
    g.inputs.forEach((inp, p) => inp.dims.forEach((d, k) => { if (d.sym !== undefined) dyn.push([p, k]); }));
    for (const [p, k] of dyn) renderHistogram(g, p, k, panel(`Observed sizes of ${g.inputs[p].name}.size(${k}) = ${g.inputs[p].dims[k].sym}`));
    renderSpecCode(g, panel('dynamic_shapes (spec in effect)'));
    if (g.suggested_spec) renderSuggestedSpec(g, panel(`dynamic_shapes suggested by symshape dynamism (${g.suggested_verified ? 'verified by spec check' : 'not verified'})`));
  }
  if ((g.specializations || []).length) renderSpecialisations(g, panel('Specialisations: examples served and the guards that split them', true));
  if (g.compile_policy) renderTimeline(g, panel('Recompile timeline (torch.compile policy: automatic dynamic shapes)', true));
  else if ((g.verdicts || []).length) renderTimeline(g, panel('Recompile timeline (export policy)', true));
  const guards = panel(`Guards of the hint propagation (${(g.guards || []).length})`, true);
  guards.append(el('pre', { class: 'guards', text: (g.guards || []).join('\n') || '(none)' }));
  const bad = (g.verdicts || []).filter((v) => v.message);
  if (bad.length) {
    const p = panel(`Examples that failed (${bad.length})`, true);
    const t = el('table', {}, el('tr', {}, el('th', { text: 'example' }), el('th', { text: 'node' }), el('th', { text: 'error' })));
    for (const v of bad.slice(0, 200)) t.append(el('tr', {}, el('td', { text: String(v.example) }), el('td', { text: v.error_node || '' }), el('td', { text: v.message })));
    p.append(t);
  }
}

function renderHeatmap(g, panel) {
  const cls = classifyDims(g);
  const rank = Math.max(...g.inputs.map((i) => i.dims.length), 1);
  const data = [];
  g.inputs.forEach((inp, p) => inp.dims.forEach((d, k) => data.push([k, p, cls[p][k], d.sym !== undefined ? d.sym : String(d.size)])));
  const box = chartBox('small');
  box.style.height = `${Math.max(140, 60 + 34 * g.inputs.length)}px`;
  panel.append(box);
  draw(box, 'heatmap', {
    grid: { left: 110, right: 20, top: 10, bottom: 70 },
    tooltip: { formatter: (p) => `${g.inputs[p.data[1]].name}.size(${p.data[0]}) = ${p.data[3]}: ${['static', 'dynamic', 'specialised at 0/1'][p.data[2]]}` },
    xAxis: { type: 'category', data: Array.from({ length: rank }, (_, k) => `dim ${k}`), splitArea: { show: true } },
    yAxis: { type: 'category', data: g.inputs.map((i) => i.name), inverse: true },
    visualMap: { type: 'piecewise', orient: 'horizontal', left: 'center', bottom: 0, dimension: 2,
      pieces: [{ value: 0, label: 'static', color: '#d0d7de' }, { value: 1, label: 'dynamic', color: '#2da44e' }, { value: 2, label: 'specialised at 0/1', color: '#bf8700' }] },
    series: [{ type: 'heatmap', data, label: { show: true, formatter: (p) => p.data[3] }, itemStyle: { borderColor: '#fff', borderWidth: 2 } }],
  });
}

function renderHistogram(g, p, k, panel) {
  const inp = g.inputs[p], dim = inp.dims[k];
  const counts = new Map();
  for (const s of inp.sizes || []) if (s.length > k) counts.set(s[k], (counts.get(s[k]) || 0) + 1);
  const values = [...counts.keys()].sort((a, b) => a - b);
  const hi = Math.max(...values, dim.min || 0, dim.max != null ? dim.max : 0);
  const areas = [[{ name: `spec [${dim.min}, ${dim.max != null ? dim.max : '∞'}]`, xAxis: dim.min, itemStyle: { color: 'rgba(9,105,218,0.10)' } }, { xAxis: dim.max != null ? dim.max : hi * 1.1 + 1 }]];
  if (dim.suggested) {
    const smax = dim.suggested.max != null ? dim.suggested.max : hi * 1.1 + 1;
    areas.push([{ name: `suggested [${dim.suggested.min}, ${dim.suggested.max != null ? dim.suggested.max : '∞'}]`, xAxis: dim.suggested.min, itemStyle: { color: 'rgba(45,164,78,0.18)' }, label: { position: 'insideBottom', color: '#1a7f37' } }, { xAxis: smax }]);
  }
  const box = chartBox('small');
  panel.append(box);
  draw(box, 'histogram', {
    grid: { left: 45, right: 25, top: 30, bottom: 35 }, tooltip: {},
    xAxis: { type: 'value', name: 'size', nameLocation: 'middle', nameGap: 22, max: Math.ceil(hi * 1.1 + 1) },
    yAxis: { type: 'value', name: 'examples', minInterval: 1 },
    series: [{ type: 'bar', barMaxWidth: 14, barMinWidth: 3, data: values.map((v) => [v, counts.get(v)]), itemStyle: { color: '#0969da' },
      markArea: { silent: true, label: { position: 'insideTop', color: '#59636e' }, data: areas } }],
  });
}

function renderSpecCode(g, panel) {
  const syms = new Map();
  const lines = [];
  for (const inp of g.inputs) for (const d of inp.dims) if (d.sym !== undefined && !syms.has(d.sym)) syms.set(d.sym, d);
  lines.push('from torch.export import Dim');
  for (const [name, d] of syms) lines.push(`${name} = Dim("${name}", min=${d.min}${d.max != null ? `, max=${d.max}` : ''})`);
  const entries = g.inputs.map((inp) => {
    const dyn = inp.dims.map((d, k) => d.sym !== undefined ? `${k}: ${d.sym}` : null).filter((x) => x);
    return `    "${inp.name}": ${dyn.length ? `{${dyn.join(', ')}}` : 'None'},`;
  });
  lines.push('dynamic_shapes = {', ...entries, '}');
  const code = el('pre', { class: 'spec-code', text: lines.join('\n') });
  const button = el('button', { class: 'copy', text: 'copy' });
  button.addEventListener('click', () => navigator.clipboard && navigator.clipboard.writeText(code.textContent));
  panel.append(button, code);
}

// The suggested spec (DynamicShapesSpec dictionary form) as torch.export code: a Dim per
// root, derived dims as their expressions, hints as Dim.AUTO / Dim.STATIC / Dim.DYNAMIC.
function renderSuggestedSpec(g, panel) {
  const spec = g.suggested_spec, lines = ['from torch.export import Dim'];
  for (const [name, d] of Object.entries(spec.dims || {})) lines.push(`${name} = Dim("${name}", min=${d.min}${d.max != null ? `, max=${d.max}` : ''})`);
  const leaf = (v) => typeof v === 'string' ? (v.startsWith('_DimHint.') ? `Dim.${v.slice(9)}` : v) : String(v);
  const entries = Object.entries(spec.dynamic_shapes || {}).map(([name, dims]) => {
    if (!Array.isArray(dims)) return `    "${name}": None,`;
    const dyn = dims.map((v, k) => typeof v === 'string' ? `${k}: ${leaf(v)}` : null).filter((x) => x);
    return `    "${name}": ${dyn.length ? `{${dyn.join(', ')}}` : 'None'},`;
  });
  lines.push('dynamic_shapes = {', ...entries, '}');
  const code = el('pre', { class: 'spec-code', text: lines.join('\n') });
  const button = el('button', { class: 'copy', text: 'copy' });
  button.addEventListener('click', () => navigator.clipboard && navigator.clipboard.writeText(code.textContent));
  panel.append(button, code);
}

// What split specialisation s from the one before: the guard failures the engine recorded,
// else the guards that changed between the two guard sets.
function splitGuards(g, s) {
  const e = g.specializations[s];
  if (e.created_by && e.created_by.length) return e.created_by;
  if (s === 0) return [];
  const prev = new Set(g.specializations[s - 1].guards), cur = new Set(e.guards);
  return [...g.specializations[s - 1].guards.filter((x) => !cur.has(x)).map((x) => `dropped: ${x}`),
          ...e.guards.filter((x) => !prev.has(x)).map((x) => `added: ${x}`)];
}

function renderSpecialisations(g, panel) {
  const specs = g.specializations;
  const box = chartBox('small');
  box.style.height = `${Math.max(120, 50 + 28 * specs.length)}px`;
  panel.append(box);
  draw(box, 'specialisations', {
    grid: { left: 60, right: 40, top: 10, bottom: 30 }, tooltip: {},
    xAxis: { type: 'value', name: 'examples', minInterval: 1 }, yAxis: { type: 'category', inverse: true, data: specs.map((_, s) => `#${s}`) },
    series: [{ type: 'bar', data: specs.map((e) => e.accepted), itemStyle: { color: '#8250df' }, label: { show: true, position: 'right' } }],
  });
  const t = el('table', { class: 'spec-table' }, el('tr', {}, el('th', { text: '#' }), el('th', { class: 'num', text: 'first example' }), el('th', { class: 'num', text: 'examples' }), el('th', { class: 'num', text: 'guards' }), el('th', { text: 'split from the previous one by' })));
  specs.forEach((e, s) => t.append(el('tr', {}, el('td', { text: `#${s}` }), el('td', { class: 'num', text: String(e.first_example) }), el('td', { class: 'num', text: String(e.accepted) }), el('td', { class: 'num', text: String(e.guards.length) }), el('td', {}, el('pre', { text: splitGuards(g, s).join('\n') || '(first)' })))));
  panel.append(t);
}

// Example index against the cache entry that served it. Under the compile policy
// (g.compile_policy: verdict -1 rejected, -2 past the recompile limit) entries are
// torch.compile's recompiles; otherwise the export-policy specialisations of the results.
function renderTimeline(g, panel) {
  const limit = DATA.recompile_limit;
  const cp = g.compile_policy;
  const verdicts = cp ? cp.verdicts.map((s, e) => ({ example: e, specialization: s })) : g.verdicts;
  const specs = cp ? cp.specializations.length : (g.specializations || []).length;
  const box = chartBox('small');
  panel.append(box);
  const served = verdicts.filter((v) => v.specialization >= 0).map((v) => [v.example, v.specialization]);
  const refused = verdicts.filter((v) => v.specialization === -1 || (!cp && v.specialization < 0)).map((v) => [v.example, -1]);
  const eager = cp ? verdicts.filter((v) => v.specialization === -2).map((v) => [v.example, limit]) : [];
  if (cp) {
    const t = el('table', { class: 'spec-table' }, el('tr', {}, el('th', { text: 'entry' }), el('th', { class: 'num', text: 'first example' }), el('th', { class: 'num', text: 'examples' }), el('th', { text: 'dynamic dims' }), el('th', { text: 'triggered by' })));
    cp.specializations.forEach((e, s) => t.append(el('tr', {}, el('td', { text: `#${s}` }), el('td', { class: 'num', text: String(e.first_example) }), el('td', { class: 'num', text: String(e.accepted) }), el('td', { text: e.dynamic_dims.join(', ') || '(all static)' }), el('td', {}, el('pre', { text: e.triggered_by.map((x) => `- ${x}`).join('\n') || '(first compile)' })))));
    panel.append(t);
    if (cp.uncompiled) panel.append(el('p', { text: `${cp.uncompiled} example(s) past the recompile limit run uncompiled (drawn on the limit line).` }));
  }
  draw(box, 'timeline', {
    grid: { left: 60, right: 140, top: 30, bottom: 40 }, legend: { top: 0 },
    tooltip: { formatter: (p) => `example ${p.data[0]}: ${p.data[1] < 0 ? 'rejected' : `specialisation #${p.data[1]}`}` },
    xAxis: { type: 'value', name: 'example', nameLocation: 'middle', nameGap: 24, minInterval: 1 },
    yAxis: { type: 'value', name: 'specialisation', min: -1, max: Math.max(specs, limit) , minInterval: 1 },
    series: [
      { name: 'served by', type: 'line', step: 'end', symbolSize: 7, data: served, lineStyle: { color: '#8250df' }, itemStyle: { color: '#8250df' },
        markLine: { symbol: 'none', lineStyle: { color: '#cf222e', type: 'dashed' }, label: { formatter: `recompile limit (${limit})`, position: 'end' }, data: [{ yAxis: limit }] } },
      { name: 'rejected', type: 'scatter', symbol: 'diamond', symbolSize: 9, data: refused, itemStyle: { color: '#cf222e' } },
    ].concat(eager.length ? [{ name: 'uncompiled', type: 'scatter', symbol: 'triangle', symbolSize: 9, data: eager, itemStyle: { color: '#6e7781' } }] : []),
  });
}

// ---------------------------------------------------------------- self check
function selfCheck() {
  GRAPHS.forEach((_, i) => openGraph(i));
  // A chart drew when its SVG has a real size and marks in it (axes alone are a few paths).
  const empty = charts.filter((c) => {
    const svg = c.el.querySelector('svg');
    return !svg || svg.getBoundingClientRect().width < 50 || svg.getBoundingClientRect().height < 50 ||
      svg.querySelectorAll('path,rect').length < 3;
  });
  const node = document.getElementById('selfcheck');
  node.setAttribute('data-charts', String(charts.length));
  node.setAttribute('data-sections', String(opened.size));
  const problems = errors.concat(empty.map((c) => `empty chart ${c.name} in ${c.el.closest('[data-graph]') ? c.el.closest('[data-graph]').id : 'overview'}`));
  node.setAttribute('data-status', problems.length ? 'fail' : 'ok');
  node.textContent = problems.join('\n');
  window.scrollTo(0, 0);
}

const started = performance.now();
renderOverview();
renderTable();
// Render time of the overview and table, and time since navigation start (parsing included).
document.getElementById('selfcheck').setAttribute('data-render-ms', (performance.now() - started).toFixed(1));
document.getElementById('selfcheck').setAttribute('data-page-ms', performance.now().toFixed(1));
if (location.hash.includes('selftest')) selfCheck();
else if (location.hash.startsWith('#graph=')) {  // a link to one graph: its section alone
  document.body.classList.add('focus');
  openGraph(Number(location.hash.slice(7)));
}
