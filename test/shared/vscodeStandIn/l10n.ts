// `vscode.l10n` with no bundle loaded, as in an English VS Code: the message itself, `{0}` and `{name}`
// replaced by the arguments.
type Args = (string | number | boolean)[] | [Record<string, unknown>];

function format(message: string, args: Args): string {
  const named =
    args.length === 1 && typeof args[0] === 'object' ? (args[0] as Record<string, unknown>) : undefined;
  return message.replace(/\{([^}]+)\}/g, (whole, key: string) => {
    const value = named ? named[key] : (args as unknown[])[Number(key)];
    return value === undefined ? whole : String(value);
  });
}

export const l10n = {
  t(message: string | { message: string; args?: Args }, ...args: Args): string {
    return typeof message === 'string' ? format(message, args) : format(message.message, message.args ?? []);
  },
  bundle: undefined,
  uri: undefined,
};
