import { describe, expect, it } from 'vitest';
import { contactHref, HELP_CENTRE_URL } from './support';

describe('contactHref', () => {
  it("writes to the tenant's support address", () => {
    expect(contactHref('help@example.test')).toBe('mailto:help@example.test');
  });

  it('falls back to the help centre when the tenant has no address', () => {
    expect(contactHref('')).toBe(HELP_CENTRE_URL);
    expect(contactHref(undefined)).toBe(HELP_CENTRE_URL);
  });
});
