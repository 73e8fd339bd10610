/**
 * Markdown to DOM: `marked` (GFM) renders it, DOMPurify keeps only plain formatting, and the result
 * is cached per text so a row scrolled back into view is cloned, never parsed again.
 *
 * Nothing of the source's HTML survives: raw HTML in the markdown is escaped by the renderer (it
 * shows as text), images become their alt text, task-list boxes become characters, and a link is
 * kept only for http(s) and mailto (`linkPolicy`); any other link is its text. DOMPurify then allows
 * a fixed list of tags and attributes, so even a bug in the renderer cannot produce a script, a
 * frame, a form, a style or an event attribute. Links never navigate: the page intercepts clicks.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { safeLinkUrl } from './linkPolicy';

const ALLOWED_TAGS = [
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
const ALLOWED_ATTR = ['href', 'title', 'align', 'start'];

const purifier = DOMPurify(window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName !== 'A') return;
  const element = node as Element;
  const href = safeLinkUrl(element.getAttribute('href'));
  if (href === undefined) element.removeAttribute('href');
  else {
    element.setAttribute('href', href);
    element.setAttribute('rel', 'noopener noreferrer');
  }
});

const PURIFY_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: [...ALLOWED_ATTR, 'rel'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  KEEP_CONTENT: true,
};

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // raw HTML (block or inline) is shown as the text it is
    html(token: Tokens.HTML | Tokens.Tag): string {
      const text = escapeHtml(token.text);
      return token.block ? `<p>${text.trimEnd()}</p>\n` : text;
    },
    // the CSP loads no remote image, and a tracking pixel must not even be tried: the alt text
    image({ text }: Tokens.Image): string {
      return escapeHtml(text);
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? '☑ ' : '☐ ';
    },
    link(token: Tokens.Link): string {
      const inner = this.parser.parseInline(token.tokens);
      const href = safeLinkUrl(token.href);
      if (href === undefined) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<a href="${escapeHtml(href)}"${title}>${inner}</a>`;
    },
  },
});

function rendered(markdown: string): string {
  try {
    return marked.parse(markdown, { async: false });
  } catch {
    return `<p>${escapeHtml(markdown)}</p>`;
  }
}

/** Sanitised HTML of `markdown` (plain formatting and safe links), as a string. */
export function markdownToHtml(markdown: string): string {
  return purifier.sanitize(rendered(markdown), PURIFY_CONFIG);
}

/** Parsed markdown by text: the most recently used kept, the oldest dropped first. */
const MAX_CACHED = 600;
const cache = new Map<string, DocumentFragment>();

/**
 * A fresh copy of the rendered markdown, parsed and sanitised once per text. DOMPurify's own
 * fragment is kept (inert, in its own document) and cloned into the page: the sanitised tree is
 * never serialised and parsed again.
 */
export function markdownFragment(markdown: string): DocumentFragment {
  let fragment = cache.get(markdown);
  if (fragment) {
    cache.delete(markdown);
  } else {
    fragment = purifier.sanitize(rendered(markdown), { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true });
    if (cache.size >= MAX_CACHED) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
  }
  cache.set(markdown, fragment);
  return document.importNode(fragment, true);
}

/** For the bench and tests: how many texts are parsed and kept. */
export function markdownCacheSize(): number {
  return cache.size;
}
