/** The rules extractor (engine "rules"): model-free material–property–value–unit triplets. */
export { extractWithRules, MAX_MENTION_TO_VALUE_CHARACTERS, type RulesOptions } from './extract-with-rules';
