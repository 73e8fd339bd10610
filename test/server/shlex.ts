// Python's `shlex.split` (POSIX mode, no comments): MCP stdio `args` may be sent as one shell string.

export function shlexSplit(input: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < input.length; i++) {
    const char = input.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = null;
      else current += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && i + 1 < input.length && '\\"$`\n'.includes(input.charAt(i + 1)))
        current += input.charAt(++i);
      else current += char;
      continue;
    }
    if (/\s/.test(char)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
      continue;
    }
    inToken = true;
    if (char === "'" || char === '"') quote = char;
    else if (char === '\\') {
      if (i + 1 >= input.length) throw new Error('No escaped character');
      current += input.charAt(++i);
    } else current += char;
  }
  if (quote !== null) throw new Error('No closing quotation');
  if (inToken) tokens.push(current);
  return tokens;
}
