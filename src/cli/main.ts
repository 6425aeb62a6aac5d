/**
 * `assay` command dispatcher. Contract: ../shared/docs/EVAL.md ("The command contract"):
 * with `--json` exactly one JSON document on stdout; progress on stderr; bad input → non-zero
 * exit and one clear line on stderr.
 */
import { guardTerminalOutput } from './terminal-output';
import { VERIFY_USAGE } from './verify-usage';

/** The usage; `${EVAL_LINES}` stands for the eval lines, generated from the evaluator registry when it is printed. */
const USAGE = `usage: assay <command> [options]

commands:
  capture <file> [--json] [--no-browser]         capture an article (HTML, XHTML, JATS/Elsevier/ACS XML, PDF or text);
                                                 hidden text of an HTML file is judged in headless Chromium (ASSAY_CHROMIUM,
                                                 else /usr/bin/chromium) unless --no-browser, else from its style rules only
  scan <file> [--property NAME] [--json]         quantities, materials and property-linked candidates, no model
  extract <file> --engine rules [--json] [--no-browser]
                                                 material–property–value–unit triplets with evidence
  extract <file> --engine openai --base-url URL --model ROLE=ID … [--preset paper|browser] [--embedding-model ID]
                 [--timeout SECONDS]             each attempt of a model call (default 120)
                 [--rate-limit-wait SECONDS]     most one call waits on a 429's Retry-After in all, each wait
                                                 said on stderr, then [rate-limited] (default 300; 0: give up at once)
                 [--concurrency N]               the server's parallel slots: N calls in flight, the paper's
                                                 independent calls (reading groups, proposers, …) N at a time
  extract <file> --engine scripted --script FILE   the SLM-MATRIX pipeline (any OpenAI-compatible endpoint)
                                                 (--base-url may be repeated: calls go to the least-loaded server)
  extract <file|folder|glob>… --out FILE.jsonl [--engine …] [--concurrency N] [--json]
                                                 a batch: dataset rows the extension imports, resumable (rerun the
                                                 same command), exit 0 all finished, 3 some failed, 1 usage error
                                                 or an --out another batch is writing (one batch per output)
  extract <file|folder|glob>… --estimate [--preset paper|browser] [--model ROLE=ID …] [--json]
                                                 papers, pages, calls and tokens the batch will need, no model called
  eval <dataset> [options]                       score against the shared ground truth:
\${EVAL_LINES}
${VERIFY_USAGE}  precedent "<material>" [--property tc] [--reference FILE]… [--dataset FILE] [--texts FILE.jsonl]
            [--literature --mailto ADDRESS [--openalex-key-env NAME]] [--engine scripted --script FILE | openai --base-url URL --model judge=ID]
                                                 has it been reported superconducting (Tc / Tcn), grounded in tables or texts, else Unknown
  import <file> … --out FILE.jsonl [--json]      import Assay JSON/JSONL/CSV exports into a dataset file, merging as the extension does;
                                                 each refused line named on stderr; exit 0 all imported, 3 some refused,
                                                 1 a file not read (nothing written), 2 usage error
  export <file> --format FORMAT [--out FILE] [--json]
                                                 a dataset file in one of the dataset page's export formats (stdout
                                                 without --out); assay export --help lists the formats
  bench [--runs N] [--json] [file …]            capture, scan and rules-extraction timings on sample papers
  bench --presets [--limit N] [--json]           LLM calls, tokens and model loads per paper for the paper and browser presets

Every command takes --json (exactly one JSON document on stdout). Data root: --data, else
ASSAY_DATA, else ../shared beside the project. Only regular files are read (links followed):
a named pipe, a device or a folder given as a file is refused with one line.
`;

/**
 * Each command's module is loaded when that command runs, so `assay --help` or a usage error
 * loads no capture, pdf.js, jsdom or tokenizer (and the prebuilt CLI keeps each in its own chunk):
 * the help loads only the evaluator registry, whose evaluators load their datasets inside `run`.
 */
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  capture: async (argv) => (await import('./capture-command')).runCapture(argv),
  scan: async (argv) => (await import('./scan-command')).runScan(argv),
  extract: async (argv) => (await import('./extract-command')).runExtract(argv),
  eval: async (argv) => (await import('./eval-command')).runEval(argv),
  bench: async (argv) => (await import('./bench-command')).runBench(argv),
  precedent: async (argv) => (await import('./precedent-command')).runPrecedent(argv),
  import: async (argv) => (await import('./import-command')).runImport(argv),
  export: async (argv) => (await import('./export-command')).runExport(argv),
  verify: async (argv) => (await import('./verify-command')).runVerify(argv),
};

/**
 * Exit codes: 0 success, 1 the input could not be processed, 2 usage error. Everything written
 * to stdout and stderr meanwhile is made terminal-safe (`terminal-output.ts`).
 */
export async function main(argv: string[]): Promise<number> {
  const restore = guardTerminalOutput(process.stdout, process.stderr);
  try {
    return await dispatch(argv);
  } finally {
    restore();
  }
}

/** Commands that answer --help themselves, from the table or registry they read (`assay export --help`: the export formats; `assay eval --help`: the evaluators). */
const OWN_HELP = new Set(['export', 'eval']);

/** The usage with the eval lines of the evaluator registry (src/eval/evaluators.ts), loaded only to print it. */
async function usage(): Promise<string> {
  const { EVALUATORS } = await import('../eval/evaluators');
  return USAGE.replace('${EVAL_LINES}\n', EVALUATORS.summaryLines().join('\n') + '\n');
}

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(await usage());
    return command === undefined ? 2 : 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    process.stderr.write(`assay: unknown command '${command}'\n${await usage()}`);
    return 2;
  }
  if (!OWN_HELP.has(command) && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(await usage());
    return 0;
  }
  return run(rest);
}
