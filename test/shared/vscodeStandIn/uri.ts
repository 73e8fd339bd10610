// `vscode.Uri` as far as the extension's logic uses it: its parts, `parse`, `file`, `from`, `joinPath`,
// `with` and `toString`. Parts are kept as given (VS Code percent-encodes some on `toString`).
import * as path from 'node:path';
import type * as vscode from 'vscode';

interface UriParts {
  scheme: string;
  authority: string;
  path: string;
  query: string;
  fragment: string;
}

// RFC 3986's appendix B, as VS Code's own parser
const URI_PATTERN = /^(([^:/?#]+?):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/;

export class Uri implements vscode.Uri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;

  private constructor(parts: UriParts) {
    this.scheme = parts.scheme;
    this.authority = parts.authority;
    this.path = parts.path;
    this.query = parts.query;
    this.fragment = parts.fragment;
  }

  static parse(value: string, strict = false): Uri {
    const match = URI_PATTERN.exec(value);
    const scheme = match?.[2] ?? '';
    if (strict && !scheme) throw new Error(`[UriError]: Scheme is missing: {scheme: "", path: "${value}"}`);
    return new Uri({
      scheme: scheme || 'file',
      authority: decode(match?.[4] ?? ''),
      path: decode(match?.[5] ?? ''),
      query: decode(match?.[7] ?? ''),
      fragment: decode(match?.[9] ?? ''),
    });
  }

  static file(fsPath: string): Uri {
    const slashed = fsPath.replace(/\\/g, '/');
    return new Uri({
      scheme: 'file',
      authority: '',
      path: slashed.startsWith('/') ? slashed : `/${slashed}`,
      query: '',
      fragment: '',
    });
  }

  static from(parts: Partial<UriParts> & { scheme: string }): Uri {
    return new Uri({ authority: '', path: '', query: '', fragment: '', ...parts });
  }

  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: path.posix.join(base.path || '/', ...segments) });
  }

  get fsPath(): string {
    return this.authority && this.scheme === 'file' ? `//${this.authority}${this.path}` : this.path;
  }

  with(change: Partial<UriParts>): Uri {
    return new Uri({ ...this.parts(), ...change });
  }

  toString(): string {
    const { scheme, authority, path: uriPath, query, fragment } = this;
    return `${scheme}:${authority || scheme === 'file' ? `//${authority}` : ''}${uriPath}${query ? `?${query}` : ''}${fragment ? `#${fragment}` : ''}`;
  }

  toJSON(): UriParts {
    return this.parts();
  }

  private parts(): UriParts {
    return {
      scheme: this.scheme,
      authority: this.authority,
      path: this.path,
      query: this.query,
      fragment: this.fragment,
    };
  }
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
