/**
 * A DOI shown as a link to its resolver page.
 */

/** `https://doi.org/<doi>`, each path segment percent-encoded (DOIs may hold `#`, `?`, `<`). */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi.split('/').map(encodeURIComponent).join('/')}`;
}

/** The DOI as text, linking to doi.org in a new tab. */
export function DoiLink({ doi }: { doi: string }) {
  return (
    <a href={doiUrl(doi)} target="_blank" rel="noopener noreferrer">
      {doi}
    </a>
  );
}
