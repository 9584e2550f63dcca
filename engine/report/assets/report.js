// symshape report: reads the embedded summary (one JSON block, a row per graph), draws the
// corpus overview and its distributions, fills the graph table a page at a time (filtered
// by library / family / status / name, sorted by any column) and renders a graph's section
// only when it is opened, from that graph's own JSON block (parsed then, not at load).
// All charts are Apache ECharts (vendored, inlined above). The table's state lives in the
// URL hash (`#library=timm&family=resnet&sort=nodes&dir=desc&page=2`); `#graph=N` shows
// graph N alone; `#selftest` renders every graph's section (`&sections=K`: the first K rows
// of the table), exercises the filters, sorting and paging, and writes the outcome into
// #selfcheck (used by the headless tests).
'use strict';
const SCRIPT_START = performance.now();  // navigation start -> HTML, ECharts and the graph blocks parsed
const DATA = JSON.parse(document.getElementById('report-data').textContent);
const GRAPHS = DATA.graphs;
const charts = [];  // every chart drawn: {el, chart, name}
const errors = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));
const HASH = new URLSearchParams(location.hash.slice(1));

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
function totalNs(g) { return g.time_ns[0] + g.time_ns[1] + g.time_ns[2]; }
const fmtInt = (n) => n.toLocaleString('en-US');

// ---------------------------------------------------------------- overview
function renderOverview() {
  document.getElementById('producer').textContent = DATA.producer || '';
  const sum = (f) => GRAPHS.reduce((a, g) => a + f(g), 0);
  const totals = [
    ['graphs', GRAPHS.length, 'total-graphs'],
    ['nodes', sum((g) => g.nodes), 'total-nodes'],
    ['examples', sum((g) => g.examples), 'total-examples'],
    ['failed graphs', GRAPHS.filter((g) => g.status !== 'ok').length, 'total-failed'],
    ['specialisations', sum((g) => g.specializations), 'total-specializations'],
    ['rejected examples', sum((g) => g.rejected), 'total-rejected'],
    ['verdict mismatches', sum((g) => g.mismatches), 'total-mismatches'],
  ];
  const box = document.getElementById('totals');
  for (const [label, value, id] of totals) box.append(el('div', { id }, el('b', { text: String(value) }), el('span', { text: label })));

  if (GRAPHS.length === 0) {  // nothing to chart: every panel says so
    for (const id of ['chart-status', 'chart-verdicts', 'chart-libraries', 'chart-time'])
      document.getElementById(id).replaceWith(el('p', { class: 'missing', id, text: 'No graphs in these results.' }));
    renderDistributions();
    renderOps();
    return;
  }
  const byStatus = {};
  for (const g of GRAPHS) byStatus[g.status] = (byStatus[g.status] || 0) + 1;
  const statusNames = Object.keys(byStatus).sort();
  draw(document.getElementById('chart-status'), 'status', {
    grid: { left: 130, right: 40, top: 10, bottom: 30 }, tooltip: {},
    xAxis: { type: 'value', minInterval: 1 }, yAxis: { type: 'category', data: statusNames },
    series: [{ type: 'bar', data: statusNames.map((s) => ({ value: byStatus[s], itemStyle: { color: s === 'ok' ? '#2da44e' : '#cf222e' } })), label: { show: true, position: 'right' } }],
  });

  const verdictCounts = { accepted: sum((g) => g.accepted), rejected: sum((g) => g.rejected), 'mismatch vs PyTorch': sum((g) => g.mismatches) };
  const vNames = Object.keys(verdictCounts);
  draw(document.getElementById('chart-verdicts'), 'verdicts', {
    grid: { left: 150, right: 50, top: 10, bottom: 30 }, tooltip: {},
    xAxis: { type: 'value', minInterval: 1, splitNumber: 4, axisLabel: { hideOverlap: true } }, yAxis: { type: 'category', data: vNames },
    series: [{ type: 'bar', data: vNames.map((n) => verdictCounts[n]), label: { show: true, position: 'right' }, itemStyle: { color: '#0969da' } }],
  });

  renderLibraries();
  renderDistributions();
  renderOps();

  const timed = [];
  GRAPHS.forEach((g, i) => { if (totalNs(g) > 0) timed.push(i); });
  const timeBox = document.getElementById('chart-time');
  if (timed.length === 0) {
    timeBox.replaceWith(el('p', { class: 'missing', text: 'No timings in these results (written with --no-timing).' }));
  } else {
    draw(timeBox, 'time', {
      grid: { left: 70, right: 30, top: 30, bottom: 50 },
      legend: { top: 0 },
      tooltip: { formatter: (p) => `${GRAPHS[p.data[2]].name}<br>${p.data[0]} nodes<br>${p.seriesName}: ${p.data[1].toFixed(3)} ms` },
      xAxis: { type: 'value', name: 'nodes', nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'log', name: 'ms', minorSplitLine: { show: false } },
      // A phase no graph spent time in (e.g. compilation folded into evaluation) is left out.
      // Thousands of graphs: drawn as one path per series (large mode), in one go.
      series: [['propagation', 0, '#0969da'], ['guard compilation', 1, '#bf8700'], ['evaluation', 2, '#8250df']].map(([label, k, color]) => ({
        name: label, type: 'scatter', symbolSize: 7, itemStyle: { color, opacity: 0.65 }, large: true, largeThreshold: 2000, progressive: 0,
        data: timed.filter((i) => GRAPHS[i].time_ns[k] > 0).map((i) => [GRAPHS[i].nodes, ms(GRAPHS[i].time_ns[k]), i]),
      })).filter((s) => s.data.length > 0),
    });
  }
}

// Graphs per library, ok and failed stacked; a click on a bar filters the table by it.
function renderLibraries() {
  const ok = new Map(), failed = new Map();
  for (const g of GRAPHS) (g.status === 'ok' ? ok : failed).set(g.library, ((g.status === 'ok' ? ok : failed).get(g.library) || 0) + 1);
  const libs = [...new Set(GRAPHS.map((g) => g.library))].sort((a, b) => ((ok.get(b) || 0) + (failed.get(b) || 0)) - ((ok.get(a) || 0) + (failed.get(a) || 0)) || (a < b ? -1 : 1)).slice(0, 20).reverse();
  const box = document.getElementById('chart-libraries');
  box.style.height = `${Math.max(160, 60 + 26 * libs.length)}px`;
  const chart = draw(box, 'libraries', {
    grid: { left: 130, right: 50, top: 26, bottom: 30 }, tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } }, legend: { top: 0 },
    xAxis: { type: 'value', minInterval: 1 }, yAxis: { type: 'category', data: libs },
    series: [['ok', ok, '#2da44e'], ['failed', failed, '#cf222e']].map(([name, m, color]) => ({ name, type: 'bar', stack: 'graphs', itemStyle: { color }, data: libs.map((l) => m.get(l) || 0) })),
  });
  chart.on('click', (p) => { setState({ library: p.name, family: '', page: 0 }); document.getElementById('graphs').scrollIntoView(); });
}

// Integer values -> histogram bins: one bin per value when they span at most 30, else
// bins of a width 1, 2 or 5 x 10^k giving at most 30 bins. Each bin is [lo, hi].
function histogram(values) {
  if (values.length === 0) return [];
  let lo = Infinity, hi = -Infinity;
  for (const v of values) { if (v < lo) lo = v; if (v > hi) hi = v; }
  let width = 1;
  for (let k = 1; hi - lo + 1 > 30 * width; k *= 10) {
    width = [1, 2, 5, 10].map((m) => m * k).find((w) => (hi - lo + 1) <= 30 * w) || 10 * k;
  }
  const start = Math.floor(lo / width) * width;
  const bins = [];
  for (let b = start; b <= hi; b += width) bins.push({ lo: b, hi: b + width - 1, count: 0 });
  for (const v of values) bins[Math.floor((v - start) / width)].count++;
  return bins;
}
const DISTRIBUTIONS = [
  // [key, title, value of a graph, which graphs]
  ['nodes', 'Nodes per graph', (g) => g.nodes, (g) => g.status !== 'load_error', 'graphs that loaded'],
  ['dynamic', 'Dynamic dims per graph', (g) => g.dynamic_dims, (g) => g.status === 'ok' && g.dynamic_dims !== undefined, 'ok graphs with their graph file'],
  ['guards', 'Guards per graph', (g) => g.guards, (g) => g.status === 'ok', 'ok graphs'],
  ['specializations', 'Specialisations per graph', (g) => g.specializations, (g) => g.status === 'ok', 'ok graphs'],
];
function renderDistributions() {
  for (const [key, title, value, which, whichText] of DISTRIBUTIONS) {
    const values = GRAPHS.filter(which).map(value);
    const box = document.getElementById(`chart-dist-${key}`);
    document.getElementById(`title-dist-${key}`).replaceChildren(title, ' ', el('span', { class: 'hint', text: `(${fmtInt(values.length)} ${whichText})` }));
    const bins = histogram(values);
    box.setAttribute('data-bins', bins.map((b) => `${b.lo}-${b.hi}:${b.count}`).join(' '));
    if (bins.length === 0) {
      box.replaceWith(el('p', { class: 'missing', id: `chart-dist-${key}`, 'data-bins': '', text: key === 'dynamic' ? 'No graph files given (graph paths or --examples-dir): the spec of each graph is unknown.' : 'No graph to count.' }));
      continue;
    }
    const label = (b) => b.lo === b.hi ? String(b.lo) : `${b.lo}–${b.hi}`;
    draw(box, `distribution ${key}`, {
      grid: { left: 50, right: 20, top: 14, bottom: 40 },
      tooltip: { formatter: (p) => `${p.name}: ${fmtInt(p.value)} graph${p.value === 1 ? '' : 's'}` },
      xAxis: { type: 'category', data: bins.map(label), axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', name: 'graphs', minInterval: 1 },
      series: [{ type: 'bar', barCategoryGap: '8%', data: bins.map((b) => b.count), itemStyle: { color: '#0969da' } }],
    });
  }
}

// The op each unsupported graph stopped at, ranked by graphs blocked: the top 20 as bars,
// every op in the list beside them (with the libraries of the graphs it blocks).
function renderOps() {
  const blocked = new Map();
  for (const g of GRAPHS) {
    if (g.status !== 'unsupported') continue;
    const e = blocked.get(g.blocked_by) || { count: 0, libs: new Map() };
    e.count++;
    e.libs.set(g.library, (e.libs.get(g.library) || 0) + 1);
    blocked.set(g.blocked_by, e);
  }
  const ops = [...blocked.keys()].sort((a, b) => blocked.get(b).count - blocked.get(a).count || (a < b ? -1 : 1));
  const opsBox = document.getElementById('chart-ops');
  const list = document.getElementById('ops-list');
  if (ops.length === 0) {
    opsBox.replaceWith(el('p', { class: 'missing', id: 'chart-ops', text: 'Every op of every graph is supported.' }));
    return;
  }
  const top = ops.slice(0, 20).reverse();
  opsBox.style.height = `${Math.max(160, 50 + 22 * top.length)}px`;
  draw(opsBox, 'ops', {
    grid: { left: 230, right: 40, top: 10, bottom: 30 }, tooltip: {},
    xAxis: { type: 'value', minInterval: 1, name: 'graphs' }, yAxis: { type: 'category', data: top },
    series: [{ type: 'bar', data: top.map((o) => blocked.get(o).count), itemStyle: { color: '#cf222e' }, label: { show: true, position: 'right' } }],
  });
  const t = el('table', { id: 'ops-table' }, el('tr', {}, el('th', { text: 'op' }), el('th', { class: 'num', text: 'graphs blocked' }), el('th', { text: 'by library' })));
  for (const o of ops) {
    const e = blocked.get(o);
    const libs = [...e.libs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([l, n]) => `${l} ${n}`).join(', ');
    t.append(el('tr', { 'data-op': o }, el('td', { text: o }), el('td', { class: 'num', text: String(e.count) }), el('td', { text: libs })));
  }
  list.append(t);
}

// ---------------------------------------------------------------- graph table
// [key, header, value of a graph, numeric]
const COLUMNS = [
  ['name', 'graph', (g) => g.name, false],
  ['library', 'library', (g) => g.library, false],
  ['family', 'family', (g) => g.family, false],
  ['status', 'status', (g) => g.status, false],
  ['nodes', 'nodes', (g) => g.nodes, true],
  ['examples', 'examples', (g) => g.examples, true],
  ['specializations', 'specialisations', (g) => g.specializations, true],
  ['rejected', 'rejected', (g) => g.rejected, true],
  ['guards', 'guards', (g) => g.guards, true],
  ['dynamic', 'dynamic dims', (g) => g.dynamic_dims === undefined ? -1 : g.dynamic_dims, true],
  ['time', 'time (ms)', (g) => ms(totalNs(g)), true],
];
// Every column's values, computed once: sorting 10,000 rows compares these.
const VALUES = COLUMNS.map(([, , get, numeric]) => numeric ? Float64Array.from(GRAPHS, get) : GRAPHS.map(get));
const LOWER_NAMES = GRAPHS.map((g) => g.name.toLowerCase());
const state = { library: '', family: '', status: '', query: '', sort: 'name', dir: 1, page: 0, size: 50 };
let shown = [];  // the graph indices matching the filters, in sort order

function optionsOf(select, counts, current) {
  const keys = [...counts.keys()].sort();
  select.replaceChildren(el('option', { value: '', text: `all (${fmtInt([...counts.values()].reduce((a, b) => a + b, 0))})` }),
    ...keys.map((k) => el('option', { value: k, text: `${k} (${fmtInt(counts.get(k))})` })));
  select.value = counts.has(current) ? current : '';
}
function countBy(key, keep) {
  const m = new Map();
  for (const g of GRAPHS) if (keep(g)) m.set(g[key], (m.get(g[key]) || 0) + 1);
  return m;
}

function renderTable() {
  const tr = el('tr');
  COLUMNS.forEach(([key, label, , numeric]) => {
    const th = el('th', { class: numeric ? 'num' : '', 'data-col': key, text: label });
    th.addEventListener('click', () => setState({ sort: key, dir: state.sort === key ? -state.dir : 1, page: 0 }));
    tr.append(th);
  });
  document.querySelector('#graph-table thead').append(tr);
  document.getElementById('filter-library').addEventListener('change', (e) => setState({ library: e.target.value, page: 0 }));
  document.getElementById('filter-family').addEventListener('change', (e) => setState({ family: e.target.value, page: 0 }));
  document.getElementById('filter-status').addEventListener('change', (e) => setState({ status: e.target.value, page: 0 }));
  document.getElementById('filter').addEventListener('input', (e) => setState({ query: e.target.value, page: 0 }));
  document.getElementById('page-size').addEventListener('change', (e) => setState({ size: Number(e.target.value), page: 0 }));
  setState(stateFromHash(), false);
}

function stateFromHash() {
  const s = {};
  for (const k of ['library', 'family', 'status']) if (HASH.has(k)) s[k] = HASH.get(k);
  if (HASH.has('q')) s.query = HASH.get('q');
  if (HASH.has('sort') && COLUMNS.some((c) => c[0] === HASH.get('sort'))) s.sort = HASH.get('sort');
  if (HASH.has('dir')) s.dir = HASH.get('dir') === 'desc' ? -1 : 1;
  if (HASH.has('page')) s.page = Math.max(0, (parseInt(HASH.get('page'), 10) || 1) - 1);
  if (HASH.has('size')) s.size = Math.max(1, parseInt(HASH.get('size'), 10) || 50);
  return s;
}
// The table's state into the URL hash (shareable), keeping the other keys (graph, selftest).
function writeHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const put = (k, v, dflt) => { if (v === dflt) h.delete(k); else h.set(k, String(v)); };
  put('library', state.library, ''); put('family', state.family, ''); put('status', state.status, ''); put('q', state.query, '');
  put('sort', state.sort, 'name'); put('dir', state.dir < 0 ? 'desc' : 'asc', 'asc'); put('page', state.page + 1, 1); put('size', state.size, 50);
  const text = h.toString().replace(/=(&|$)/g, '$1');
  history.replaceState(null, '', text ? `#${text}` : location.pathname + location.search);
}

function setState(change, toHash = true) {
  Object.assign(state, change);
  // The selects show the libraries, the families of the chosen library and the statuses of
  // the chosen library and family, each with its number of graphs.
  const lib = (g) => !state.library || g.library === state.library;
  optionsOf(document.getElementById('filter-library'), countBy('library', () => true), state.library);
  state.library = document.getElementById('filter-library').value;
  optionsOf(document.getElementById('filter-family'), countBy('family', lib), state.family);
  state.family = document.getElementById('filter-family').value;
  optionsOf(document.getElementById('filter-status'), countBy('status', (g) => lib(g) && (!state.family || g.family === state.family)), state.status);
  state.status = document.getElementById('filter-status').value;
  document.getElementById('filter').value = state.query;
  const sizeSelect = document.getElementById('page-size');
  if (![...sizeSelect.options].some((o) => Number(o.value) === state.size)) sizeSelect.append(el('option', { text: String(state.size) }));
  sizeSelect.value = String(state.size);

  const needle = state.query.toLowerCase();
  shown = [];
  for (let i = 0; i < GRAPHS.length; ++i) {
    const g = GRAPHS[i];
    if ((state.library && g.library !== state.library) || (state.family && g.family !== state.family) ||
        (state.status && g.status !== state.status) || (needle && !LOWER_NAMES[i].includes(needle))) continue;
    shown.push(i);
  }
  const c = Math.max(0, COLUMNS.findIndex((col) => col[0] === state.sort));
  const v = VALUES[c], dir = state.dir;
  shown.sort((a, b) => (v[a] < v[b] ? -1 : v[a] > v[b] ? 1 : a - b) * dir);
  const pages = Math.max(1, Math.ceil(shown.length / state.size));
  state.page = Math.min(Math.max(0, state.page), pages - 1);
  fillTable(c, pages);
  if (toHash) writeHash();
}

function fillTable(sortCol, pages) {
  const table = document.getElementById('graph-table');
  const attrs = { total: GRAPHS.length, matching: shown.length, page: state.page, 'page-size': state.size, sort: state.sort,
    dir: state.dir > 0 ? 'asc' : 'desc', library: state.library, family: state.family, status: state.status, query: state.query };
  for (const [k, v] of Object.entries(attrs)) table.setAttribute(`data-${k}`, String(v));
  document.querySelectorAll('#graph-table th').forEach((th, i) => th.className = (COLUMNS[i][3] ? 'num ' : '') + (i === sortCol ? (state.dir > 0 ? 'sorted-asc' : 'sorted-desc') : ''));
  const body = table.tBodies[0];
  const frag = document.createDocumentFragment();
  const first = state.page * state.size;
  for (const i of shown.slice(first, first + state.size)) {
    const g = GRAPHS[i];
    const tr = el('tr', { 'data-graph': String(i) });
    COLUMNS.forEach(([key, , get, numeric]) => {
      const v = get(g);
      const td = el('td', { class: numeric ? 'num' : (key === 'status' ? (v === 'ok' ? 'status-ok' : 'status-bad') : ''), 'data-col': key });
      td.textContent = key === 'time' ? v.toFixed(3) : key === 'dynamic' && v < 0 ? '–' : String(v);
      if (key === 'name') td.title = g.file;
      tr.append(td);
    });
    frag.append(tr);
  }
  body.replaceChildren(frag);
  const last = Math.min(first + state.size, shown.length);
  for (const id of ['pager', 'pager-bottom']) {
    const box = document.getElementById(id);
    const button = (text, page, title) => {
      const b = el('button', { text, title, 'data-page': String(page) });
      b.disabled = page === state.page || page < 0 || page >= pages;
      b.addEventListener('click', () => setState({ page }));
      return b;
    };
    box.replaceChildren(button('«', 0, 'first page'), button('‹', state.page - 1, 'previous page'),
      el('span', { class: 'count', text: shown.length ? `${fmtInt(first + 1)}–${fmtInt(last)} of ${fmtInt(shown.length)}${shown.length < GRAPHS.length ? ` (of ${fmtInt(GRAPHS.length)} graphs)` : ''} · page ${state.page + 1} of ${pages}` : `no graph matches (of ${fmtInt(GRAPHS.length)})` }),
      button('›', state.page + 1, 'next page'), button('»', pages - 1, 'last page'));
  }
}

// ---------------------------------------------------------------- one graph
const opened = new Map();  // graph index -> its section
function openGraph(i) {
  if (!opened.has(i)) {
    // Attached before drawing: a chart sizes itself from its container's layout.
    const section = el('section', { class: 'graph', id: `graph-${i}`, 'data-graph': String(i) });
    document.getElementById('details').prepend(section);
    renderGraph(graphDetail(i), section);
    opened.set(i, section);
  }
  opened.get(i).scrollIntoView({ block: 'start' });
}
document.querySelector('#graph-table tbody').addEventListener('click', (e) => {
  const tr = e.target.closest('tr[data-graph]');
  if (tr) openGraph(Number(tr.getAttribute('data-graph')));
});

// Graph i's summary row and its own JSON block (report_data.h) as one object: guard
// indices back to their text, the verdict columns back to {example, specialization}.
function graphDetail(i) {
  const d = JSON.parse(document.getElementById(`graph-data-${i}`).textContent);
  const text = d.guard_text;
  const g = Object.assign({}, GRAPHS[i], d);
  g.guards = d.guards.map((k) => text[k]);
  g.specializations = d.specializations.map((e) => Object.assign({}, e, { guards: e.guards.map((k) => text[k]) }));
  g.verdicts = d.verdict_example.map((example, k) => ({ example, specialization: d.verdict_spec[k] }));
  return g;
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
  sec.append(el('div', { class: 'meta', text: `${g.file} · ${g.library} / ${g.family} · ${g.status} · ${g.nodes} nodes · ${g.examples} examples · hints from ${g.hints_from || '?'}: ${(g.hints || []).join(', ')}` }));
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
  const bad = g.failed_examples;
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
// The table driven as a person would (select a library, a family; click a header; page
// on), each outcome compared with the summary; then the state of the URL back.
function checkTable() {
  const problems = [];
  if (GRAPHS.length === 0) return problems;
  const rows = () => [...document.querySelectorAll('#graph-table tbody tr')].map((tr) => Number(tr.getAttribute('data-graph')));
  const choose = (id, value) => { const s = document.getElementById(id); s.value = value; s.dispatchEvent(new Event('change')); };
  const expectRows = (what, keep) => {
    const want = GRAPHS.filter(keep).length;
    const got = rows();
    if (shown.length !== want) problems.push(`${what}: ${shown.length} graphs match, the summary has ${want}`);
    if (got.length !== Math.min(want, state.size)) problems.push(`${what}: ${got.length} rows on the first page`);
    if (!got.every((i) => keep(GRAPHS[i]))) problems.push(`${what}: a row outside the filter`);
  };
  setState({ library: '', family: '', status: '', query: '', sort: 'name', dir: 1, page: 0, size: 50 }, false);
  const libs = [...new Set(GRAPHS.map((g) => g.library))].sort();
  const lib = libs[libs.length > 1 ? 1 : 0];
  choose('filter-library', lib);
  expectRows(`library ${lib}`, (g) => g.library === lib);
  if (libs.length > 1 && shown.length >= GRAPHS.length) problems.push(`library ${lib}: the filter kept every graph`);
  const fam = GRAPHS[shown[0]].family;
  choose('filter-family', fam);
  expectRows(`library ${lib}, family ${fam}`, (g) => g.library === lib && g.family === fam);
  choose('filter-library', '');
  expectRows(`family ${fam}`, (g) => g.family === fam);
  choose('filter-family', '');
  expectRows('no filter', () => true);
  const nodesHeader = document.querySelector('#graph-table th[data-col="nodes"]');
  nodesHeader.click();
  nodesHeader.click();
  const desc = rows().map((i) => GRAPHS[i].nodes);
  const most = Math.max(...GRAPHS.map((g) => g.nodes));
  if (state.dir !== -1 || desc[0] !== most || desc.some((v, k) => k > 0 && v > desc[k - 1])) problems.push(`sort by nodes, descending: ${desc.slice(0, 5)}`);
  if (GRAPHS.length > state.size) {
    const firstPage = rows();
    document.querySelector('#pager button[title="next page"]').click();
    const second = rows();
    if (state.page !== 1 || second.length === 0 || second.some((i) => firstPage.includes(i)) || GRAPHS[second[0]].nodes > desc[desc.length - 1])
      problems.push('the next page does not continue the sort');
    if (document.querySelectorAll('#graph-table tbody tr').length > state.size) problems.push('more rows than a page');
  }
  setState(Object.assign({ library: '', family: '', status: '', query: '', sort: 'name', dir: 1, page: 0, size: 50 }, stateFromHash()));
  return problems;
}

function selfCheck() {
  const problems = checkTable();
  const limit = HASH.has('sections') ? Number(HASH.get('sections')) : GRAPHS.length;
  shown.slice(0, limit).forEach((i) => openGraph(i));
  if (limit >= GRAPHS.length) GRAPHS.forEach((_, i) => openGraph(i));
  // A chart drew when its SVG has a real size and marks in it (axes alone are a few paths).
  const empty = charts.filter((c) => {
    const svg = c.el.querySelector('svg');
    return !svg || svg.getBoundingClientRect().width < 50 || svg.getBoundingClientRect().height < 50 ||
      svg.querySelectorAll('path,rect').length < 3;
  });
  const node = document.getElementById('selfcheck');
  node.setAttribute('data-charts', String(charts.length));
  node.setAttribute('data-sections', String(opened.size));
  problems.push(...errors, ...empty.map((c) => `empty chart ${c.name} in ${c.el.closest('[data-graph]') ? c.el.closest('[data-graph]').id : 'overview'}`));
  node.setAttribute('data-status', problems.length ? 'fail' : 'ok');
  node.textContent = problems.join('\n');
  window.scrollTo(0, 0);
}

const started = performance.now();
renderOverview();
renderTable();
// Render time of the overview and table, and time since navigation start (HTML and data
// parsing included) to the page laid out with its table: the load time docs/report.md gives.
void document.body.getBoundingClientRect().height;
const check = document.getElementById('selfcheck');
check.setAttribute('data-script-ms', SCRIPT_START.toFixed(1));
check.setAttribute('data-render-ms', (performance.now() - started).toFixed(1));
check.setAttribute('data-page-ms', performance.now().toFixed(1));
requestAnimationFrame(() => setTimeout(() => check.setAttribute('data-frame-ms', performance.now().toFixed(1))));
if (HASH.has('selftest')) selfCheck();
else if (HASH.has('graph')) {  // a link to one graph: its section alone
  document.body.classList.add('focus');
  openGraph(Number(HASH.get('graph')));
}
