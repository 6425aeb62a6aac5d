/** The subset of the DOM's `DOMParser` that capture relies on (the browser's, or jsdom's on the command line). */
export interface DomParserLike {
  parseFromString(text: string, type: 'text/html' | 'application/xml'): Document;
}
