/**
 * What the server-rendered pages of the authorization flow (sign-in, consent, error) share: the frame, the escaping
 * every interpolated value goes through, and their headers.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.4}
h1{font-size:1.4rem}li{margin:.3rem 0}code{color:#555}.actions{display:flex;gap:1rem;margin-top:2rem}
button{font-size:1rem;padding:.6rem 1.5rem;min-height:2.75rem;border:1px solid #767676;border-radius:4px;background:#f3f3f3}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
label{display:block;margin:1rem 0 .3rem;font-weight:600}
input{box-sizing:border-box;width:100%;min-height:2.75rem;font-size:1rem;padding:.6rem;border:1px solid #767676;border-radius:4px}
.problem{color:#a00000;border-left:4px solid #a00000;padding:.2rem .8rem}`;

export const page = (title: string, content: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body>
${content}
</body></html>`;

export const errorPage = (message: string) =>
  page('Authorization failed', `<h1>This authorization request cannot be completed</h1>
<p>${escape(message)}</p>
<p>The application sent you here with a request that does not match its registration, so you are not sent back to it.</p>`);

/**
 * Headers of the pages: never cached, never framed (clickjacking), no scripts; forms may post to us and (consent)
 * be redirected on to the client. `Referrer-Policy: same-origin` rather than the service's `no-referrer`: under
 * `no-referrer` a browser sends `Origin: null` with the page's own form POST, which the Origin check must refuse;
 * `same-origin` sends our origin to us and still nothing (neither Referer nor the page's query) to anyone else.
 */
export function pageHeaders(redirectOrigin: string | null): Record<string, string> {
  const formAction = ["'self'", redirectOrigin].filter(Boolean).join(' ');
  return {
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Content-Security-Policy':
      `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
}
