import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isWebUrl, openInNewTab } from './webUrl';

describe('isWebUrl', () => {
  it.each([
    { url: 'https://example.com/r/1', want: true },
    { url: 'http://example.com', want: true },
    { url: 'HTTPS://EXAMPLE.COM/a', want: true },
    { url: 'javascript:alert(1)', want: false },
    { url: ' javascript:alert(1)', want: false },
    { url: 'JavaScript:alert(1)', want: false },
    { url: 'java\tscript:alert(1)', want: false },
    { url: 'data:text/html,<script>alert(1)</script>', want: false },
    { url: 'vbscript:msgbox(1)', want: false },
    { url: 'file:///etc/passwd', want: false },
    { url: 'blob:https://example.com/1', want: false },
    { url: '/logout', want: false },
    { url: '//evil.example/a', want: false },
    { url: '', want: false },
  ])('$url', ({ url, want }) => {
    expect(isWebUrl(url)).toBe(want);
  });
});

describe('openInNewTab', () => {
  beforeEach(() => {
    vi.spyOn(window, 'open').mockReturnValue(null);
  });

  it.each([
    { link: 'https://example.com/a', opened: true },
    { link: 'http://example.com/a', opened: true },
    { link: 'javascript:alert(1)', opened: false },
    { link: 'data:text/html,x', opened: false },
    { link: 'file:///etc/passwd', opened: false },
    { link: '/logout', opened: false },
  ])('$link', ({ link, opened }) => {
    openInNewTab(link);
    if (opened) expect(window.open).toHaveBeenCalledWith(link, '_blank', 'noopener,noreferrer');
    else expect(window.open).not.toHaveBeenCalled();
  });
});
