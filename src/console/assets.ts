// The console's one stylesheet and one small script, served by the Worker as static text (no build step).

export const STYLESHEET = `
:root { --fg: #1a1a1b; --muted: #57595c; --line: #d7d9db; --bg: #f6f7f8; --accent: #0b57d0; --danger: #b3261e;
  --ok: #176b3a; --warn: #8a5300; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45; }
a { color: var(--accent); }
header.top { background: #fff; border-bottom: 1px solid var(--line); padding: .5rem 1rem; display: flex;
  flex-wrap: wrap; gap: .75rem 1.25rem; align-items: center; }
header.top .brand { font-weight: 700; color: var(--fg); text-decoration: none; }
header.top nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; }
header.top nav a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
header.top .who { margin-left: auto; display: flex; gap: .5rem; align-items: center; color: var(--muted); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
nav.tabs { display: flex; gap: 1rem; margin: 0 0 .75rem; }
nav.tabs a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); border-bottom: 2px solid var(--fg); }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 .75rem; }
.row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.row > .wide { flex: 1 1 30rem; } .row > .wide input { width: 100%; }
label { display: block; font-size: .9rem; color: var(--muted); }
label.inline { display: inline-flex; gap: .35rem; align-items: center; color: var(--fg); }
input, select, textarea { font: inherit; padding: .35rem .5rem; border: 1px solid #8a8d91; border-radius: 4px;
  background: #fff; color: var(--fg); max-width: 100%; }
input[aria-invalid="true"] { border-color: var(--danger); }
button, .button { font: inherit; padding: .35rem .8rem; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button[disabled] { background: #e4e5e7; color: #505357; border-color: #b8babd; cursor: not-allowed; }
form.inline { display: inline; }
div.compact, form.compact { display: flex; flex-wrap: nowrap; gap: .25rem .6rem; align-items: center; white-space: nowrap; }
form.compact label:not(.inline) { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
form.compact input[type="text"] { width: 12rem; }
.error { color: var(--danger); font-size: .9rem; margin: .2rem 0 0; }
.notice { border-left: 4px solid var(--accent); background: #fff; padding: .6rem .9rem; margin: 0 0 1rem; }
.notice.bad { border-color: var(--danger); }
.notice.good { border-color: var(--ok); }
.badge { display: inline-block; font-size: .8rem; padding: 0 .45rem; border-radius: 999px; border: 1px solid currentColor; }
.badge.high, .badge.urgent, .badge.failed, .badge.removed, .badge.spam_filtered, .badge.deleted { color: var(--danger); }
.badge.medium, .badge.queued { color: var(--warn); }
.badge.low, .badge.not_urgent, .badge.draft { color: var(--muted); }
.badge.published, .badge.approved, .badge.live { color: var(--ok); }
form.edit input, form.edit textarea { width: 100%; }
form.edit textarea { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
.meta { color: var(--muted); font-size: .9rem; }
.reasons { margin: .25rem 0; padding-left: 1.1rem; color: var(--muted); font-size: .9rem; }
table.list { width: 100%; border-collapse: collapse; background: #fff; }
table.list th, table.list td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.post h3 { margin: 0 0 .25rem; font-size: 1.05rem; }
.post .body { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 8rem; overflow: auto; font-size: .95rem; }
.actions { display: flex; flex-wrap: wrap; gap: .4rem; margin-top: .5rem; }
.pager { display: flex; gap: 1rem; align-items: center; margin: 1rem 0; }
.forum { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; overflow-wrap: anywhere; }
.forum .sr { font-size: .85rem; color: var(--muted); }
.forum h2.title { font-size: 1.3rem; margin: .25rem 0 .75rem; }
.forum img { max-width: 100%; height: auto; }
.forum pre { background: var(--bg); padding: .5rem; overflow: auto; }
.forum blockquote { border-left: 4px solid var(--line); margin: 0; padding-left: .75rem; color: var(--muted); }
.forum table { border-collapse: collapse; }
.forum th, .forum td { border: 1px solid var(--line); padding: .25rem .5rem; }
.forum .align-left { text-align: left; } .forum .align-right { text-align: right; } .forum .align-center { text-align: center; }
.forum .md-spoiler-text { background: #1a1a1b; color: #fff; border-radius: 2px; padding: 0 .2em; }
.forum blockquote.md-spoiler-text { padding: .25rem .75rem; }
ul.gates { list-style: none; padding: 0; }
ul.gates li::before { content: "✗ "; color: var(--danger); }
ul.gates li.open::before { content: "✓ "; color: var(--ok); }
details.inactive-keys { margin: 1rem 0; } details.inactive-keys summary { cursor: pointer; color: var(--muted); }
code.key { font-size: 1rem; background: #fff; border: 1px dashed var(--accent); padding: .3rem .5rem; word-break: break-all; }
.insight { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
.insight svg.chart { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
svg.chart .grid { stroke: var(--line); stroke-width: 1; }
svg.chart .tick, svg.chart .label { fill: var(--muted); font-size: 13px; }
svg.chart .label { fill: var(--fg); }
.scroll { overflow-x: auto; max-width: 100%; }
table.data { border-collapse: collapse; background: #fff; font-size: .9rem; white-space: nowrap; }
table.data caption { text-align: left; font-weight: 600; padding: .25rem 0; }
table.data th, table.data td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: right; }
table.data th[scope="row"], table.data thead th:first-child { text-align: left; }
ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; margin: .5rem 0; font-size: .9rem; }
.swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: 2px; margin-right: .35rem; vertical-align: -2px; }
.swatch.c0 { background: #0b57d0; }
.swatch.c1 { background: #b3261e; }
.swatch.c2 { background: #176b3a; }
.swatch.c3 { background: #8a5300; }
.swatch.c4 { background: #6b3fa0; }
.swatch.c5 { background: #00696f; }
.swatch.c6 { background: #a1467e; }
.swatch.c7 { background: #4d5761; }
@media (max-width: 50rem) { .insight { grid-template-columns: minmax(0, 1fr); } }
@media (max-width: 40rem) { header.top .who { margin-left: 0; } table.list th:nth-child(n+4), table.list td:nth-child(n+4) { display: none; } }
`;

/**
 * The one script: asks before a destructive button submits its form (delete, revoke), and copies a newly
 * issued key. Everything works without it.
 */
export const SCRIPT = `
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var question = button && button.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof HTMLElement) || !target.hasAttribute("data-copy")) return;
  var source = document.getElementById(target.getAttribute("data-copy"));
  if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent || "");
});
function passkeyPost(path, fields) {
  var body = new URLSearchParams(fields);
  return fetch(path, { method: "POST", body: body, credentials: "same-origin" }).then(function (res) {
    return res.json().then(function (json) {
      if (!res.ok) throw new Error(json.error || "refused");
      return json;
    });
  });
}
function passkeyFailed(error) {
  var box = document.getElementById("passkey-error");
  if (box) {
    box.textContent = "Passkey refused: " + (error && error.message ? error.message : String(error));
    box.hidden = false;
  }
}
document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof HTMLElement) || !window.PublicKeyCredential) return;
  if (target.id === "passkey-button") {
    var csrf = document.getElementById("passkey-sign-in").getAttribute("data-passkey-sign-in");
    passkeyPost("/app/sign-in/passkey/options", { _csrf: csrf })
      .then(function (options) {
        return navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
      })
      .then(function (credential) {
        return passkeyPost("/app/sign-in/passkey", { _csrf: csrf, credential: JSON.stringify(credential.toJSON()) });
      })
      .then(function (answer) { window.location.assign(answer.next); }, passkeyFailed);
  }
  if (target.id === "passkey-add") {
    var token = document.getElementById("passkey-register").getAttribute("data-passkey-register");
    var name = document.getElementById("f-passkey_name").value;
    passkeyPost("/app/settings/account/passkeys/options", { _csrf: token })
      .then(function (options) {
        return navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
      })
      .then(function (credential) {
        return passkeyPost("/app/settings/account/passkeys", {
          _csrf: token, name: name, credential: JSON.stringify(credential.toJSON()),
        });
      })
      .then(function (answer) { window.location.assign(answer.next); }, passkeyFailed);
  }
});
`;
