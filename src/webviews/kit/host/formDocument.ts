/** A form page's document: the kit's locked-down document with the page's script, styles and root. */
import { webviewDocument } from './document';

export interface FormDocumentOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  lang: string;
}

export function formDocument(options: FormDocumentOptions): string {
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
