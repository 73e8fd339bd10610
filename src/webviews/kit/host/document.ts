/**
 * A webview's HTML document: nothing loads unless the CSP allows it. The script needs this load's
 * nonce (an ES module: the chunk it imports is fetched under the same nonce); styles, fonts and images
 * come only from the extension's built webview folder (`cspSource`).
 */
export interface WebviewDocument {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  /** In order; an `id` lets a library find its stylesheet (vscode-elements looks for the codicons by id). */
  stylesheets: { href: string; id?: string }[];
  title: string;
  lang: string;
  /** What the page's script renders into, as trusted markup. */
  body: string;
  /**
   * The page shows images it makes itself from bytes the host checked (`blob:` URLs it creates);
   * no other page may, and no page loads an image from anywhere else.
   */
  blobImages?: boolean;
}

export function contentSecurityPolicy(cspSource: string, nonce: string, blobImages = false): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}${blobImages ? ' blob:' : ''}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function webviewDocument(doc: WebviewDocument): string {
  const attr = escapeAttribute;
  const links = doc.stylesheets
    .map(
      (sheet) =>
        `<link rel="stylesheet" href="${attr(sheet.href)}"${sheet.id ? ` id="${attr(sheet.id)}"` : ''}>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="${attr(doc.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(doc.cspSource, doc.nonce, doc.blobImages))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
<title>${escapeText(doc.title)}</title>
</head>
<body>
${doc.body}
<script type="module" nonce="${attr(doc.nonce)}" src="${attr(doc.scriptUri)}"></script>
</body>
</html>`;
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;');
}
