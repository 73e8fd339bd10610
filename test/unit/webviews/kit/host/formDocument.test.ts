import assert from 'node:assert/strict';
import { contentSecurityPolicy } from '../../../../../src/webviews/kit/host/document';
import { formDocument } from '../../../../../src/webviews/kit/host/formDocument';

describe('form webview document', () => {
  it('allows nothing by default, scripts only with the nonce, styles and fonts only from the webview folder', () => {
    assert.equal(
      contentSecurityPolicy('https://cdn.vscode', 'N0nce'),
      "default-src 'none'; style-src https://cdn.vscode; font-src https://cdn.vscode; img-src https://cdn.vscode; script-src 'nonce-N0nce'",
    );
  });

  it('links the codicon stylesheet with the id VS Code Elements looks for, and escapes what it embeds', () => {
    const html = formDocument({
      cspSource: 'https://cdn.vscode',
      nonce: 'abc"def',
      scriptUri: 'https://cdn.vscode/mcpForm.js',
      styleUri: 'https://cdn.vscode/mcpForm.css',
      codiconUri: 'https://cdn.vscode/codicon.css',
      title: 'A <b> title',
      lang: 'en',
    });
    assert.match(
      html,
      /<link rel="stylesheet" href="https:\/\/cdn\.vscode\/codicon\.css" id="vscode-codicon-stylesheet">/,
    );
    // a module: the chunk it imports comes under the same nonce
    assert.match(
      html,
      /<script type="module" nonce="abc&quot;def" src="https:\/\/cdn\.vscode\/mcpForm\.js"><\/script>/,
    );
    assert.match(html, /<title>A &lt;b&gt; title<\/title>/);
    assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script, no inline code');
  });
});
