// precisiond admin page: token kept in sessionStorage and sent as a bearer
// header; every state change goes through the authenticated admin API.
'use strict';
(function () {
  const KEY = 'precisiond-admin-token';
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const token = () => sessionStorage.getItem(KEY) || '';

  function setSession(text, cls) {
    const el = $('#session');
    el.textContent = text;
    el.className = cls || '';
  }

  async function checkSession() {
    if (!token()) { setSession('not signed in'); return false; }
    const r = await fetch('/admin/session', { headers: { Authorization: 'Bearer ' + token() } });
    const body = await r.json().catch(() => ({}));
    if (r.ok) { setSession('signed in (token ' + body.token_id + ')', 'ok'); return true; }
    setSession('token refused: ' + (body.error || r.status), 'bad');
    return false;
  }

  function render(entry) {
    const row = document.getElementById('tool-' + entry.name);
    if (!row) return;
    const st = $('[data-state]', row);
    st.textContent = entry.enabled ? 'enabled' : 'disabled';
    st.className = 'state ' + (entry.enabled ? 'on' : 'off');
    $('[data-toggle]', row).textContent = entry.enabled ? 'Disable' : 'Enable';
  }

  async function refresh() {
    // With API tokens on, the tool routes also admit the admin token.
    const r = await fetch('/tools', { headers: { Authorization: 'Bearer ' + token() } });
    const cat = await r.json();
    cat.tools.forEach(render);
    $('#catalog-hash').textContent = cat.catalog_hash;
  }

  async function toggle(name, button) {
    const row = document.getElementById('tool-' + name);
    const enable = $('[data-state]', row).textContent !== 'enabled';
    button.disabled = true;
    try {
      const r = await fetch('/admin/tools/' + encodeURIComponent(name), {
        method: 'PUT',
        headers: { Authorization: 'Bearer ' + token(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ enabled: enable }),
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) { setSession('toggle refused: ' + (body.error || r.status), 'bad'); return; }
      await refresh();
    } finally {
      button.disabled = false;
    }
  }

  async function run(name, button) {
    const out = $('[data-output="' + name + '"]');
    const badge = $('[data-badge="' + name + '"]');
    const argsText = $('[data-args="' + name + '"]').value;
    badge.textContent = '';
    badge.className = 'badge';
    // The args text is sent verbatim inside the request so that big integers and
    // floats such as 100.0 reach the server exactly as typed.
    const body = '{"tool":' + JSON.stringify(name) + ',"args":' + argsText + '}';
    button.disabled = true;
    try {
      const r = await fetch('/invoke', { method: 'POST', headers: { Authorization: 'Bearer ' + token(), 'Content-Type': 'application/json' }, body });
      const text = await r.text();
      out.textContent = pretty(text);
      // Verification runs on the server over the exact response bytes: a JS
      // re-serialization would lose big integers and 100.0 vs 100.
      const v = await fetch('/admin/verify', { method: 'POST', headers: { Authorization: 'Bearer ' + token(), 'Content-Type': 'application/json' }, body: text });
      const res = await v.json();
      if (res.verified) {
        badge.textContent = 'verified';
        badge.className = 'badge verified';
        badge.title = 'result_hash ' + res.result_hash + ' recomputes against the catalogue';
      } else {
        badge.textContent = 'not verified';
        badge.className = 'badge not-verified';
        badge.title = res.error || '';
      }
    } catch (e) {
      out.textContent = String(e);
      badge.textContent = 'not verified';
      badge.className = 'badge not-verified';
    } finally {
      button.disabled = false;
    }
  }

  // Indent for reading only; what is verified is the raw response.
  function pretty(text) {
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; }
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('#login').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      sessionStorage.setItem(KEY, $('#token').value);
      $('#token').value = '';
      await checkSession();
    });
    $('#logout-button').addEventListener('click', () => {
      sessionStorage.removeItem(KEY);
      setSession('not signed in');
    });
    $$('[data-toggle]').forEach((b) => b.addEventListener('click', () => toggle(b.dataset.toggle, b)));
    $$('[data-run]').forEach((b) => b.addEventListener('click', () => run(b.dataset.run, b)));
    checkSession();
  });
})();
