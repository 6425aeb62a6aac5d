/**
 * `assay` command dispatcher. Contract: ../shared/docs/EVAL.md ("The command contract"):
 * with `--json` exactly one JSON document on stdout; progress on stderr; bad input → non-zero
 * exit and one clear line on stderr.
 */
import { runCapture } from './capture-command';

const USAGE = `usage: assay <command> [options]

commands:
  capture <file> [--json]   capture an article (HTML, XHTML, JATS/Elsevier/ACS XML, PDF or text)
`;

/** Exit codes: 0 success, 1 the input could not be captured, 2 usage error. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'capture':
      return runCapture(rest);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`assay: unknown command '${command}'\n${USAGE}`);
      return 2;
  }
}
