/** The rules extractor (engine "rules"): model-free material–property–value–unit triplets. */
export { extractWithRules, MAX_MENTION_TO_VALUE_CHARACTERS, type RulesOptions, type RulesDependencies } from './extract-with-rules';
