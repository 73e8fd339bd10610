/**
 * The webview document: nothing loads unless the CSP allows it. Scripts need this load's nonce;
 * styles and fonts come only from the extension's built webview folder (`cspSource`).
 */
export interface FormHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  lang: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function formHtml(options: FormHtmlOptions): string {
  const attr = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="${attr(options.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(options.cspSource, options.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(options.codiconUri)}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${attr(options.styleUri)}">
<title>${escapeText(options.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${attr(options.nonce)}" src="${attr(options.scriptUri)}"></script>
</body>
</html>`;
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;');
}
