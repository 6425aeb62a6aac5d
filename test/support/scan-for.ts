/**
 * The quick scan of an article as the extension and the CLI run it: an article index built for
 * the catalogue of `properties` and the built-in schemas they do not name (`propertyCatalogue`),
 * scanned for `properties`.
 */
import type { Article } from '../../src/contracts/article';
import type { PropertyDefinition } from '../../src/contracts/property';
import { loadPropertySchemas, propertyCatalogue } from '../../src/properties';
import { buildArticleIndex } from '../../src/text/article-index';
import { scanArticle } from '../../src/text/scan';
import type { ScanResult } from '../../src/text/scan-types';

/** `scanArticle` of `article` for `properties` (default: every built-in schema). */
export function scanFor(article: Article, properties: readonly PropertyDefinition[] = loadPropertySchemas()): ScanResult {
  return scanArticle(buildArticleIndex(article, propertyCatalogue(properties)), { properties });
}
