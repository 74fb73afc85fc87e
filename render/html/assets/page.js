// egprof's HTML page. Plain DOM, canvas and SVG code written for this page,
// no library: a table that renders only the rows in view, an icicle chart on
// a canvas and a layered call graph in SVG are each smaller here than any
// library that does them, and need no build step. Every number shown comes
// formatted from egprof (as its text report prints it); this script sorts,
// filters and draws.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('egprof-data').textContent);
  var names = D.names;
  var ROW = 22; // px: the height of a table row (page.css)

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  // matcher returns a test of names for a search box's text: a substring,
  // any case, or a regular expression between slashes.
  function matcher(q) {
    q = q.trim();
    if (!q) return null;
    if (q.length > 2 && q[0] === '/' && q[q.length - 1] === '/') {
      try { var re = new RegExp(q.slice(1, -1), 'i'); return function (s) { return re.test(s); }; } catch (e) { return function () { return false; }; }
    }
    q = q.toLowerCase();
    return function (s) { return s.toLowerCase().indexOf(q) >= 0; };
  }
  function fmtSec(ns) { return (ns / 1e9).toFixed(2); }
  function pct(v, total) { return total > 0 ? (100 * v / total).toFixed(1) + '%' : ''; }

  // ---- header and tabs ----
  var header = el('header');
  header.appendChild(el('h1', { text: D.title }));
  var facts = el('div', { cls: 'facts' });
  D.sides.forEach(function (s) {
    var label = s.sign ? "'" + s.sign + "' side" : 'executable';
    facts.appendChild(el('span', { text: label }));
    facts.appendChild(el('span', null, [el('code', { text: s.exe }), '  (' + s.seconds + ' s at ' + s.hz + ' samples/s)']));
    facts.appendChild(el('span', { text: s.count === 1 ? 'profile' : s.count + ' profiles' }));
    // The first profiles and the last (egprof sends no more).
    var shown = s.count > s.files.length ? s.files.slice(0, -1).join(' ') + ' ... ' + s.files[s.files.length - 1] : s.files.join(' ');
    facts.appendChild(el('span', null, [el('code', { text: shown })]));
  });
  if (D.experiment) {
    var X0 = D.experiment;
    if (X0.exe) { facts.appendChild(el('span', { text: 'executable' })); facts.appendChild(el('span', null, [el('code', { text: X0.exe })])); }
    facts.appendChild(el('span', { text: X0.exe ? (X0.count === 1 ? 'run' : X0.count + ' runs') : (X0.count === 1 ? 'experiment' : X0.count + ' experiments') }));
    var shownX = X0.count > X0.inputs.length ? X0.inputs.slice(0, -1).join(' ') + ' ... ' + X0.inputs[X0.inputs.length - 1] : X0.inputs.join(' ');
    facts.appendChild(el('span', null, [el('code', { text: shownX })]));
  }
  if (D.impact && D.impact.scaling) { facts.appendChild(el('span', { text: 'compared' })); facts.appendChild(el('span', { text: D.impact.scaling })); }
  facts.appendChild(el('span', { text: 'command' }));
  facts.appendChild(el('span', null, [el('code', { text: D.command })]));
  header.appendChild(facts);
  document.body.appendChild(header);
  var nav = el('nav', { role: 'tablist' });
  document.body.appendChild(nav);
  var main = el('main');
  document.body.appendChild(main);
  var tabs = {};
  function addTab(key, label, build) {
    var sec = el('section', { id: 'tab-' + key, hidden: '' });
    main.appendChild(sec);
    var b = el('button', { role: 'tab', 'aria-selected': 'false', id: 'tabbtn-' + key, text: label, onclick: function () { showTab(key, true); } });
    nav.appendChild(b);
    tabs[key] = { sec: sec, btn: b, build: build, built: false, shown: null };
  }
  var current = null;
  function showTab(key, push) {
    var t = tabs[key];
    if (!t) return;
    for (var k in tabs) { tabs[k].sec.hidden = k !== key; tabs[k].btn.setAttribute('aria-selected', String(k === key)); }
    if (!t.built) { t.built = true; t.build(t.sec, t); }
    current = key;
    if (t.shown) t.shown();
    if (push && location.hash.slice(1).split('=')[0] !== key) history.replaceState(null, '', '#' + key);
  }

  // ---- a table that renders only the rows in view ----
  // cols: {title, cls, get(row) -> text, num (sort numerically), render(td, row) optional}
  function VTable(parent, cols, rows, opt) {
    var self = this;
    this.cols = cols; this.rows = rows; this.view = rows.map(function (_, i) { return i; });
    this.sortCol = -1; this.sortDir = 1;
    var bar = el('div', { cls: 'bar' });
    this.input = el('input', { type: 'search', placeholder: opt.placeholder || 'filter by name (text, or /regexp/)' });
    this.count = el('span', { cls: 'count' });
    bar.appendChild(this.input); bar.appendChild(this.count);
    if (opt.extra) opt.extra(bar);
    parent.appendChild(bar);
    this.scroll = el('div', { cls: 'scroll' });
    this.table = el('table', { cls: 'vt ' + (opt.cls || '') });
    var cg = el('colgroup');
    cols.forEach(function (c) { cg.appendChild(el('col', { style: c.width ? 'width:' + c.width : '' })); });
    this.table.appendChild(cg);
    var thead = el('thead'), tr = el('tr');
    this.ths = cols.map(function (c, k) {
      var th = el('th', { cls: c.cls || '', title: c.help || '', onclick: function () { self.sortBy(k); } });
      th.textContent = c.title;
      tr.appendChild(th);
      return th;
    });
    thead.appendChild(tr);
    this.table.appendChild(thead);
    this.body = el('tbody');
    this.table.appendChild(this.body);
    this.scroll.appendChild(this.table);
    parent.appendChild(this.scroll);
    this.nameOf = opt.nameOf;
    this.rowCls = opt.rowCls; // a row's classes besides 'row'
    var pending = 0;
    this.scroll.addEventListener('scroll', function () {
      if (pending) return;
      pending = requestAnimationFrame(function () { pending = 0; self.draw(); });
    });
    this.input.addEventListener('input', function () { self.filter(); });
    window.addEventListener('resize', function () { self.draw(); });
    this.keys = [];
    this.filter();
  }
  VTable.prototype.key = function (k) {
    if (!this.keys[k]) {
      var c = this.cols[k];
      this.keys[k] = this.rows.map(function (r) {
        var s = c.get(r);
        if (!c.num) return s;
        var v = parseFloat(s);
        return isNaN(v) ? -Infinity : v;
      });
    }
    return this.keys[k];
  };
  VTable.prototype.filter = function () {
    var m = matcher(this.input.value), rows = this.rows, nameOf = this.nameOf;
    var v = [];
    for (var i = 0; i < rows.length; i++) if (!m || m(nameOf(rows[i]))) v.push(i);
    this.view = v;
    this.applySort();
  };
  VTable.prototype.sortBy = function (k) {
    if (this.sortCol === k) this.sortDir = -this.sortDir;
    else { this.sortCol = k; this.sortDir = this.cols[k].num ? -1 : 1; }
    var self = this;
    this.ths.forEach(function (th, j) { th.classList.remove('sorted-asc', 'sorted-desc'); if (j === k) th.classList.add(self.sortDir < 0 ? 'sorted-desc' : 'sorted-asc'); });
    this.applySort();
  };
  VTable.prototype.applySort = function () {
    if (this.sortCol >= 0) {
      var key = this.key(this.sortCol), dir = this.sortDir;
      // Ties keep the report's order.
      this.view.sort(function (a, b) {
        var x = key[a], y = key[b];
        if (x !== y) return (x < y ? -1 : 1) * dir;
        return a - b;
      });
    }
    this.count.textContent = this.view.length === this.rows.length ? this.rows.length + ' rows' : this.view.length + ' of ' + this.rows.length + ' rows';
    this.scroll.scrollTop = 0;
    this.draw();
  };
  VTable.prototype.draw = function () {
    // The box grows with its rows up to the window's height: draw enough
    // rows to fill the largest it can be.
    var h = Math.max(this.scroll.clientHeight, window.innerHeight || 900);
    var first = Math.max(0, Math.floor(this.scroll.scrollTop / ROW) - 5);
    var last = Math.min(this.view.length, first + Math.ceil(h / ROW) + 10);
    var body = this.body, cols = this.cols;
    body.textContent = '';
    var top = el('tr', { cls: 'spacer' }, [el('td', { colspan: cols.length, style: 'height:' + first * ROW + 'px' })]);
    body.appendChild(top);
    for (var i = first; i < last; i++) {
      var r = this.rows[this.view[i]];
      var tr = el('tr', { cls: this.rowCls ? ('row ' + this.rowCls(r)).trim() : 'row', 'data-row': String(this.view[i]) });
      for (var k = 0; k < cols.length; k++) {
        var c = cols[k], td = el('td', { cls: c.cls || '' });
        if (c.render) c.render(td, r); else td.textContent = c.get(r);
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    body.appendChild(el('tr', { cls: 'spacer' }, [el('td', { colspan: cols.length, style: 'height:' + (this.view.length - last) * ROW + 'px' })]));
  };

  function nameLink(id, onclick) {
    return el('a', { title: names[id], onclick: function (e) { e.preventDefault(); onclick(id); } }, [names[id]]);
  }

  // flatCols are the flat profile's columns of numbers (cells 1 to 6 of a
  // row), unit the per-call columns' unit.
  function flatCols(unit) {
    return [
      { title: '% time', num: true, width: '80px', get: function (r) { return r[1]; } },
      { title: 'cumulative s', num: true, width: '110px', get: function (r) { return r[2]; }, help: 'running sum of self seconds, in the report\'s order' },
      { title: 'self s', num: true, width: '90px', get: function (r) { return r[3]; } },
      { title: 'calls', num: true, width: '100px', get: function (r) { return r[4]; } },
      { title: 'self ' + unit, num: true, width: '110px', get: function (r) { return r[5]; } },
      { title: 'total ' + unit, num: true, width: '110px', get: function (r) { return r[6]; } }
    ];
  }

  // ---- single profile: flat profile ----
  function buildFlat(sec) {
    var f = D.flat;
    sec.appendChild(el('p', { cls: 'note', text: 'Each sample counts as ' + f.sample + ' seconds. Click a column to sort (again to reverse); click a name for its callers and callees.' }));
    var cols = flatCols(f.unit).concat([
      { title: 'name', cls: 'name', get: function (r) { return names[r[0]]; }, render: function (td, r) { td.appendChild(D.cg ? nameLink(r[0], openEntry) : document.createTextNode(names[r[0]])); } }
    ]);
    new VTable(sec, cols, f.rows, { nameOf: function (r) { return names[r[0]]; }, cls: 'flat' });
  }

  // ---- single profile: the line-by-line flat profile (-l) ----
  function buildLines(sec) {
    var f = D.lines;
    sec.appendChild(el('p', { cls: 'note', text: 'The flat profile line by line, as egprof -l prints it: each row is a source line (function (file:line @ address)). Each sample counts as ' + f.sample + ' seconds. Click a column to sort (again to reverse).' }));
    // A line in an annotated file (-A) links to it on the Source tab.
    var cols = flatCols(f.unit).concat([{ title: 'line', cls: 'name', get: function (r) { return r[0]; }, render: function (td, r) {
      if (!(r[7] >= 0 && tabs.source)) { td.textContent = r[0]; return; }
      td.appendChild(el('a', { href: '#source=' + r[7] + ':' + r[8], title: 'show ' + D.source[r[7]].name + ':' + r[8], onclick: function (e) { e.preventDefault(); openSource(r[7], r[8]); } }, [r[0]]));
    } }]);
    new VTable(sec, cols, f.rows, { nameOf: function (r) { return r[0]; }, cls: 'flat lines', placeholder: 'filter by line (text, or /regexp/)' });
  }

  // ---- single profile: annotated source (-A) ----
  // openSource shows line of the k-th annotated file on the Source tab.
  function openSource(k, line) {
    showTab('source', false);
    tabs.source.goto(k, line);
    history.replaceState(null, '', '#source=' + k + ':' + line);
  }
  function buildSource(sec, tab) {
    var files = D.source;
    var pick = el('select', { 'aria-label': 'source file' });
    files.forEach(function (f, k) { pick.appendChild(el('option', { value: String(k), text: f.name })); });
    var label = el('span', { cls: 'count', text: files.length === 1 ? 'file' : 'file (of ' + files.length + ')' });
    sec.appendChild(el('p', { cls: 'note', text: 'Each source line with the execution count egprof -A prints in front of it (blank where it prints none): a function\'s calls on its first line, with -l its basic blocks\' counts; ##### a count below -m\'s.' + (D.lines ? ' self s: the seconds of the Lines tab\'s rows at the line.' : '') + ' Click a column to sort (again to reverse).' }));
    var body = el('div', { cls: 'source' });
    sec.appendChild(body);
    function show(k, line) {
      var f = files[k];
      pick.value = String(k);
      body.textContent = '';
      var rows = f.lines.map(function (l, i) { return [i + 1, l[0], l[1], l[2]]; });
      var cols = [
        { title: 'line', num: true, width: '60px', get: function (r) { return String(r[0]); } },
        { title: 'count', num: true, width: '110px', cls: 'count', get: function (r) { return r[1]; }, help: 'the count egprof -A prints: calls to a function on its first line, else its basic blocks\' counts' }
      ];
      if (D.lines) cols.push({ title: 'self s', num: true, width: '100px', cls: 'secs', get: function (r) { return r[3]; }, help: 'the self seconds of the Lines tab\'s rows at this line (joined by + when there are several; blank for 0.00)' });
      cols.push({ title: 'source', cls: 'code', get: function (r) { return r[2]; } });
      // The file menu goes in the table's bar, after its filter.
      var vt = new VTable(body, cols, rows, { nameOf: function (r) { return r[2]; }, cls: 'src', placeholder: 'filter lines (text, or /regexp/)', extra: function (bar) { bar.appendChild(label); bar.appendChild(pick); },
        rowCls: function (r) { return r[0] === line ? 'hit' : ''; } });
      body.appendChild(el('pre', { cls: 'trailer', text: f.trailer.replace(/^\n+/, '') }));
      // A line asked for shows a few lines below the top.
      if (line > 0) { vt.scroll.scrollTop = Math.max(0, line - 4) * ROW; vt.draw(); }
    }
    pick.addEventListener('change', function () { show(+pick.value); history.replaceState(null, '', '#source=' + pick.value); });
    tab.goto = function (k, line) { if (files[k]) show(k, line); };
    // #source=K opens the K-th file (from 0), #source=K:L at its line L.
    var m = /^#source=(\d+)(?::(\d+))?$/.exec(location.hash);
    if (m && +m[1] < files.length) show(+m[1], m[2] ? +m[2] : 0); else show(0);
  }

  // ---- single profile: call-graph explorer ----
  var cgByID = {}, cgByIndex = {}, cgState = null;
  function entryTag(e) { var idx = e[1]; return (e[8] & 4) ? ' [' + idx + ']' : ' (' + idx + ')'; }
  function openEntry(id) {
    showTab('cg', false);
    cgState.select(id, true);
  }
  function buildCG(sec, tab) {
    var cg = D.cg;
    cg.entries.forEach(function (e) { cgByID[e[0]] = e; cgByIndex[e[1]] = e; });
    var bar = el('div', { cls: 'bar' });
    var picker = el('div', { cls: 'picker' });
    var input = el('input', { type: 'search', placeholder: 'find a function (text, or /regexp/)' });
    var list = el('div', { cls: 'suggest', hidden: '' });
    picker.appendChild(input); picker.appendChild(list);
    bar.appendChild(picker);
    bar.appendChild(el('span', { cls: 'count', text: 'Percentages are of ' + cg.total + ' s. Click a caller or callee to move along the arc; the browser\'s Back returns.' }));
    sec.appendChild(bar);
    var out = el('div', { cls: 'scroll', style: 'min-height:0' });
    sec.appendChild(out);
    var hits = [], on = -1;
    function suggest() {
      var m = matcher(input.value);
      list.textContent = ''; hits = []; on = -1;
      if (!m) { list.hidden = true; return; }
      for (var i = 0; i < cg.entries.length && hits.length < 40; i++) {
        var e = cg.entries[i];
        if (m(names[e[0]])) hits.push(e);
      }
      hits.forEach(function (e, k) {
        list.appendChild(el('div', { onmousedown: function (ev) { ev.preventDefault(); pick(k); } }, [el('span', { cls: 'pct', text: e[2] + '%' }), names[e[0]] + entryTag(e)]));
      });
      list.hidden = hits.length === 0;
    }
    function pick(k) { if (hits[k]) { list.hidden = true; input.value = ''; select(hits[k][0], true); } }
    input.addEventListener('input', suggest);
    input.addEventListener('blur', function () { list.hidden = true; });
    input.addEventListener('keydown', function (ev) {
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        on = Math.max(0, Math.min(hits.length - 1, on + (ev.key === 'ArrowDown' ? 1 : -1)));
        Array.prototype.forEach.call(list.children, function (c, k) { c.classList.toggle('on', k === on); });
      } else if (ev.key === 'Enter') pick(on < 0 ? 0 : on);
    });
    function link(id) {
      var e = cgByID[id];
      var a = nameLink(id, function (x) { select(x, true); });
      var span = el('span', null, [a]);
      if (e && e[7] && !(e[8] & 2)) span.appendChild(document.createTextNode(' <cycle ' + e[7] + '>'));
      if (e) span.appendChild(document.createTextNode(entryTag(e)));
      return span;
    }
    function cell(text, cls) { return el('td', { cls: cls || '', text: text }); }
    function arcRow(kind, arc, other, intra, total) {
      var tr = el('tr', { cls: kind });
      tr.appendChild(cell(kind === 'parent' ? 'caller' : 'callee', 'role'));
      tr.appendChild(cell(''));
      if (intra) { tr.appendChild(cell('')); tr.appendChild(cell('')); tr.appendChild(cell(String(arc[2]))); }
      else { tr.appendChild(cell(arc[3])); tr.appendChild(cell(arc[4])); tr.appendChild(cell(arc[2] + '/' + total)); }
      var td = el('td', { cls: 'name' }); td.appendChild(link(other)); tr.appendChild(td);
      return tr;
    }
    function select(id, push) {
      var e = cgByID[id];
      if (!e) return;
      if (push && location.hash !== '#cg=' + e[1]) history.pushState(null, '', '#cg=' + e[1]);
      out.textContent = '';
      var t = el('table', { cls: 'cg', id: 'cg-entry', 'data-index': String(e[1]) });
      var cgc = el('colgroup');
      ['72px', '72px', '72px', '80px', '130px', 'auto'].forEach(function (w) { cgc.appendChild(el('col', { style: 'width:' + w })); });
      t.appendChild(cgc);
      var head = el('tr');
      ['', 'index', 'self', 'children', 'called', 'name'].forEach(function (h, k) { head.appendChild(el('th', { cls: k === 5 ? 'name' : '', text: h })); });
      head.children[1].textContent = '% time';
      var thead = el('thead'); thead.appendChild(head); t.appendChild(thead);
      var tb = el('tbody');
      var cyc = e[7];
      var called = function (n, s) { return n + s === 0 ? '' : String(n) + (s ? '+' + s : ''); };
      if (e[8] & 2) {
        var tr = el('tr', { cls: 'primary' });
        tr.appendChild(cell('[' + e[1] + ']', 'role')); tr.appendChild(cell(e[2])); tr.appendChild(cell(e[3])); tr.appendChild(cell(e[4]));
        tr.appendChild(cell(called(e[5], e[6])));
        tr.appendChild(el('td', { cls: 'name', text: names[id] + ' [' + e[1] + ']' }));
        tb.appendChild(tr);
        e[12].forEach(function (m) {
          var me = cgByID[m];
          var r = el('tr', { cls: 'child' });
          r.appendChild(cell('member', 'role')); r.appendChild(cell(''));
          r.appendChild(cell(me ? me[3] : '')); r.appendChild(cell(me ? me[4] : '')); r.appendChild(cell(me ? called(me[5], me[6]) : ''));
          var td = el('td', { cls: 'name' }); td.appendChild(link(m)); r.appendChild(td);
          tb.appendChild(r);
        });
      } else {
        var parents = e[10];
        if (parents.length === 0) {
          var sp = el('tr', { cls: 'parent' }); sp.appendChild(cell('', 'role'));
          for (var k = 0; k < 4; k++) sp.appendChild(cell(''));
          sp.appendChild(el('td', { cls: 'name', text: '<spontaneous>' }));
          tb.appendChild(sp);
        }
        parents.forEach(function (a) {
          var arc = cg.arcs[a], p = arc[0], pe = cgByID[p];
          var intra = p === id || (cyc !== 0 && pe && pe[7] === cyc);
          tb.appendChild(arcRow('parent', arc, p, intra, e[9]));
        });
        var pr = el('tr', { cls: 'primary' });
        pr.appendChild(cell('[' + e[1] + ']', 'role')); pr.appendChild(cell(e[2])); pr.appendChild(cell(e[3])); pr.appendChild(cell(e[4]));
        pr.appendChild(cell(called(e[5], e[6])));
        var ntd = el('td', { cls: 'name' }); ntd.appendChild(document.createTextNode(names[id]));
        if (cyc) {
          ntd.appendChild(document.createTextNode(' '));
          var ce = null;
          for (var j = 0; j < cg.entries.length; j++) if ((cg.entries[j][8] & 2) && cg.entries[j][7] === cyc) { ce = cg.entries[j]; break; }
          if (ce) ntd.appendChild(nameLink(ce[0], function (x) { select(x, true); })).textContent = '<cycle ' + cyc + '>';
          else ntd.appendChild(document.createTextNode('<cycle ' + cyc + '>'));
        }
        ntd.appendChild(document.createTextNode(entryTag(e)));
        pr.appendChild(ntd);
        tb.appendChild(pr);
        e[11].forEach(function (a) {
          var arc = cg.arcs[a], c = arc[1], ce2 = cgByID[c];
          var ccyc = ce2 ? ce2[7] : 0;
          var intra = c === id || (ccyc !== 0 && ccyc === cyc);
          tb.appendChild(arcRow('child', arc, c, intra, ce2 ? ce2[9] : 0));
        });
      }
      t.appendChild(tb);
      out.appendChild(t);
      if (!(e[8] & 1)) out.appendChild(el('p', { cls: 'note', text: 'gprof\'s call graph does not print this entry (no time and no calls, or left out by the options).' }));
    }
    function fromHash() {
      var m = /^#cg=(\d+)$/.exec(location.hash);
      if (m && cgByIndex[m[1]]) select(cgByIndex[m[1]][0], false);
    }
    window.addEventListener('popstate', function () { if (current === 'cg') fromHash(); });
    cgState = { select: select };
    tab.shown = function () {
      // The entry the address names (a link, or Back), else the one shown
      // last, else the first of the call graph.
      if (/^#cg=\d+$/.test(location.hash)) fromHash();
      if (!out.firstChild && cg.entries.length) select(cg.entries[0][0], false);
    };
  }

  // ---- flame graph (icicle: callers above callees) ----
  var flameState = null;
  function buildFlame(sec, tab) {
    var F = D.flame, n = F.fn.length, isDiff = !!F.minus;
    var w = new Float64Array(n), depth = new Int32Array(n), x = new Float64Array(n), maxDepth = 0;
    var kidsEnd = new Float64Array(n); // running offset of the next child
    for (var i = 0; i < n; i++) {
      w[i] = F.plus[i] + (isDiff ? F.minus[i] : 0);
      var p = F.parent[i];
      if (p >= 0) { depth[i] = depth[p] + 1; x[i] = x[p] + kidsEnd[p]; kidsEnd[p] += w[i]; if (depth[i] > maxDepth) maxDepth = depth[i]; }
    }
    var total = w[0] || 1, plusTotal = F.plus[0], minusTotal = isDiff ? F.minus[0] : 0;
    var maxRel = 0;
    // A frame's colour is the change of its own time (beyond its callees),
    // relative to the largest change of any frame.
    if (isDiff) for (i = 1; i < n; i++) if (!F.noise[i]) maxRel = Math.max(maxRel, Math.abs(F.self_plus[i] - F.self_minus[i]));
    var bar = el('div', { cls: 'bar' });
    var search = el('input', { type: 'search', placeholder: 'highlight functions (text, or /regexp/)' });
    var reset = el('button', { text: 'Reset zoom' });
    var info = el('span', { cls: 'count' });
    bar.appendChild(search); bar.appendChild(reset); bar.appendChild(info);
    if (isDiff) {
      bar.appendChild(el('span', { cls: 'legend' }, [
        el('span', null, [el('i', { style: 'background:var(--more)' }), "'+' spent more"]),
        el('span', null, [el('i', { style: 'background:var(--less)' }), "'+' spent less"]),
        el('span', null, [el('i', { style: 'background:var(--same)' }), 'unchanged or within noise'])]));
    }
    sec.appendChild(bar);
    var notes = [];
    notes.push(isDiff ? 'Width: time on both sides (\'+\' plus \'-\'), callees included; colour: the change of the frame\'s own time on that stack. ' : 'Width: time, callees included. ');
    notes.push('Stacks synthesised from gprof\'s arcs, as for --pprof' + (F.routed > 0.001 ? ' (' + (100 * F.routed).toFixed(0) + '% of the self time on stacks routed whole by the synthesis bounds)' : '') + '. Click a frame to zoom, the top frame to zoom out.');
    if (F.left > 0) notes.push(' ' + F.left + ' lighter frames (' + fmtSec(F.left_ns[0] + F.left_ns[1]) + ' s) left out to bound the page.');
    sec.appendChild(el('p', { cls: 'note', text: notes.join('') }));
    var wrap = el('div', { id: 'flame-wrap' });
    var canvas = el('canvas');
    wrap.appendChild(canvas);
    sec.appendChild(wrap);
    var tip = el('div', { cls: 'tip', hidden: '' });
    document.body.appendChild(tip);
    var H = 18, zoom = 0, hit = null, hitTotal = 0;
    var ctx = canvas.getContext('2d');
    var hashCache = {};
    function warm(id) {
      var h = hashCache[id];
      if (h === undefined) {
        var s = names[id] || '', v = 0;
        for (var k = 0; k < s.length; k++) v = (v * 31 + s.charCodeAt(k)) | 0;
        h = hashCache[id] = (v >>> 0) % 1000 / 1000;
      }
      return 'hsl(' + (12 + 36 * h).toFixed(0) + ',' + (78 + 10 * h).toFixed(0) + '%,' + (62 + 8 * h).toFixed(0) + '%)';
    }
    var ink = '#111'; // the text colour of the frame colour() chose last
    function colour(i) {
      ink = '#111';
      if (hit && hit[i]) return '#c05ad8';
      if (i === 0) return '#c9ced6';
      if (!isDiff) return warm(F.fn[i]);
      var d = F.self_plus[i] - F.self_minus[i];
      if (F.noise[i] || d === 0 || maxRel === 0) return '#d9d9d9';
      var t = 0.3 + 0.7 * Math.min(1, Math.abs(d) / maxRel);
      if (t > 0.6) ink = '#fff';
      var c = d > 0 ? [202, 0, 32] : [5, 113, 176];
      return 'rgb(' + [0, 1, 2].map(function (k) { return Math.round(255 + (c[k] - 255) * t); }).join(',') + ')';
    }
    function label(i) { return i === 0 ? (isDiff ? "all stacks ('+' " + fmtSec(plusTotal) + " s, '-' " + fmtSec(minusTotal) + ' s)' : 'all stacks (' + fmtSec(plusTotal) + ' s)') : names[F.fn[i]]; }
    function draw() {
      var cw = wrap.clientWidth - 2 || 1200, dpr = window.devicePixelRatio || 1;
      var ch = (maxDepth + 1) * H + 4;
      canvas.width = cw * dpr; canvas.height = ch * dpr;
      canvas.style.width = cw + 'px'; canvas.style.height = ch + 'px';
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, cw, ch);
      ctx.font = '12px system-ui, "DejaVu Sans", sans-serif';
      ctx.textBaseline = 'middle';
      var z0 = x[zoom], zw = w[zoom] || 1, zd = depth[zoom], scale = cw / zw;
      for (var i = 0; i < n; i++) {
        var px, pw;
        if (depth[i] < zd) {
          // The zoomed frame's callers span the whole width.
          if (x[i] > z0 || x[i] + w[i] < z0 + zw) continue;
          px = 0; pw = cw;
        } else {
          if (x[i] + w[i] <= z0 || x[i] >= z0 + zw) continue;
          px = (x[i] - z0) * scale; pw = w[i] * scale;
          if (pw < 0.4) continue;
        }
        var py = depth[i] * H;
        ctx.fillStyle = colour(i);
        ctx.fillRect(px, py, Math.max(pw - 0.5, 0.4), H - 1);
        if (pw > 28) {
          var s = label(i), room = pw - 6;
          ctx.fillStyle = depth[i] < zd ? '#555' : ink;
          if (ctx.measureText(s).width > room) {
            var keep = Math.floor(s.length * room / ctx.measureText(s).width) - 1;
            s = keep > 1 ? s.slice(0, keep) + '\u2026' : '';
          }
          if (s) ctx.fillText(s, px + 3, py + H / 2);
        }
      }
    }
    function at(ev) {
      var r = canvas.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
      var d = Math.floor(my / H), cw = canvas.clientWidth;
      var z0 = x[zoom], zw = w[zoom] || 1, zd = depth[zoom];
      if (d < zd) {
        for (var i = zoom; i >= 0; i = F.parent[i]) if (depth[i] === d) return i;
        return -1;
      }
      var pos = z0 + mx / cw * zw;
      for (i = 0; i < n; i++) if (depth[i] === d && x[i] <= pos && pos < x[i] + w[i]) return i;
      return -1;
    }
    canvas.addEventListener('mousemove', function (ev) {
      var i = at(ev);
      if (i < 0) { tip.hidden = true; return; }
      var lines = [label(i)];
      if (isDiff) {
        var sd = F.self_plus[i] - F.self_minus[i], td = F.plus[i] - F.minus[i];
        lines.push("own time: '+' " + fmtSec(F.self_plus[i]) + " s, '-' " + fmtSec(F.self_minus[i]) + ' s, change ' + (sd >= 0 ? '+' : '') + fmtSec(sd) + ' s' + (F.noise[i] ? ' (within noise)' : ''));
        lines.push("with callees: '+' " + fmtSec(F.plus[i]) + " s, '-' " + fmtSec(F.minus[i]) + ' s, change ' + (td >= 0 ? '+' : '') + fmtSec(td) + ' s');
      } else {
        lines.push(fmtSec(F.plus[i]) + ' s, ' + pct(F.plus[i], plusTotal) + ' of the total');
      }
      tip.textContent = lines.join('\n');
      tip.hidden = false;
      tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 380) + 'px';
      tip.style.top = (ev.clientY + 14) + 'px';
    });
    canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
    canvas.addEventListener('click', function (ev) { var i = at(ev); if (i >= 0) { zoom = i === zoom ? Math.max(0, F.parent[i]) : i; draw(); } });
    reset.addEventListener('click', function () { zoom = 0; draw(); });
    function highlight(q) {
      var m = matcher(q);
      hit = null; hitTotal = 0;
      if (m) {
        hit = new Uint8Array(n);
        var covered = new Uint8Array(n);
        for (var i = 1; i < n; i++) {
          var p = F.parent[i];
          if (m(names[F.fn[i]])) { hit[i] = 1; if (!covered[p]) hitTotal += w[i]; covered[i] = 1; }
          else if (covered[p]) covered[i] = 1;
        }
        info.textContent = 'highlighted: ' + pct(hitTotal, total) + ' of the width';
      } else info.textContent = '';
      draw();
    }
    search.addEventListener('input', function () { highlight(search.value); });
    window.addEventListener('resize', function () { if (current === 'flame') draw(); });
    flameState = { search: function (q) { search.value = q; highlight(q); } };
    tab.shown = draw;
  }

  // ---- differential: impact table ----
  function buildImpact(sec) {
    var I = D.impact;
    sec.appendChild(el('p', { cls: 'note', text: "'+' minus '-'. % impact: the function's self-time change as a share of the total absolute change (" + I.total + " s). ~ marks a change within two standard errors of sampling noise; sym +-: the function exists on each side. Click a name to find it in the flame graph." }));
    function signCls(s) { var v = parseFloat(s); return v > 0 ? 'more' : v < 0 ? 'less' : ''; }
    var cols = [
      { title: '% impact', num: true, width: '90px', get: function (r) { return r[1]; }, render: function (td, r) { td.textContent = r[1]; td.className = r[9] ? 'noise' : signCls(r[1]); } },
      { title: '+self s', num: true, width: '90px', get: function (r) { return r[2]; } },
      { title: '-self s', num: true, width: '90px', get: function (r) { return r[3]; } },
      { title: 'diff s', num: true, width: '90px', get: function (r) { return r[4]; }, render: function (td, r) { td.textContent = r[4]; td.className = r[9] ? 'noise' : signCls(r[4]); } },
      { title: '+calls', num: true, width: '95px', get: function (r) { return r[5]; } },
      { title: '-calls', num: true, width: '95px', get: function (r) { return r[6]; } },
      { title: 'diff calls', num: true, width: '95px', get: function (r) { return r[7]; } },
      { title: 'sym +-', width: '70px', get: function (r) { return r[8]; }, help: 'X: the function exists in that side\'s executable' },
      { title: 'name', cls: 'name', get: function (r) { return names[r[0]]; }, render: function (td, r) {
        td.appendChild(nameLink(r[0], function (id) { showTab('flame', true); if (flameState) flameState.search('/^' + names[id].replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&') + '$/'); }));
        if (r[9]) td.appendChild(el('span', { cls: 'mark', text: '~', title: 'within sampling noise' }));
      } }
    ];
    new VTable(sec, cols, I.rows, { nameOf: function (r) { return names[r[0]]; }, cls: 'impact' });
  }

  // ---- differential: the pruned call graph as SVG ----
  function buildGraph(sec) {
    var G = D.graph, N = G.nodes.length;
    sec.appendChild(el('p', { cls: 'note', text: 'The functions whose change is significant (as --svg draws them: --node-thres, --edge-thres, --graph-top), ' + G.left + ' left out. Red: \'+\' spent more; blue: less; grey: within noise or unchanged; white: no self time either side. Dashed: a call path through functions left out. Drag or scroll to pan, Ctrl + wheel to zoom, click a function to focus on its callers and callees (again to undo).' }));
    var gbar = el('div', { cls: 'bar' });
    var zin = el('button', { text: 'Zoom in', title: 'or Ctrl + wheel' }), zout = el('button', { text: 'Zoom out' }), zfit = el('button', { text: 'Whole graph' });
    gbar.appendChild(zin); gbar.appendChild(zout); gbar.appendChild(zfit);
    gbar.appendChild(el('span', { cls: 'count', text: N + ' functions, ' + G.arcs.length + ' arcs, ' + G.paths.length + ' elided paths' }));
    sec.appendChild(gbar);
    var wrap = el('div', { id: 'graph-wrap' });
    sec.appendChild(wrap);
    if (N === 0) { wrap.appendChild(el('p', { cls: 'empty', text: 'No significant change to draw.' })); return; }
    var edges = [];
    G.arcs.forEach(function (a) { edges.push({ from: a[0], to: a[1], label: a[2] + ' s, ' + (a[3] >= 0 ? '+' : '') + a[3] + ' calls', dashed: false, dotted: !!a[4] }); });
    G.paths.forEach(function (p) { edges.push({ from: p[0], to: p[1], label: 'via ' + p[2].map(function (v) { return names[v]; }).join(', '), dashed: true }); });
    // Layers: longest path from the roots, back edges (found depth-first) ignored.
    var out = [], inn = [];
    for (var i = 0; i < N; i++) { out.push([]); inn.push([]); }
    edges.forEach(function (e, k) { if (e.from !== e.to) { out[e.from].push(k); inn[e.to].push(k); } });
    var state = new Uint8Array(N), back = new Uint8Array(edges.length), topo = [];
    function dfs(s) {
      var st = [[s, 0]]; state[s] = 1;
      while (st.length) {
        var top = st[st.length - 1], v = top[0];
        if (top[1] < out[v].length) {
          var k = out[v][top[1]++], u = edges[k].to;
          if (state[u] === 1) back[k] = 1; else if (state[u] === 0) { state[u] = 1; st.push([u, 0]); }
        } else { state[v] = 2; topo.push(v); st.pop(); }
      }
    }
    for (i = 0; i < N; i++) if (inn[i].length === 0 && !state[i]) dfs(i);
    for (i = 0; i < N; i++) if (!state[i]) dfs(i);
    topo.reverse();
    var layer = new Int32Array(N), nl = 0;
    topo.forEach(function (v) { out[v].forEach(function (k) { if (!back[k]) layer[edges[k].to] = Math.max(layer[edges[k].to], layer[v] + 1); }); });
    for (i = 0; i < N; i++) nl = Math.max(nl, layer[i] + 1);
    var layers = []; for (i = 0; i < nl; i++) layers.push([]);
    topo.forEach(function (v) { layers[layer[v]].push(v); });
    var order = new Float64Array(N);
    function number() { layers.forEach(function (L) { L.forEach(function (v, k) { order[v] = k; }); }); }
    number();
    for (var sweep = 0; sweep < 6; sweep++) {
      var down = sweep % 2 === 0;
      for (var li = down ? 1 : nl - 2; down ? li < nl : li >= 0; li += down ? 1 : -1) {
        var bc = {};
        layers[li].forEach(function (v) {
          var ks = down ? inn[v] : out[v], s = 0, c = 0;
          ks.forEach(function (k) { var u = down ? edges[k].from : edges[k].to; if (layer[u] !== layer[v]) { s += order[u]; c++; } });
          bc[v] = c ? s / c : order[v];
        });
        layers[li].sort(function (a, b) { return bc[a] - bc[b] || order[a] - order[b]; });
        layers[li].forEach(function (v, k) { order[v] = k; });
      }
    }
    var box = function (v) { var s = names[G.nodes[v][0]]; return s.length > 34 ? s.slice(0, 33) + '\u2026' : s; };
    var sign = function (s) { return (parseFloat(s) > 0 ? '+' : '') + s; };
    var stat = function (nd) { return 'self ' + sign(nd[1]) + ' s, incl ' + sign(nd[2]) + ' s'; };
    var mctx = document.createElement('canvas').getContext('2d');
    mctx.font = '12px system-ui, "DejaVu Sans", sans-serif';
    var BW = [], BH = 44, GAP = 26, LH = 110, pos = [];
    for (i = 0; i < N; i++) BW.push(Math.ceil(Math.max(90, mctx.measureText(box(i)).width, mctx.measureText(stat(G.nodes[i])).width) + 18));
    var width = 0;
    layers.forEach(function (L) { var s = 0; L.forEach(function (v) { s += BW[v] + GAP; }); width = Math.max(width, s); });
    layers.forEach(function (L, li) {
      var s = 0; L.forEach(function (v) { s += BW[v] + GAP; });
      var xx = (width - s) / 2;
      L.forEach(function (v) { pos[v] = { x: xx, y: li * LH + 20 }; xx += BW[v] + GAP; });
    });
    var maxAbs = 0;
    G.nodes.forEach(function (nd) { maxAbs = Math.max(maxAbs, Math.abs(parseFloat(nd[1]))); });
    function fill(nd) {
      var d = parseFloat(nd[1]);
      if (nd[6]) return '#ffffff';
      if (nd[3] || d === 0) return '#d9d9d9';
      var t = 0.2 + 0.8 * Math.min(1, Math.abs(d) / (maxAbs || 1));
      var c = d > 0 ? [202, 0, 32] : [5, 113, 176];
      return 'rgb(' + [0, 1, 2].map(function (k) { return Math.round(255 + (c[k] - 255) * t); }).join(',') + ')';
    }
    function ink(nd) { var d = parseFloat(nd[1]); return !nd[3] && Math.abs(d) / (maxAbs || 1) > 0.55 ? '#fff' : '#111'; }
    var svg = svgEl('svg', {});
    var defs = svgEl('defs', {});
    var mk = svgEl('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    mk.appendChild(svgEl('path', { d: 'M0,0L10,5L0,10z', fill: '#555' }));
    defs.appendChild(mk); svg.appendChild(defs);
    var root = svgEl('g', {});
    svg.appendChild(root);
    var edgeEls = [], nodeEls = [];
    edges.forEach(function (e) {
      var a = pos[e.from], b = pos[e.to], path;
      if (e.from === e.to) {
        var rx = a.x + BW[e.from];
        path = 'M' + rx + ',' + (a.y + 12) + ' C' + (rx + 40) + ',' + (a.y - 10) + ' ' + (rx + 40) + ',' + (a.y + BH + 10) + ' ' + rx + ',' + (a.y + BH - 12);
      } else {
        var x1 = a.x + BW[e.from] / 2, y1 = a.y + BH, x2 = b.x + BW[e.to] / 2, y2 = b.y;
        if (y2 <= y1) { y1 = a.y; y2 = b.y + BH; }
        var my = (y1 + y2) / 2;
        path = 'M' + x1 + ',' + y1 + ' C' + x1 + ',' + my + ' ' + x2 + ',' + my + ' ' + x2 + ',' + y2;
      }
      var g = svgEl('g', {});
      var p = svgEl('path', { d: path, fill: 'none', stroke: e.dashed ? '#969696' : '#555', 'stroke-width': 1.3, 'marker-end': 'url(#arrow)' });
      if (e.dashed) p.setAttribute('stroke-dasharray', '6 4'); else if (e.dotted) p.setAttribute('stroke-dasharray', '2 3');
      var t = svgEl('title', {}); t.textContent = names[G.nodes[e.from][0]] + ' \u2192 ' + names[G.nodes[e.to][0]] + ': ' + e.label;
      p.appendChild(t); g.appendChild(p); root.appendChild(g);
      edgeEls.push(g);
    });
    G.nodes.forEach(function (nd, v) {
      var g = svgEl('g', { 'class': 'node', transform: 'translate(' + pos[v].x + ',' + pos[v].y + ')' });
      var r = svgEl('rect', { width: BW[v], height: BH, rx: nd[4] ? 10 : 2, fill: fill(nd), stroke: nd[5] ? '#999' : '#333' });
      if (nd[3]) r.setAttribute('stroke-dasharray', '4 3');
      var t1 = svgEl('text', { x: 8, y: 18, fill: ink(nd) }); t1.textContent = box(v);
      var t2 = svgEl('text', { x: 8, y: 35, fill: ink(nd) }); t2.textContent = stat(nd);
      var tt = svgEl('title', {}); tt.textContent = names[nd[0]] + '\nself change ' + nd[1] + ' s, inclusive change ' + nd[2] + ' s' + (nd[3] ? ' (self change within noise)' : '') + (nd[4] ? '\nexists in one profile only' : '');
      g.appendChild(r); g.appendChild(t1); g.appendChild(t2); g.appendChild(tt);
      g.addEventListener('click', function (ev) { ev.stopPropagation(); focus(v); });
      root.appendChild(g);
      nodeEls.push(g);
    });
    wrap.appendChild(svg);
    var vb = { x: 0, y: 0, w: 1, h: 1 }, gw = width + 40, gh = nl * LH + 20;
    function setVB() { svg.setAttribute('viewBox', vb.x + ' ' + vb.y + ' ' + vb.w + ' ' + vb.h); }
    // The first view fits the graph's width (never magnifying it), top
    // first: a deep graph is then read by panning down.
    function fit(whole) {
      var cw = wrap.clientWidth || 1200, ch = wrap.clientHeight || 600;
      var k = Math.max(1, gw / cw);
      if (whole) k = Math.max(k, gh / ch);
      vb.w = cw * k; vb.h = ch * k;
      vb.x = -20 - (vb.w - gw) / 2; vb.y = 0;
      setVB();
    }
    fit(false);
    function zoomBy(f, mx, my) {
      if (mx === undefined) { mx = vb.x + vb.w / 2; my = vb.y + vb.h / 2; }
      vb.x = mx - (mx - vb.x) * f; vb.y = my - (my - vb.y) * f; vb.w *= f; vb.h *= f;
      setVB();
    }
    zin.addEventListener('click', function () { zoomBy(1 / 1.4); });
    zout.addEventListener('click', function () { zoomBy(1.4); });
    zfit.addEventListener('click', function () { fit(true); });
    var focused = -1;
    function focus(v) {
      focused = focused === v ? -1 : v;
      var near = {}; near[v] = true;
      edges.forEach(function (e) { if (e.from === v) near[e.to] = true; if (e.to === v) near[e.from] = true; });
      nodeEls.forEach(function (g, k) { g.classList.toggle('dim', focused >= 0 && !near[k]); });
      edgeEls.forEach(function (g, k) { g.classList.toggle('dim', focused >= 0 && edges[k].from !== v && edges[k].to !== v); });
    }
    var drag = null;
    wrap.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, y: ev.clientY, vx: vb.x, vy: vb.y }; });
    window.addEventListener('mouseup', function () { drag = null; });
    window.addEventListener('mousemove', function (ev) {
      if (!drag) return;
      var k = vb.w / (wrap.clientWidth || 1);
      vb.x = drag.vx - (ev.clientX - drag.x) * k; vb.y = drag.vy - (ev.clientY - drag.y) * k;
      setVB();
    });
    wrap.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var r = wrap.getBoundingClientRect(), k = vb.w / (r.width || 1);
      if (ev.ctrlKey || ev.metaKey) {
        zoomBy(ev.deltaY > 0 ? 1.15 : 1 / 1.15, vb.x + (ev.clientX - r.left) * k, vb.y + (ev.clientY - r.top) * k);
        return;
      }
      vb.x += ev.deltaX * k; vb.y += ev.deltaY * k;
      setVB();    }, { passive: false });
  }


  // heat is the heatmap's colour of t in [0, 1].
  function heat(t) { return 'rgb(' + Math.round(255 - 25 * t) + ',' + Math.round(245 - 160 * t) + ',' + Math.round(235 - 220 * t) + ')'; }

  // staticTable shows rows of text cells as they come (short tables: no
  // sorting, no filter). heads: [title, cls] pairs; groups, optional: a
  // header row above, [title, columns spanned] pairs.
  function staticTable(parent, id, heads, rows, groups) {
    var t = el('table', { cls: 'st', id: id });
    var thead = el('thead');
    if (groups) {
      var gr = el('tr', { cls: 'group' });
      groups.forEach(function (g) { gr.appendChild(el('th', { colspan: String(g[1]), cls: g[0] ? 'span' : '', text: g[0] })); });
      thead.appendChild(gr);
    }
    var hr = el('tr');
    heads.forEach(function (h) { hr.appendChild(el('th', { cls: h[1] || '', text: h[0] })); });
    thead.appendChild(hr);
    t.appendChild(thead);
    var tb = el('tbody');
    rows.forEach(function (r) {
      var tr = el('tr', { cls: 'row' });
      r.forEach(function (c, k) { tr.appendChild(el('td', { cls: (heads[k] && heads[k][1]) || '', text: c })); });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    var box = el('div', { cls: 'stbox' }, [t]);
    parent.appendChild(box);
    return t;
  }

  // ---- MPI ranks: activities, the matrix of regions by activities, the region clusters ----
  function buildActivities(sec) {
    var R = D.ranks;
    sec.appendChild(el('h2', { text: 'Activities, most costly imbalance (SID_A) first' }));
    staticTable(sec, 'rank-activities', [['activity', 'name'], ['seconds'], ['share'], ['ID_A'], ['SID_A'], ['regions'], ['heaviest region', 'name'], ['lightest region', 'name']], R.activities);
    sec.appendChild(el('p', { cls: 'note', text: (R.dominant ? R.dominant + ' ' : '') + 'ID_A averages the indices of an activity over the regions, weighted by their time in it; SID_A scales ID_A by the activity\'s share of the total time. * marks the candidates for tuning.' }));
    var acts = R.matrixActs, n = acts.length;
    if (R.matrixRows.length && n) {
      sec.appendChild(el('h2', { text: 'Time of each activity in the top regions (t_ij, the paper\'s Table 6) and its index of dispersion over the ranks (ID_ij, Table 7)' }));
      var heads = [['t_i']];
      acts.forEach(function (a) { heads.push([a]); });
      acts.forEach(function (a) { heads.push([a]); });
      heads.push(['ID_C'], ['name', 'name']);
      staticTable(sec, 'rank-matrix', heads, R.matrixRows, [['', 1], ['t_ij (seconds)', n], ['ID_ij', n], ['', 2]]);
      sec.appendChild(el('p', { cls: 'note', text: 't_i is the region\'s time, t_ij its time in each activity; a dash marks an activity the region does not perform. ID_C is the region\'s index over all its activities.' }));
    }
    if (R.regionClusters.length) {
      sec.appendChild(el('h2', { text: 'Clusters of code regions (k-means over their standardised activity times)' }));
      var ch = [['cluster'], ['regions'], ['seconds'], ['share']];
      acts.forEach(function (a) { ch.push([a]); });
      ch.push(['heaviest members', 'name']);
      staticTable(sec, 'rank-region-clusters', ch, R.regionClusters);
      sec.appendChild(el('p', { cls: 'note', text: 'The activity columns give the mix of each cluster\'s time.' }));
    }
  }

  // ---- MPI ranks: each rank's time in the top regions, and the clusters of ranks ----
  var PALETTE = ['#1a5fb4', '#c01c28', '#26a269', '#e66100', '#813d9c', '#865e3c', '#d6336c', '#5e5c64'];
  // niceAxis rounds an axis's top up to a multiple of a round step (1, 2
  // or 5 times a power of ten), for four or five ticks.
  function niceAxis(max) {
    if (!(max > 0)) max = 1;
    var raw = max / 4, mag = Math.pow(10, Math.floor(Math.log10(raw))), step = mag;
    [1, 2, 2.5, 5, 10].some(function (f) { step = f * mag; return step >= raw; });
    var dec = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (step / mag === 2.5 ? 1 : 0));
    return { top: Math.ceil(max / step - 1e-9) * step, step: step, dec: dec };
  }
  // rankTicks are the ranks to label on an axis from rank r0 to r1: every
  // one of a few, else the multiples of a round step (1, 2 or 5 times a
  // power of ten, 2.5 from 25 up), about 5 to 10 of them.
  function rankTicks(r0, r1) {
    var out = [], r;
    if (r1 - r0 < 10) { for (r = r0; r <= r1; r++) out.push(r); return out; }
    var raw = (r1 - r0) / 8, mag = Math.pow(10, Math.floor(Math.log10(raw))), step = mag;
    (mag >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10]).some(function (f) { step = f * mag; return step >= raw; });
    for (r = Math.ceil(r0 / step) * step; r <= r1; r += step) out.push(r);
    return out;
  }
  function buildRankChart(sec) {
    var R = D.ranks, S = R.series, np = S.ranks.length;
    var nr = Math.min(S.regions.length, PALETTE.length);
    sec.appendChild(el('h2', { text: 'Seconds each rank spent in the ' + nr + ' most imbalanced regions' }));
    if (nr > 0 && np > 0) {
      var W = Math.max(500, (sec.clientWidth || main.clientWidth || 1200) - 20), H = 320, L = 64, RT = 16, T = 12, B = 34;
      var ymax = 0;
      for (var i = 0; i < nr; i++) S.seconds[i].forEach(function (v) { ymax = Math.max(ymax, v); });
      var ax0 = niceAxis(ymax); ymax = ax0.top;
      var r0 = S.ranks[0], r1 = S.ranks[np - 1], span = Math.max(1, r1 - r0);
      var X = function (r) { return L + (W - L - RT) * (np === 1 ? 0.5 : (r - r0) / span); };
      var Y = function (v) { return T + (H - T - B) * (1 - v / ymax); };
      var svg = svgEl('svg', { id: 'rank-chart', width: W, height: H, viewBox: '0 0 ' + W + ' ' + H });
      for (var k = 0; k * ax0.step <= ymax + 1e-12; k++) {
        var v = k * ax0.step, y = Y(v);
        svg.appendChild(svgEl('line', { x1: L, x2: W - RT, y1: y, y2: y, stroke: '#e3e6ea' }));
        var tl = svgEl('text', { x: L - 6, y: y + 4, 'text-anchor': 'end', fill: '#5f6368' }); tl.textContent = v.toFixed(ax0.dec); svg.appendChild(tl);
      }
      rankTicks(r0, r1).forEach(function (rk) {
        var xl = svgEl('text', { x: X(rk), y: H - B + 16, 'text-anchor': 'middle', fill: '#5f6368' }); xl.textContent = String(rk); svg.appendChild(xl);
      });
      var ax = svgEl('text', { x: (L + W - RT) / 2, y: H - 4, 'text-anchor': 'middle', fill: '#5f6368' }); ax.textContent = 'rank'; svg.appendChild(ax);
      var ay = svgEl('text', { x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', fill: '#5f6368', transform: 'rotate(-90 12 ' + (T + H - B) / 2 + ')' }); ay.textContent = 'seconds'; svg.appendChild(ay);
      // With more ranks than pixels a region is a band from the least to
      // the greatest time of the ranks each pixel column stands for (a
      // line through thousands of ranks is a scribble).
      var cols = Math.floor(W - L - RT), banded = np > cols, per = Math.ceil(np / cols);
      for (i = nr - 1; i >= 0; i--) {
        var pts = [];
        if (banded) {
          // Groups of a fixed number of ranks (not of what falls in a
          // pixel), so that a pattern repeating every few ranks makes an
          // even band.
          var lo = [], hi = [];
          for (k = 0; k < np; k += per) {
            var end = Math.min(np, k + per), a = Infinity, b = -Infinity;
            for (var j = k; j < end; j++) { a = Math.min(a, S.seconds[i][j]); b = Math.max(b, S.seconds[i][j]); }
            var c = X((S.ranks[k] + S.ranks[end - 1]) / 2).toFixed(1);
            lo.push([c, a]); hi.push([c, b]);
          }
          hi.forEach(function (p) { pts.push(p[0] + ',' + Y(p[1]).toFixed(1)); });
          for (k = lo.length - 1; k >= 0; k--) pts.push(lo[k][0] + ',' + Y(lo[k][1]).toFixed(1));
          svg.appendChild(svgEl('polygon', { points: pts.join(' '), fill: PALETTE[i], 'fill-opacity': 0.55, stroke: PALETTE[i], 'stroke-width': 0.6 }));
          continue;
        }
        for (k = 0; k < np; k++) pts.push(X(S.ranks[k]).toFixed(1) + ',' + Y(S.seconds[i][k]).toFixed(1));
        svg.appendChild(svgEl('polyline', { points: pts.join(' '), fill: 'none', stroke: PALETTE[i], 'stroke-width': np > 200 ? 1 : 1.8 }));
        if (np <= 64) for (k = 0; k < np; k++) svg.appendChild(svgEl('circle', { cx: X(S.ranks[k]), cy: Y(S.seconds[i][k]), r: 3, fill: PALETTE[i] }));
      }
      var cursor = svgEl('line', { y1: T, y2: H - B, stroke: '#888', 'stroke-dasharray': '3 3', visibility: 'hidden' });
      svg.appendChild(cursor);
      var wrap = el('div', { cls: 'chartbox' }, [svg]);
      sec.appendChild(wrap);
      var legend = el('div', { cls: 'legend' });
      for (i = 0; i < nr; i++) legend.appendChild(el('span', null, [el('i', { style: 'background:' + PALETTE[i] }), S.regions[i]]));
      sec.appendChild(legend);
      if (banded) sec.appendChild(el('p', { cls: 'note', text: 'More ranks than pixels: each group of ' + per + ' neighbouring ranks is drawn as a span from the least to the greatest of their times. Hover for a rank\'s times.' }));
      var tip = el('div', { cls: 'tip', hidden: '' });
      document.body.appendChild(tip);
      svg.addEventListener('mousemove', function (ev) {
        var b = svg.getBoundingClientRect(), x = ev.clientX - b.left;
        var best = 0;
        for (var k = 1; k < np; k++) if (Math.abs(X(S.ranks[k]) - x) < Math.abs(X(S.ranks[best]) - x)) best = k;
        cursor.setAttribute('x1', X(S.ranks[best])); cursor.setAttribute('x2', X(S.ranks[best])); cursor.setAttribute('visibility', 'visible');
        var lines = ['rank ' + S.ranks[best]];
        for (var i = 0; i < nr; i++) lines.push(S.regions[i] + ': ' + S.seconds[i][best].toFixed(4) + ' s (mean ' + S.mean[i] + ')');
        tip.textContent = lines.join('\n'); tip.hidden = false;
        tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 380) + 'px'; tip.style.top = (ev.clientY + 14) + 'px';
      });
      svg.addEventListener('mouseleave', function () { tip.hidden = true; cursor.setAttribute('visibility', 'hidden'); });
    } else sec.appendChild(el('p', { cls: 'empty', text: 'No region has time.' }));
    sec.appendChild(el('h2', { text: 'Clusters of ranks' }));
    staticTable(sec, 'rank-clusters', [['cluster'], ['ranks'], ['members', 'name'], ['what sets it apart', 'name']], R.rankClusters);
    sec.appendChild(el('p', { cls: 'note', text: R.clusterNote + (R.note ? ' ' + R.note : '') }));
    sec.appendChild(el('h2', { text: 'Spread of the ranks\' times in the top regions (seconds per rank)' }));
    staticTable(sec, 'rank-spread', [['mean'], ['median'], ['min'], ['rank'], ['max'], ['rank'], ['idle'], ['stdev'], ['CV'], ['max/mean'], ['low15%'], ['high15%'], ['name', 'name']], R.spread);
    sec.appendChild(el('p', { cls: 'note', text: 'min and max are reached first by the rank shown; idle counts the ranks with no time in the region. CV is the standard deviation over the mean; max/mean how much longer the slowest rank took than the average; low15% and high15% the shares of ranks whose time falls in the lowest and highest 15% of the region\'s range.' +
      (R.approx ? ' ~ marks regions where some ranks took 256 samples or more: their median, low15% and high15% are counted from buckets at most 0.8% wide.' : '') }));
  }

  // ---- MPI ranks: the regions' indices and a heatmap of the ranks' times ----
  function buildRanks(sec) {
    var R = D.ranks, S = R.series;
    sec.appendChild(el('p', { cls: 'note', text: R.summary + '. ' + (R.note ? R.note + ' ' : '') +
      'Each row of the heatmap is one of the most imbalanced regions, each column a rank; the darker a cell, the more of the region\'s largest time per rank that rank spent in it. Hover for the seconds.' }));
    var nr = S.regions.length, np = S.ranks.length;
    if (nr > 0 && np > 0) {
      var mctx = document.createElement('canvas').getContext('2d');
      mctx.font = '12px system-ui, "DejaVu Sans", sans-serif';
      var lw = 0;
      S.regions.forEach(function (r) { lw = Math.max(lw, mctx.measureText(r.length > 40 ? r.slice(0, 39) + '\u2026' : r).width); });
      lw = Math.ceil(lw) + 12;
      // The legend: a row's colours run from no time to the time of the
      // region's slowest rank.
      var lg = el('canvas', { id: 'rank-legend', width: '160', height: '12' });
      var lctx = lg.getContext('2d');
      for (var x = 0; x < 160; x++) { lctx.fillStyle = heat(x / 159); lctx.fillRect(x, 0, 1, 12); }
      sec.appendChild(el('div', { cls: 'legend' }, ['no time in the region', lg, 'the region\'s slowest rank']));
      var wrap = el('div', { cls: 'scroll', style: 'min-height:0' });
      var groupNote = el('p', { cls: 'note' });
      var canvas = el('canvas', { id: 'rank-heatmap' });
      wrap.appendChild(canvas);
      sec.appendChild(wrap);
      sec.appendChild(groupNote);
      var tip = el('div', { cls: 'tip', hidden: '' });
      document.body.appendChild(tip);
      var CH = 20, axis = 18, cw = 1, per = 1, nc = np, maxOf = S.seconds.map(function (row) { return Math.max.apply(null, row.concat([0])); });
      // With more ranks than pixels, a column stands for a group of
      // neighbouring ranks and shows the slowest of them.
      var cell = function (i, c) {
        var v = 0;
        for (var k = c * per; k < Math.min(np, (c + 1) * per); k++) v = Math.max(v, S.seconds[i][k]);
        return v;
      };
      var draw = function () {
        var W = Math.max(400, (sec.clientWidth || 1200) - 4), dpr = window.devicePixelRatio || 1;
        per = Math.max(1, Math.ceil(np / Math.max(1, W - lw)));
        nc = Math.ceil(np / per);
        cw = Math.max(1, (W - lw) / nc);
        var H = nr * CH + axis;
        canvas.width = Math.ceil((lw + cw * nc) * dpr); canvas.height = H * dpr;
        canvas.style.width = (lw + cw * nc) + 'px'; canvas.style.height = H + 'px';
        var ctx = canvas.getContext('2d');
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        ctx.font = '12px system-ui, "DejaVu Sans", sans-serif';
        ctx.textBaseline = 'middle';
        for (var i = 0; i < nr; i++) {
          var name = S.regions[i];
          ctx.fillStyle = '#111';
          ctx.fillText(name.length > 40 ? name.slice(0, 39) + '\u2026' : name, 2, i * CH + CH / 2);
          for (var c = 0; c < nc; c++) {
            var t = maxOf[i] > 0 ? cell(i, c) / maxOf[i] : 0;
            ctx.fillStyle = heat(t);
            ctx.fillRect(lw + c * cw, i * CH, Math.max(cw - (cw > 4 ? 1 : 0), 1), CH - 1);
          }
        }
        ctx.fillStyle = '#5f6368';
        var step = Math.max(1, Math.ceil(60 / cw));
        for (var c2 = 0; c2 + step / 2 < nc; c2 += step) ctx.fillText(String(S.ranks[c2 * per]), lw + c2 * cw, nr * CH + axis / 2);
        groupNote.textContent = per > 1 ? 'Each column stands for ' + per + ' neighbouring ranks and shows the slowest of them.' : '';
      };
      canvas.addEventListener('mousemove', function (ev) {
        var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left - lw, i = Math.floor((ev.clientY - r.top) / CH), c = Math.floor(x / cw);
        if (x < 0 || i < 0 || i >= nr || c < 0 || c >= nc) { tip.hidden = true; return; }
        var lo = c * per, hi = Math.min(np, (c + 1) * per) - 1, slow = lo;
        for (var k = lo; k <= hi; k++) if (S.seconds[i][k] > S.seconds[i][slow]) slow = k;
        tip.textContent = S.regions[i] + '\n' + (hi > lo ? 'ranks ' + S.ranks[lo] + '-' + S.ranks[hi] + ', slowest rank ' : 'rank ') + S.ranks[slow] + ': ' +
          S.seconds[i][slow].toFixed(4) + ' s (mean of all ranks ' + S.mean[i] + ' s)';
        tip.hidden = false;
        tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 380) + 'px';
        tip.style.top = (ev.clientY + 14) + 'px';
      });
      canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
      draw();
      window.addEventListener('resize', function () { if (current === 'ranks') draw(); });
    }
    var cols = [
      { title: 'SID_C', num: true, width: '90px', get: function (r) { return r[0]; }, help: 'scaled index of dispersion: the imbalance weighed by the region\'s share of the time' },
      { title: 'ID_C', num: true, width: '90px', get: function (r) { return r[1]; }, help: 'index of dispersion of the ranks\' times' },
      { title: 'seconds', num: true, width: '100px', get: function (r) { return r[2]; } },
      { title: 'share', num: true, width: '80px', get: function (r) { return r[3]; } },
      { title: 'activity', cls: 'name', width: '120px', get: function (r) { return r[4]; } },
      { title: 'calls', num: true, width: '130px', get: function (r) { return r[5]; } },
      { title: 'ID_calls', num: true, width: '90px', get: function (r) { return r[6]; } },
      { title: 'name', cls: 'name', get: function (r) { return r[7] + (r[8] ? ' *' : ''); } }
    ];
    sec.appendChild(el('p', { cls: 'note', text: 'Code regions, most costly imbalance (SID_C) first; * marks the candidates for tuning (--rank-criterion).' }));
    new VTable(sec, cols, R.regions, { nameOf: function (r) { return r[7]; }, cls: 'regions' });
  }

  // ---- experiments: the text report's sections, a tab each ----
  // chart draws series [{name, color, pts: [[x, y]], dots, dash}] in an
  // SVG, x on a log2 axis when logx, into parent; ticks are the xs given.
  function chart(parent, series, opt) {
    var W = opt.width || 420, H = opt.height || 230, L = 58, RT = 12, T = 22, B = 34;
    var xs = [], ymax = 0;
    series.forEach(function (s) { s.pts.forEach(function (p) { xs.push(p[0]); ymax = Math.max(ymax, p[1]); }); });
    if (!xs.length) return null;
    var ax = niceAxis(ymax * 1.04); ymax = ax.top;
    var fx = opt.logx ? function (v) { return Math.log2(v); } : function (v) { return v; };
    var x0 = Math.min.apply(null, xs.map(fx)), x1 = Math.max.apply(null, xs.map(fx));
    var X = function (v) { return L + (W - L - RT) * (x1 > x0 ? (fx(v) - x0) / (x1 - x0) : 0.5); };
    var Y = function (v) { return T + (H - T - B) * (1 - v / ymax); };
    var svg = svgEl('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, 'class': 'chart' });
    var ttl = svgEl('text', { x: L, y: 14, fill: '#1d1d1f', 'font-weight': '600' }); ttl.textContent = opt.title; svg.appendChild(ttl);
    for (var k = 0; k * ax.step <= ymax + 1e-12; k++) {
      var v = k * ax.step, y = Y(v);
      svg.appendChild(svgEl('line', { x1: L, x2: W - RT, y1: y, y2: y, stroke: '#e3e6ea' }));
      var tl = svgEl('text', { x: L - 5, y: y + 4, 'text-anchor': 'end', fill: '#5f6368' }); tl.textContent = v.toFixed(ax.dec); svg.appendChild(tl);
    }
    (opt.ticks || []).forEach(function (t) {
      var xl = svgEl('text', { x: X(t), y: H - B + 15, 'text-anchor': 'middle', fill: '#5f6368' }); xl.textContent = String(t); svg.appendChild(xl);
    });
    var xl0 = svgEl('text', { x: (L + W - RT) / 2, y: H - 4, 'text-anchor': 'middle', fill: '#5f6368' }); xl0.textContent = opt.xlabel; svg.appendChild(xl0);
    var ay = svgEl('text', { x: 11, y: (T + H - B) / 2, 'text-anchor': 'middle', fill: '#5f6368', transform: 'rotate(-90 11 ' + (T + H - B) / 2 + ')' }); ay.textContent = opt.ylabel; svg.appendChild(ay);
    series.forEach(function (s) {
      if (s.line !== false && s.pts.length > 1) {
        var pl = svgEl('polyline', { points: s.pts.map(function (p) { return X(p[0]).toFixed(1) + ',' + Y(p[1]).toFixed(1); }).join(' '), fill: 'none', stroke: s.color, 'stroke-width': 1.6 });
        if (s.dash) pl.setAttribute('stroke-dasharray', '5 3');
        svg.appendChild(pl);
      }
      if (s.dots || s.rings) s.pts.forEach(function (p) {
        var c = svgEl('circle', s.rings ? { cx: X(p[0]), cy: Y(p[1]), r: 5.5, fill: 'none', stroke: s.color, 'stroke-width': 1.3 } : { cx: X(p[0]), cy: Y(p[1]), r: 3.5, fill: s.color });
        var tt = svgEl('title', {}); tt.textContent = s.name + ': ' + opt.xlabel + ' ' + p[0] + ', ' + p[1] + ' ' + (opt.unit || ''); c.appendChild(tt);
        svg.appendChild(c);
      });
    });
    var box = el('div', { cls: 'chartcell', style: 'width:' + W + 'px' }, [svg]);
    var lg = el('div', { cls: 'legend' });
    series.forEach(function (s) { if (s.legend !== false) lg.appendChild(el('span', null, [el('i', { style: 'background:' + s.color }), s.name])); });
    box.appendChild(lg);
    parent.appendChild(box);
    return svg;
  }
  // timeCharts draws each function's time against p with its model's
  // curves, a colour per work.
  function timeCharts(sec, charts) {
    if (!charts || !charts.length) return;
    sec.appendChild(el('h2', { text: 'Time against p, a colour per work: measured (dots), the model at the same run (rings) and along a work measured at several p (lines)' }));
    var grid = el('div', { cls: 'charts' });
    sec.appendChild(grid);
    // A work has one colour in every chart of the section.
    var all = [];
    charts.forEach(function (c) { c.points.forEach(function (p) { if (all.indexOf(p[1]) < 0) all.push(p[1]); }); });
    all.sort(function (a, b) { return a - b; });
    charts.forEach(function (c) {
      var works = [], procs = [];
      c.points.forEach(function (p) { if (works.indexOf(p[1]) < 0) works.push(p[1]); if (procs.indexOf(p[0]) < 0) procs.push(p[0]); });
      works.sort(function (a, b) { return a - b; }); procs.sort(function (a, b) { return a - b; });
      var series = [];
      var fitted = c.fitted.length === c.points.length;
      works.forEach(function (w) {
        var col = PALETTE[all.indexOf(w) % PALETTE.length];
        var at = c.points.map(function (p, i) { return i; }).filter(function (i) { return c.points[i][1] === w; });
        series.push({ name: 'W=' + w, color: col, dots: true, line: false, pts: at.map(function (i) { return [c.points[i][0], c.points[i][2]]; }) });
        if (fitted) series.push({ name: 'model at W=' + w, color: col, rings: true, line: false, legend: false, pts: at.map(function (i) { return [c.points[i][0], c.fitted[i]]; }) });
        c.curves.forEach(function (cv) { if (cv.w === w) series.push({ name: 'model', color: col, pts: cv.points, legend: false }); });
      });
      var name = c.name.length > 60 ? c.name.slice(0, 59) + '\u2026' : c.name;
      chart(grid, series, { title: name + (c.model ? ':  t = ' + c.model : ''), xlabel: 'p', ylabel: 'seconds', unit: 's', logx: true, ticks: procs });
    });
  }
  // rangeChart draws a range comparison's Phi and alpha*Psi against p'
  // from its table's cells.
  function rangeChart(sec, part) {
    var phi = [], apsi = [], ticks = [];
    part.rows.forEach(function (r) {
      var p = parseFloat(r[0]), a = parseFloat(r[1]), b = parseFloat(r[2]);
      if (isNaN(p)) return;
      ticks.push(p);
      if (!isNaN(a)) phi.push([p, a]);
      if (!isNaN(b)) apsi.push([p, b]);
    });
    if (!phi.length && !apsi.length) return;
    var grid = el('div', { cls: 'charts' });
    sec.appendChild(grid);
    chart(grid, [{ name: part.head[1] + ' (the slower)', color: PALETTE[1], dots: true, pts: phi }, { name: part.head[2] + ' (the faster)', color: PALETTE[0], dots: true, dash: true, pts: apsi }],
      { title: 'The slower combination becomes faster where its line rises above the other', xlabel: "p'", ylabel: 'scalability', logx: true, ticks: ticks, width: 520 });
  }
  function buildExpSection(key, S, charts) {
    return function (sec) {
      sec.appendChild(el('h2', { text: S.title }));
      // The report's explanations, folded, at the top.
      var about = S.parts.filter(function (p) { return p.kind === 'para'; });
      if (about.length) sec.appendChild(el('details', { cls: 'about' }, [el('summary', { text: 'What this shows' })].concat(about.map(function (p) { return el('p', { text: p.text }); }))));
      // SCALA's small tables side by side, each with the line before it
      // as its caption.
      var flow = null, caption = null;
      var small = { runs: 'The runs', psi: "psi(p, p'): from each run (rows) to each p' (columns)", predicted: '', pairs: '' };
      S.parts.forEach(function (part) {
        var id = 'exp-' + key + '-' + part.kind;
        if (part.kind === 'para') return;
        if (part.kind === 'line') {
          if (S.kind === 'scala' && !/^n\/d|^Note/.test(part.text)) { caption = part.text.replace(/:$/, ''); return; }
          var cross = /crossing point|^initial state|^at the initial work|^by execution times/.test(part.text);
          sec.appendChild(el('p', { cls: cross ? 'line key' : 'line', text: part.text }));
          return;
        }
        var heads = part.head.map(function (h, k) { return [h, part.right[k] ? '' : 'name']; });
        if (part.kind === 'perdac') {
          var cols = heads.map(function (h, k) {
            // As wide as the column's longest cell (of the first 2,000
            // rows), names at most 320 pixels.
            var n = h[0].length;
            for (var i = 0; i < Math.min(part.rows.length, 2000); i++) n = Math.max(n, String(part.rows[i][k]).length);
            var w = Math.min(k === 0 ? 320 : 400, Math.ceil(n * 7.6) + 22) + 'px';
            return { title: h[0], cls: h[1], num: !!part.right[k], width: w, get: function (r) { return r[k]; } };
          });
          var holder = el('div', { id: id });
          sec.appendChild(holder);
          new VTable(holder, cols, part.rows, { nameOf: function (r) { return r.join(' '); }, cls: 'perdac', placeholder: 'filter rows (text, or /regexp/)' });
          return;
        }
        var parent = sec;
        if (part.kind in small) {
          if (!flow) { flow = el('div', { cls: 'flow' }); sec.appendChild(flow); }
          parent = el('div');
          flow.appendChild(parent);
          caption = caption || small[part.kind];
        } else {
          caption = { functions: 'The top functions by self time', steps: "Walking p' up" }[part.kind] || caption;
        }
        if (caption) parent.appendChild(el('h3', { text: caption }));
        caption = null;
        staticTable(parent, id, heads, part.rows);
        if (part.kind === 'functions') timeCharts(sec, charts);
        if (part.kind === 'steps') rangeChart(sec, part);
      });
    };
  }
  function buildExperiment() {
    var X = D.experiment, n = {}, sc = 0;
    X.sections.forEach(function (S) {
      n[S.kind] = (n[S.kind] || 0) + 1;
      var key = S.kind + n[S.kind];
      var label = S.kind === 'perdac' ? S.title.replace(/^Statistics over (.*) \(PERDAC\)$/, 'PERDAC over $1') :
        S.kind === 'scala' ? S.title.replace(/^Isospeed scalability \(SCALA\)( for )?/, 'SCALA ') :
          S.title.replace(/^Range comparison over /, 'Range over ');
      var charts = S.kind === 'scala' ? X.charts[sc++] : null;
      addTab(key, label, buildExpSection(key, S, charts));
    });
    if (!X.sections.length) addTab('none', 'Report', function (sec) { sec.appendChild(el('p', { cls: 'empty', text: 'Nothing to report.' })); });
    if (X.skipped) nav.appendChild(el('span', { cls: 'navnote', text: X.skipped + '.' }));
  }

  if (D.kind === 'experiment') {
    buildExperiment();
  } else if (D.kind === 'diff') {
    addTab('impact', 'Impact table', buildImpact);
    addTab('flame', 'Differential flame graph', buildFlame);
    if (D.graph) addTab('graph', 'Call graph', buildGraph);
  } else {
    if (D.flat) addTab('flat', 'Flat profile', buildFlat);
    if (D.lines) addTab('lines', 'Lines', buildLines);
    if (D.source && D.source.length) addTab('source', 'Source', buildSource);
    if (D.cg) addTab('cg', 'Call graph', buildCG);
    addTab('flame', 'Flame graph', buildFlame);
    if (D.ranks) {
      addTab('ranks', 'Ranks: regions', buildRanks);
      addTab('activities', 'Ranks: activities', buildActivities);
      addTab('rankchart', 'Ranks: times and clusters', buildRankChart);
    }
  }
  var want = location.hash.slice(1).split('=')[0];
  showTab(tabs[want] ? want : Object.keys(tabs)[0], false);
  window.addEventListener('popstate', function () { var k = location.hash.slice(1).split('=')[0]; if (tabs[k] && k !== current) showTab(k, false); });
  // When the first tab was ready, in milliseconds since navigation began.
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = '1';
})();
