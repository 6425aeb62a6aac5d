/**
 * `assay eval cornell-tc`: the precedent dev set answered from a local Tc/Tcn table (`--reference
 * FILE`), scored 0/1/2; each question's own row and reference code left out by default, the whole
 * table (an oracle) with `--oracle-full-table`.
 */
import { resolve } from 'node:path';
import { defineEvaluator } from '../evaluator';

const NO_ENGINE = 'cornell-tc answers from the reference table; --engine/--replay are not supported';

export const cornellTcEvaluator = defineEvaluator({
  name: 'cornell-tc',
  summary: 'precedent questions (has X been reported superconducting?) answered from a reference table, leave-one-out',
  flags: {
    reference: {
      type: 'string',
      value: 'FILE',
      help: 'the Tc/Tcn table to answer from (default: SuperCon_Tc_Tcn_no_NA.csv beside the dev set)',
    },
    'oracle-full-table': { type: 'boolean', help: "answer from the whole table, each question's own row kept (an oracle)" },
  },
  needs: { texts: 'none' },
  refusals: { engine: NO_ENGINE, replay: NO_ENGINE, 'all-replays': NO_ENGINE },
  async run({ values, dataRoot, limit }) {
    // Loaded here: the materials parser is only needed for this dataset.
    const { evaluateCornellTc, cornellTcTable } = await import('./cornell-tc-evaluation');
    const result = await evaluateCornellTc({
      dataRoot,
      ...(limit === undefined ? {} : { limit }),
      ...(values.reference ? { referencePath: resolve(values.reference) } : {}),
      setup: values['oracle-full-table'] ? 'oracle-full-table' : 'leave-one-out',
    });
    return { json: result, markdown: cornellTcTable(result) };
  },
});
