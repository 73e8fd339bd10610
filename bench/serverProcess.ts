// The test server in a child process (`test/server/cli.ts`), so what the bench measures in this
// process (CPU, heap) is the client's and the panel's alone.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  url: string;
  process: ChildProcess;
}

/** Starts the server with the CLI's flags (`--port 0 --quiet` added); resolves once it listens. */
export async function startServerProcess(flags: readonly string[]): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/server/cli.ts', '--port', '0', ...flags, '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let said = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(said);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the test server exited (${code}) before listening`)));
  });
  return { url, process: child };
}
