/**
 * A row's height before it was ever rendered, from its kind and the length of its texts, close
 * enough that the scrollbar does not jump much when the real height is measured. The figures follow
 * `rowViews.css` and `imageView.css` (13px prose at 1.5, 12px monospace at 1.4, the blocks' max heights).
 * Pure (no DOM): unit-tested in Node.
 */
import type { ActionRow, ImageRef, Row } from '../shared/rows';

export const LAYOUT = {
  /** Space between rows (the row's own vertical padding). */
  rowGap: 12,
  proseLine: 19.5,
  proseChar: 7,
  monoLine: 17,
  monoChar: 7.3,
  /** Padding and meta line of a bubble. */
  bubbleChrome: 44,
  /** Border and padding of an action card, plus its first line. */
  cardChrome: 42,
  /** A folded `<details>` line, or a "Show all" button. */
  foldLine: 24,
  /** Lines an output block shows before it scrolls (`max-height` in the CSS). */
  outputLines: 18,
  diffLines: 24,
  resultLines: 12,
  /** A block's padding. */
  blockChrome: 14,
  /** The most a message bubble takes of the column (in the CSS: `max-width: 88%`). */
  bubbleShare: 0.88,
  /** Notice details up to this many characters show open; longer ones fold. */
  openDetail: 240,
  /** The tallest an image is drawn in the transcript (the editor tab shows it whole). */
  imageMaxHeight: 320,
  /** An image's caption and margins. */
  imageChrome: 30,
} as const;

/** An image's shape (width over height); 16:10 while its size is not known. */
export function imageRatio(width: number | undefined, height: number | undefined): number {
  return width && height ? width / height : 16 / 10;
}

/** The height of a row's images in a column `column` pixels wide (each as `imageView.ts` sizes it). */
export function imagesHeight(images: readonly ImageRef[] | undefined, column: number): number {
  let height = 0;
  for (const ref of images ?? []) {
    const ratio = imageRatio(ref.width, ref.height);
    const width = Math.min(column, ref.width ?? column, LAYOUT.imageMaxHeight * ratio);
    height += width / ratio + LAYOUT.imageChrome;
  }
  return height;
}

/** Lines `text` takes when wrapped at `perLine` characters, counting at most `cap`. */
export function wrappedLines(text: string, perLine: number, cap: number): number {
  const width = Math.max(1, Math.floor(perLine));
  let lines = 0;
  let from = 0;
  while (from <= text.length && lines < cap) {
    const next = text.indexOf('\n', from);
    const end = next === -1 ? text.length : next;
    lines += Math.max(1, Math.ceil((end - from) / width));
    if (next === -1) break;
    from = next + 1;
  }
  return Math.min(lines, cap);
}

/** Lines of a block that wraps nothing (terminal output, diffs): one per line break. */
export function plainLines(text: string, cap: number): number {
  let lines = 1;
  let from = text.indexOf('\n');
  while (from !== -1 && lines < cap) {
    lines++;
    from = text.indexOf('\n', from + 1);
  }
  return Math.min(lines, cap);
}

/** The estimated height in pixels of `row` in a column `width` pixels wide. */
export function estimateHeight(row: Row, width: number): number {
  const column = Math.max(200, Number.isFinite(width) ? width : 600);
  switch (row.kind) {
    case 'message': {
      if (row.role === 'environment') return LAYOUT.rowGap + LAYOUT.proseLine + 6;
      const perLine = (column * LAYOUT.bubbleShare - 26) / LAYOUT.proseChar;
      // markdown: paragraphs and block margins add roughly half a line each
      const lines = wrappedLines(row.markdown, perLine, 2000) * 1.15;
      return (
        LAYOUT.rowGap +
        LAYOUT.bubbleChrome +
        lines * LAYOUT.proseLine +
        (row.reasoning ? LAYOUT.foldLine : 0) +
        (row.clip ? LAYOUT.foldLine : 0) +
        imagesHeight(row.images, column * LAYOUT.bubbleShare - 26)
      );
    }
    case 'streaming': {
      const perLine = (column * LAYOUT.bubbleShare - 26) / LAYOUT.proseChar;
      return (
        LAYOUT.rowGap +
        LAYOUT.bubbleChrome +
        wrappedLines(row.text, perLine, 2000) * LAYOUT.proseLine +
        (row.reasoning ? LAYOUT.foldLine : 0)
      );
    }
    case 'action':
      return LAYOUT.rowGap + LAYOUT.cardChrome + actionBody(row) + imagesHeight(row.images, column - 26);
    case 'notice': {
      let height = LAYOUT.rowGap + 18 + LAYOUT.proseLine;
      if (row.detail) {
        height +=
          row.detail.length <= LAYOUT.openDetail
            ? wrappedLines(row.detail, (column - 60) / LAYOUT.proseChar, 12) * LAYOUT.proseLine
            : LAYOUT.foldLine;
      }
      return height + (row.detailClip ? LAYOUT.foldLine : 0);
    }
    case 'generic':
      return LAYOUT.rowGap + LAYOUT.proseLine + 2;
    default:
      return LAYOUT.rowGap + LAYOUT.proseLine;
  }
}

function actionBody(row: ActionRow): number {
  let height = row.thought ? LAYOUT.foldLine : 0;
  const block = (lines: number) => LAYOUT.blockChrome + lines * LAYOUT.monoLine;
  if (row.terminal) {
    height += LAYOUT.monoLine + 10;
    if (row.terminal.output !== undefined && row.terminal.output !== '')
      height += block(plainLines(row.terminal.output, LAYOUT.outputLines));
    if (row.terminal.outputClip) height += LAYOUT.foldLine;
  }
  if (row.edit) {
    height += LAYOUT.proseLine + 6;
    if (row.edit.lines.length > 0) height += block(Math.min(row.edit.lines.length, LAYOUT.diffLines));
  }
  if (row.result !== undefined && row.result !== '') {
    height += block(plainLines(row.result, LAYOUT.resultLines));
    if (row.resultClip) height += LAYOUT.foldLine;
  }
  return height;
}

/**
 * A cheap stand-in for a row's content (its kind, state and the lengths of its texts): a measured
 * height is kept for a row id and this version.
 */
export function rowVersion(row: Row): string {
  switch (row.kind) {
    case 'message':
      return `m${row.role}:${row.markdown.length}:${row.reasoning?.length ?? -1}:${row.clip ? 1 : 0}:${row.images?.length ?? 0}`;
    case 'action':
      return [
        'a',
        row.state,
        row.summary.length,
        row.thought?.length ?? -1,
        row.terminal ? `${row.terminal.output?.length ?? -1}/${row.terminal.exitCode ?? ''}` : '',
        row.edit ? row.edit.lines.length : '',
        row.result?.length ?? -1,
        (row.terminal?.outputClip ? 1 : 0) + (row.resultClip ? 2 : 0),
        row.images?.length ?? 0,
      ].join(':');
    case 'notice':
      return `n${row.level}:${row.title.length}:${row.detail?.length ?? -1}:${row.detailClip ? 1 : 0}`;
    case 'streaming':
      return `s${row.text.length}:${row.reasoning?.length ?? -1}`;
    case 'generic':
      return `g${row.summary.length}`;
    default:
      return '?';
  }
}
