// Which strings of a JSON value are an image's data, told without decoding them (no Node APIs: the
// log's redaction, which webview code shares, asks too).

/**
 * Whether a JSON string is an image's data (a `screenshot_data` value under its key, or a `data:image/`
 * URL anywhere): held as its head by the event log, said by its length in a logged body.
 */
export function isImageData(key: string | undefined, value: string): boolean {
  return key === 'screenshot_data' || value.startsWith('data:image/');
}
