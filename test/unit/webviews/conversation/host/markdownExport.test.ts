// The transcript as a Markdown file: the panel's rows in order, secrets masked, pictures as files
// named here (never by the event), linked relatively, and what the agent wrote kept as text.
import assert from 'node:assert/strict';
import { transcriptMarkdown } from '../../../../../src/webviews/conversation/host/markdownExport';
import {
  agentMessage,
  numberedEvents,
  terminalAction,
  terminalObservation,
  userMessage,
} from '../../../../shared/agentEvents';
import { fixtureImage } from '../../../../shared/images';

const SECRET = 'sk-session-9f8e7d6c5b4a';

describe('transcriptMarkdown', () => {
  const png = fixtureImage('page.png');
  const event = numberedEvents('ev-../../x');
  const events = [
    event(userMessage('Please fix the build')),
    event(terminalAction('env | grep KEY', 'call-1')),
    event(
      terminalObservation('env | grep KEY', `KEY=${SECRET}\n\`\`\`\nnot the end`, 0, {
        callId: 'call-1',
        actionId: 'ev-../../x2',
      }),
    ),
    event({
      kind: 'MessageEvent',
      source: 'agent',
      llm_message: {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: 'Done. <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n```html\n<b>kept in code</b>\n```',
          },
          {
            type: 'image',
            image_urls: [`data:image/png;base64,${png.toString('base64')}`, 'javascript:alert(1)'],
          },
        ],
      },
    }),
    event(agentMessage(`The key was ${SECRET}.`)),
  ];
  const exported = transcriptMarkdown(events, {
    title: 'Fix <the> build',
    secrets: [SECRET],
    picturesFolder: 'fix build_files',
  });

  it('holds the rows in order, the title escaped', () => {
    const md = exported.markdown;
    assert.ok(md.startsWith('# Fix \\<the\\> build\n'));
    const order = ['## User', '### terminal:', '## Agent', 'The key was'].map((text) => md.indexOf(text));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
    assert.ok(
      order.every((at) => at >= 0),
      md,
    );
    assert.match(md, /\$ env \| grep KEY/);
  });

  it('masks every secret the extension knows', () => {
    assert.equal(exported.markdown.includes(SECRET), false);
    assert.match(exported.markdown, /KEY=\S*•|KEY=\*+|KEY=\[?redacted/i);
  });

  it('keeps raw HTML as text outside code, and fences an output longer than the backticks inside it', () => {
    assert.equal(exported.markdown.includes('<script>'), false);
    assert.equal(exported.markdown.includes('<img'), false);
    assert.match(exported.markdown, /&lt;script>/);
    assert.match(exported.markdown, /<b>kept in code<\/b>/);
    assert.match(exported.markdown, /````text\nKEY=.*\n```\nnot the end\n````/);
  });

  it('writes each checked picture as a numbered file linked relatively; a refused one is said in words', () => {
    assert.deepEqual(
      exported.pictures.map((picture) => picture.name),
      ['picture-001.png'],
    );
    assert.deepEqual(exported.pictures[0]?.bytes, png);
    assert.match(exported.markdown, /!\[[^\]]*\]\(fix%20build_files\/picture-001\.png\)/);
    assert.match(exported.markdown, /An image cannot be shown: not a base64 image data URL\./);
  });
});
