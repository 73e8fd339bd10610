/** The MCP & Git Providers page: the kit's locked-down document with the form's script, styles and root. */
import { webviewDocument } from '../../kit/host/document';

export { contentSecurityPolicy } from '../../kit/host/document';

export interface FormHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  lang: string;
}

export function formHtml(options: FormHtmlOptions): string {
  return webviewDocument({
    cspSource: options.cspSource,
    nonce: options.nonce,
    scriptUri: options.scriptUri,
    stylesheets: [{ href: options.codiconUri, id: 'vscode-codicon-stylesheet' }, { href: options.styleUri }],
    title: options.title,
    lang: options.lang,
    body: '<main id="app" aria-busy="true"></main>',
  });
}
