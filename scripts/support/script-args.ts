import { parseArgs, type ParseArgsConfig } from 'node:util';

// The scripts' command lines (backup, restore, bench). node:util's parseArgs throws on an unknown
// option or a stray argument, and the operator got Node's stack trace instead of what to type.

/**
 * `parseArgs(config)`, except that a wrong option or argument ends the program with one line saying
 * which, then `usage`, on stderr, with exit code 2 (a usage error).
 */
export function parseArgsOrExit<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    process.stderr.write(`error: ${(error as Error).message}\n\n${usage}\n`);
    process.exit(2);
  }
}
