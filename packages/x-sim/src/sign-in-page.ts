/** Escapes text for HTML. */
export function html(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * The simulated X's sign-in page: a Handle field (X's rules: 1–15 letters, digits, underscore), optional facts for
 * a handle the world does not know yet, and Authorize app / Cancel. Plain HTML with an external stylesheet, so it
 * works under a strict Content-Security-Policy.
 */
export function signInPage(
  params: Record<string, string>,
  options: { clientName: string; error?: string },
): string {
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${html(name)}" value="${html(value)}">`)
    .join('\n      ');
  const scopes = (params.scope ?? '').split(' ').filter(Boolean);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Sign in to the simulated X</title>
    <link rel="stylesheet" href="../../assets/sign-in.css">
  </head>
  <body>
    <main>
      <p class="badge">Simulated X — no real account is used</p>
      <h1>Authorize ${html(options.clientName)}</h1>
      <p>This app wants to: ${scopes.map((s) => `<code>${html(s)}</code>`).join(' ')}</p>
      ${options.error ? `<p class="error" role="alert">${html(options.error)}</p>` : ''}
      <form method="post" action="authorize">
      ${hidden}
        <label for="handle">Handle</label>
        <input id="handle" name="handle" autocomplete="username" required maxlength="16" pattern="@?[A-Za-z0-9_]{1,15}" placeholder="e.g. mana_fan" aria-describedby="handle-hint">
        <p id="handle-hint" class="hint">1 to 15 letters, digits or underscores. A handle the simulation does not know yet becomes a new account.</p>
        <fieldset>
          <legend>For a new handle (optional)</legend>
          <label for="account_age_days">Account age in days</label>
          <input id="account_age_days" name="account_age_days" type="number" min="0" max="7000" inputmode="numeric">
          <label for="followers">Follower count</label>
          <input id="followers" name="followers" type="number" min="0" max="100000000" inputmode="numeric">
        </fieldset>
        <div class="actions">
          <button type="submit" name="decision" value="allow">Authorize app</button>
          <button type="submit" name="decision" value="deny" formnovalidate class="secondary">Cancel</button>
        </div>
      </form>
    </main>
  </body>
</html>`;
}

/** The sign-in page's stylesheet, served by the plugin at `assets/sign-in.css` (no inline styles: strict CSP). */
export const signInCss = `
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#000;color:#e7e9ea;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{width:min(420px,92vw);padding:32px;border:1px solid #2f3336;border-radius:16px;background:#0f1419}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
.badge{display:inline-block;font-size:.75rem;color:#fbbf24;border:1px solid #fbbf2466;border-radius:999px;padding:2px 10px;margin:0}
code{background:#1d2328;border-radius:4px;padding:1px 5px;font-size:.8rem}
label{display:block;margin:14px 0 6px;font-weight:600}
input{box-sizing:border-box;width:100%;padding:10px 12px;border-radius:8px;border:1px solid #536471;background:#000;color:#e7e9ea;font-size:1rem}
input:focus{outline:2px solid #1d9bf0;outline-offset:1px}
fieldset{border:1px solid #2f3336;border-radius:10px;margin:16px 0 0;padding:4px 12px 12px}
legend{color:#8b98a5;font-size:.85rem}
.actions{display:flex;gap:12px;margin-top:22px}
button{flex:1;padding:11px 14px;border-radius:999px;border:0;font-weight:700;font-size:1rem;cursor:pointer;background:#e7e9ea;color:#0f1419}
button.secondary{background:transparent;color:#e7e9ea;border:1px solid #536471}
button:focus-visible{outline:2px solid #1d9bf0;outline-offset:2px}
.error{color:#f4212e}
.hint{color:#8b98a5;font-size:.85rem;margin:6px 0 0}
`;
