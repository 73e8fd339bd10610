// The one function of subset-font's converter the codicon test uses (the package ships no types).
declare module 'fontverter' {
  export function convert(font: Buffer, toFormat: 'truetype' | 'woff' | 'woff2'): Promise<Buffer>;
}
