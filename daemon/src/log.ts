/** Concise stderr logging. Secrets registered with `redact` never reach the output, whatever the caller passes. */

export type Logger = {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  debug(line: string): void;
};

export type LogSink = (level: keyof Logger, line: string) => void;

/** Replaces every occurrence of each secret (non-empty, at least 4 chars so short words are not mangled). */
export function redact(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("‹redacted›");
  return out;
}

export function makeLogger(opts: { sink?: LogSink; secrets?: readonly string[]; debug?: boolean } = {}): Logger {
  const secrets = opts.secrets ?? [];
  const sink: LogSink = opts.sink ?? ((level, line) => process.stderr.write(`[baton]${level === "info" ? "" : ` ${level}:`} ${line}\n`));
  const write = (level: keyof Logger) => (line: string) => sink(level, redact(line, secrets));
  return {
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    debug: opts.debug ? write("debug") : () => {},
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}
