/**
 * Images the user attaches to a message (pasted, dropped, or given by Send Image to Conversation…):
 * held in the page's memory only (never in `setState`), each shown from a `blob:` URL made here, at
 * most `MAX_ATTACHMENTS`. The kind is read from the bytes' signature and the size is capped, so what
 * is not a PNG, JPEG, GIF or WebP is refused with a reason at once; the host checks the bytes again.
 */
import { MAX_ATTACHMENTS, type Attachment } from '../shared/protocol';

/** As the host's cap (MAX_IMAGE_BYTES in api/agentServer/images.ts). */
export const MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024;

export interface HeldAttachment extends Attachment {
  id: number;
  url: string;
  bytes: number;
}

const SIGNATURES: [Attachment['mime'], (bytes: Uint8Array) => boolean][] = [
  ['image/png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38],
  [
    'image/webp',
    (b) =>
      String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
      String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
  ],
];

export function imageKind(bytes: Uint8Array): Attachment['mime'] | undefined {
  return SIGNATURES.find(([, matches]) => matches(bytes))?.[0];
}

export class Attachments {
  private held: HeldAttachment[] = [];
  private next = 1;

  get list(): readonly HeldAttachment[] {
    return this.held;
  }

  /** What the host is sent. */
  payload(): Attachment[] {
    return this.held.map(({ name, mime, base64 }) => ({ name, mime, base64 }));
  }

  /** Adds files; returns why any was refused (one line each). */
  async addFiles(files: readonly File[]): Promise<string[]> {
    const problems: string[] = [];
    for (const file of files) {
      const problem = this.roomFor(file.name, file.size);
      if (problem) {
        problems.push(problem);
        continue;
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const added = this.addBytes(file.name || 'pasted image', bytes);
      if (added) problems.push(added);
    }
    return problems;
  }

  /** Adds images the host gives (already checked there). */
  addChecked(images: readonly Attachment[]): void {
    for (const image of images) {
      if (this.held.length >= MAX_ATTACHMENTS) return;
      this.hold(image, decodeBase64(image.base64));
    }
  }

  remove(id: number): void {
    const gone = this.held.find((attachment) => attachment.id === id);
    if (gone) URL.revokeObjectURL(gone.url);
    this.held = this.held.filter((attachment) => attachment !== gone);
  }

  clear(): void {
    for (const attachment of this.held) URL.revokeObjectURL(attachment.url);
    this.held = [];
  }

  private roomFor(name: string, size: number): string | undefined {
    const label = name || 'The pasted image';
    if (this.held.length >= MAX_ATTACHMENTS)
      return `${label}: a message takes at most ${MAX_ATTACHMENTS} images.`;
    if (size > MAX_ATTACHMENT_BYTES) return `${label} is larger than 8 MB.`;
    return undefined;
  }

  private addBytes(name: string, bytes: Uint8Array<ArrayBuffer>): string | undefined {
    const mime = imageKind(bytes);
    if (!mime) return `${name} is not a PNG, JPEG, GIF or WebP image.`;
    this.hold({ name: name.slice(0, 260), mime, base64: encodeBase64(bytes) }, bytes);
    return undefined;
  }

  private hold(image: Attachment, bytes: Uint8Array<ArrayBuffer>): void {
    const url = URL.createObjectURL(new Blob([bytes], { type: image.mime }));
    this.held.push({ ...image, id: this.next++, url, bytes: bytes.length });
  }
}

function encodeBase64(bytes: Uint8Array): string {
  let text = '';
  // in slices: String.fromCharCode(...bytes) overflows the stack on a few MB
  for (let at = 0; at < bytes.length; at += 0x8000)
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}

export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}
