import { describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported; the stored list is read from a stand-in area below.
vi.hoisted(() => {
  (globalThis as { chrome?: unknown }).chrome = { runtime: { id: 'assay-test' }, storage: {} };
});

import {
  COMMON_PUBLISHER_SITES,
  isOnPaperSite,
  MAX_PAPER_SITES,
  parseSiteInput,
  readPaperSites,
  siteOfUrl,
  sitePermissionPattern,
  withoutPaperSite,
  withPaperSite,
} from '../../../src/extension/paper-sites';
import { paperSitesSetting, readStoredSetting, writeStoredSetting } from '../../../src/extension/stored-settings';

const ACS = 'https://pubs.acs.org';

describe('siteOfUrl and isOnPaperSite', () => {
  it('covers every path, query and fragment of the site', () => {
    expect(siteOfUrl('https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250?ref=x#sec1')).toBe(ACS);
    expect(isOnPaperSite('https://pubs.acs.org/doi/full/10.1021/x', [ACS])).toBe(true);
    expect(isOnPaperSite('https://pubs.acs.org/', [ACS])).toBe(true);
  });

  it('normalizes case and the default port, as the URL parser does', () => {
    expect(siteOfUrl('HTTPS://PUBS.ACS.ORG:443/doi/x')).toBe(ACS);
    expect(isOnPaperSite('https://Pubs.ACS.org/doi/x', [ACS])).toBe(true);
  });

  it('treats another host, subdomain or parent domain as another site', () => {
    expect(isOnPaperSite('https://acs.org/doi/x', [ACS])).toBe(false);
    expect(isOnPaperSite('https://www.pubs.acs.org/doi/x', [ACS])).toBe(false);
    expect(isOnPaperSite('https://pubs.acs.org.evil.example/doi/x', [ACS])).toBe(false);
  });

  it('treats another scheme or port as another site', () => {
    expect(isOnPaperSite('http://pubs.acs.org/doi/x', [ACS])).toBe(false);
    expect(isOnPaperSite('https://pubs.acs.org:8443/doi/x', [ACS])).toBe(false);
    expect(isOnPaperSite('http://publisher.test:4321/a', ['http://publisher.test:4321'])).toBe(true);
    expect(isOnPaperSite('http://publisher.test:4322/a', ['http://publisher.test:4321'])).toBe(false);
  });

  it('knows no site for hidden, unparsable or non-web URLs', () => {
    expect(siteOfUrl(undefined)).toBeNull();
    expect(siteOfUrl('')).toBeNull();
    expect(siteOfUrl('not a url')).toBeNull();
    expect(siteOfUrl('chrome://extensions')).toBeNull();
    expect(siteOfUrl('file:///home/reader/paper.html')).toBeNull();
    expect(isOnPaperSite(undefined, [ACS])).toBe(false);
    expect(isOnPaperSite('https://pubs.acs.org/doi/x', [])).toBe(false);
  });
});

describe('parseSiteInput', () => {
  it('reads an origin, a bare host or a whole page URL as the site', () => {
    expect(parseSiteInput(' https://pubs.acs.org ')).toEqual({ ok: true, site: ACS });
    expect(parseSiteInput('pubs.acs.org')).toEqual({ ok: true, site: ACS });
    expect(parseSiteInput('pubs.rsc.org/en/content/articlehtml/2016/ob/c6ob02074g')).toEqual({ ok: true, site: 'https://pubs.rsc.org' });
    expect(parseSiteInput('http://localhost:8080/x')).toEqual({ ok: true, site: 'http://localhost:8080' });
  });

  it('refuses an empty entry, another scheme and an unreadable address in words', () => {
    const empty = parseSiteInput('   ');
    expect(empty.ok).toBe(false);
    expect(!empty.ok && empty.message).toMatch(/Type a site/);
    const ftp = parseSiteInput('ftp://example.org');
    expect(!ftp.ok && ftp.message).toMatch(/Only web sites/);
    expect(parseSiteInput('https://exa mple.org').ok).toBe(false);
  });
});

describe('the stored list', () => {
  it('asks the permission for the site alone', () => {
    expect(sitePermissionPattern(ACS)).toBe('https://pubs.acs.org/*');
  });

  it('keeps only normalized web origins, once each, in order', () => {
    expect(
      readPaperSites([
        ACS,
        'https://pubs.acs.org/doi/x',
        'HTTPS://PUBS.RSC.ORG',
        'https://pubs.rsc.org',
        7,
        null,
        ACS,
        'ftp://x.org',
        'http://publisher.test:4321',
      ]),
    ).toEqual([ACS, 'https://pubs.rsc.org', 'http://publisher.test:4321']);
    expect(readPaperSites('https://pubs.acs.org')).toEqual([]);
    expect(readPaperSites(undefined)).toEqual([]);
  });

  it(`cuts a stored list at ${MAX_PAPER_SITES} sites, and refuses to add past it`, () => {
    const many = Array.from({ length: MAX_PAPER_SITES + 5 }, (_, index) => `https://site${index}.example`);
    const read = readPaperSites(many);
    expect(read).toHaveLength(MAX_PAPER_SITES);
    expect(() => withPaperSite(read, 'https://one-more.example')).toThrow(/At most/);
  });

  it('adds a site once and removes it', () => {
    const one = withPaperSite([], ACS);
    expect(one).toEqual([ACS]);
    expect(withPaperSite(one, ACS)).toEqual([ACS]);
    expect(withPaperSite(one, 'https://arxiv.org')).toEqual([ACS, 'https://arxiv.org']);
    expect(withoutPaperSite([ACS, 'https://arxiv.org'], ACS)).toEqual(['https://arxiv.org']);
  });

  it('offers common publishers that are sites by the same rule', () => {
    expect(COMMON_PUBLISHER_SITES.length).toBeGreaterThanOrEqual(9);
    for (const publisher of COMMON_PUBLISHER_SITES) expect(siteOfUrl(publisher.origin)).toBe(publisher.origin);
  });

  it('is stored under assay:paper-sites in storage.local, [] when missing or invalid', async () => {
    const items: Record<string, unknown> = {};
    const area = {
      get: async (key: string) => ({ [key]: items[key] }),
      set: async (next: Record<string, unknown>) => void Object.assign(items, next),
    };
    expect(paperSitesSetting.area).toBe('local');
    expect(await readStoredSetting(paperSitesSetting, area)).toEqual([]);
    await writeStoredSetting(paperSitesSetting, [ACS], area);
    expect(items['assay:paper-sites']).toEqual([ACS]);
    expect(await readStoredSetting(paperSitesSetting, area)).toEqual([ACS]);
    items['assay:paper-sites'] = { not: 'a list' };
    expect(await readStoredSetting(paperSitesSetting, area)).toEqual([]);
  });
});
