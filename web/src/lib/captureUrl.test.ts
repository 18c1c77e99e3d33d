import { describe, expect, it } from 'vitest';
import { urlProblem } from './captureUrl';

describe('urlProblem', () => {
  it.each([
    ['', 'Enter the address of the page to capture.'],
    ['   ', 'Enter the address of the page to capture.'],
    ['news.example/harbour', 'The address must be an absolute http or https URL.'],
    ['ftp://news.example/file', 'The address must be an absolute http or https URL.'],
    ['javascript:alert(1)', 'The address must be an absolute http or https URL.'],
    ['https://news.example/harbour', undefined],
    [' http://127.0.0.1:8080/page ', undefined],
  ])('%j → %s', (input, want) => {
    expect(urlProblem(input)).toBe(want);
  });
});
