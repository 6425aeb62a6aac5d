/** Evidence anchoring: describe a span as W3C selectors, and find selectors again in a text. */
export { describeQuote } from './describe-quote';
export { anchorEvidence, type Anchor, MIN_FUZZY_QUOTE_SIMILARITY, MIN_FUZZY_SCORE, MIN_FUZZY_QUOTE_LENGTH } from './anchor-evidence';
export { anchorQuoteInArticle, blockAt, completeEvidence } from './article-anchors';
export { foldText, type FoldedText } from './folded-text';
