// What the refresh driver tells the extension host, shared by both sides (no vscode import here).
export const BENCH_REPORT_ENV = 'OPENHANDS_BENCH_REPORT';
export const BENCH_SERVER_URL_ENV = 'OPENHANDS_BENCH_SERVER_URL';
/** Poll cycles of the idle figure (the 10 minutes at 1 s were 595). */
export const BENCH_IDLE_CYCLES_ENV = 'OPENHANDS_BENCH_IDLE_CYCLES';
/** A file to write a CPU profile of the idle polling into (unset: none). */
export const BENCH_PROFILE_ENV = 'OPENHANDS_BENCH_CPU_PROFILE';
